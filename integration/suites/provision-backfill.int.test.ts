import { Databases, ID, Query } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { DATABASE_ID } from '../../domain/ids.ts';
import { itemsSummaryOfStored } from '../../domain/order.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { schema, type CollectionSpec, type SchemaSpec } from '../../scripts/schema.ts';
import { serverClient, uniqueTestId } from '../support/clients.ts';

// Provisioning fills in a derived attribute for the documents stored before it existed (as the
// orders' itemsSummary), in a collection of the test's own.

const lines = (count: number) =>
  JSON.stringify(
    Array.from({ length: count }, (_, i) => ({
      productId: `p${i}`,
      name: `Product ${i}`,
      unitPriceCents: 100,
      qty: i + 1,
    })),
  );

describe('provisioning: backfills', () => {
  it('fills in a new derived attribute for every stored document, page after page, once', async () => {
    const collectionId = uniqueTestId('bf');
    const before: CollectionSpec = {
      id: collectionId,
      name: 'Backfill test',
      permissions: [],
      documentSecurity: false,
      attributes: [{ type: 'string', key: 'items', size: 4096, required: true }],
      indexes: [],
    };
    const spec = (collection: CollectionSpec): SchemaSpec => ({
      ...schema,
      collections: [collection],
      buckets: [],
      functions: [],
    });
    await new Provisioner(serverClient(), () => {}, { env: {} }).apply(spec(before));
    const databases = new Databases(serverClient());
    const stored = ['[]', 'not json', ...Array.from({ length: 148 }, (_, i) => lines((i % 4) + 1))];
    for (const items of stored)
      await databases.createDocument({
        databaseId: DATABASE_ID,
        collectionId,
        documentId: ID.unique(),
        data: { items },
      });

    const after: CollectionSpec = {
      ...before,
      attributes: [
        ...before.attributes,
        { type: 'string', key: 'itemsSummary', size: 512, required: false },
      ],
      backfills: [
        { key: 'itemsSummary', reads: ['items'], value: (doc) => itemsSummaryOfStored(doc.items) },
      ],
    };
    const first = await new Provisioner(serverClient(), () => {}, { env: {} }).apply(spec(after));
    expect(first.changes).toContain(`~ ${collectionId}.itemsSummary filled in for 150 document(s)`);
    const { documents, total } = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId,
      queries: [Query.limit(200)],
    });
    expect(total).toBe(150);
    for (const doc of documents)
      expect(doc['itemsSummary'], doc['items'] as string).toBe(itemsSummaryOfStored(doc['items']));
    expect(documents.filter((doc) => doc['itemsSummary'] === '')).toHaveLength(2);
    expect(documents.map((doc) => doc['itemsSummary'])).toContain('1× Product 0, 2× Product 1');

    const second = await new Provisioner(serverClient(), () => {}, { env: {} }).apply(spec(after));
    expect(second.changes).toEqual([]);
    await databases.deleteCollection({ databaseId: DATABASE_ID, collectionId });
  });
});
