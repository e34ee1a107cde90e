import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../core/db.ts';
import { attributeFromCreate } from './attributes.ts';
import { Catalog } from './catalog.ts';
import { Documents } from './documents.ts';
import type { AttributeKind, CollectionRecord, IndexType } from './types.ts';

const TIME = '2026-01-01T00:00:00.000+00:00';

/** A store in a throwaway folder with the Databases catalog and document store (for unit tests). */
export function testStore(): {
  store: Store;
  catalog: Catalog;
  documents: Documents;
  close: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'livedesk-db-test-'));
  const store = new Store(dir);
  const catalog = new Catalog(store);
  return {
    store,
    catalog,
    documents: new Documents(store, catalog),
    close: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a collection with attributes (`[kind, params]`) and indexes (`[key, type, attributes]`). */
export function testCollection(
  catalog: Catalog,
  options: {
    id?: string;
    documentSecurity?: boolean;
    attributes: [AttributeKind, Record<string, unknown>][];
    indexes?: [string, IndexType, string[], string[]?][];
  },
): CollectionRecord {
  const database =
    catalog.getDatabase('test') ??
    catalog.createDatabase({
      id: 'test',
      name: 'Test',
      enabled: true,
      createdAt: TIME,
      updatedAt: TIME,
    });
  let collection = catalog.createCollection({
    databaseSeq: database.seq,
    databaseId: database.id,
    id: options.id ?? 'things',
    name: 'Things',
    enabled: true,
    documentSecurity: options.documentSecurity ?? false,
    permissions: [],
    attributes: [],
    indexes: [],
    nextIndexSeq: 1,
    createdAt: TIME,
    updatedAt: TIME,
  });
  for (const [kind, params] of options.attributes)
    collection = catalog.addAttribute(
      collection,
      attributeFromCreate(kind, { required: false, ...params }, TIME),
    );
  for (const [key, type, attributes, orders] of options.indexes ?? []) {
    collection = catalog.createIndex(collection, {
      key,
      type,
      attributes,
      orders: orders ?? [],
      lengths: [],
      createdAt: TIME,
      updatedAt: TIME,
    }).collection;
  }
  return collection;
}
