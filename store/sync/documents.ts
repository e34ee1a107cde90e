import {
  activityFromDocument,
  attachmentFromDocument,
  exportFromDocument,
  noteFromDocument,
  productFromDocument,
} from '../../src/domain/entities.ts';
import { DATABASE_ID } from '../../src/domain/ids.ts';
import { orderFromDocument, type DocumentMeta } from '../../src/domain/order.ts';
import type { RemoteChange, SyncedCollection, SyncedEntities } from '../tables/changes.ts';
import { SYNCED_COLLECTIONS } from '../tables/changes.ts';
import type { RealtimeEvent } from './ports.ts';

/** The realtime channel of a collection's documents. */
export function documentsChannel(collection: string): string {
  return `databases.${DATABASE_ID}.collections.${collection}.documents`;
}

const CHANNEL = new RegExp(`^databases\\.${DATABASE_ID}\\.collections\\.([^.]+)\\.documents$`);

function isSynced(collection: string): collection is SyncedCollection {
  return (SYNCED_COLLECTIONS as readonly string[]).includes(collection);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** The fields of each record that hold objects (the rest are primitives). */
const NESTED: { [C in SyncedCollection]: readonly (keyof SyncedEntities[C])[] } = {
  orders: ['items'],
  products: [],
  notes: [],
  activity: ['data'],
  attachments: [],
  exports: ['filter'],
};

type Converter<C extends SyncedCollection> = (doc: never) => SyncedEntities[C];

const CONVERTERS: { [C in SyncedCollection]: Converter<C> } = {
  orders: orderFromDocument as Converter<'orders'>,
  products: productFromDocument as Converter<'products'>,
  notes: noteFromDocument as Converter<'notes'>,
  activity: activityFromDocument as Converter<'activity'>,
  attachments: attachmentFromDocument as Converter<'attachments'>,
  exports: exportFromDocument as Converter<'exports'>,
};

/**
 * Converts a backend document of `collection` into its frozen domain record. Records in the
 * store are never mutated (they are replaced), and freezing them once here keeps immer from
 * walking them later.
 */
export function recordFromDocument<C extends SyncedCollection>(
  collection: C,
  doc: DocumentMeta,
): SyncedEntities[C] {
  const record = (CONVERTERS[collection] as (doc: DocumentMeta) => SyncedEntities[C])(doc);
  for (const field of NESTED[collection]) deepFreeze(record[field]);
  return Object.freeze(record) as SyncedEntities[C];
}

/** A remote change from a document of `collection`. */
export function changeFromDocument(
  collection: SyncedCollection,
  doc: DocumentMeta,
  kind: 'upsert' | 'delete' = 'upsert',
): RemoteChange {
  return { collection, kind, record: recordFromDocument(collection, doc) } as RemoteChange;
}

/**
 * Reads a realtime event: which synced collection, upsert or delete, and the record. Returns
 * null for events of other channels or with a payload that is not a document.
 */
export function changeFromEvent(event: RealtimeEvent): RemoteChange | null {
  let collection: SyncedCollection | null = null;
  for (const channel of event.channels) {
    const match = CHANNEL.exec(channel);
    if (match && isSynced(match[1]!)) {
      collection = match[1];
      break;
    }
  }
  const payload = event.payload as Partial<DocumentMeta> | null;
  if (collection === null || typeof payload !== 'object' || payload === null) return null;
  if (typeof payload.$id !== 'string' || typeof payload.$updatedAt !== 'string') return null;
  const kind = event.events.some((name) => name.endsWith('.delete')) ? 'delete' : 'upsert';
  try {
    return changeFromDocument(collection, payload as DocumentMeta, kind);
  } catch {
    return null;
  }
}
