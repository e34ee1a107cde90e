import {
  ACTIVITY_SCHEMA,
  ATTACHMENT_SCHEMA,
  EXPORT_SCHEMA,
  NOTE_SCHEMA,
  PRODUCT_SCHEMA,
} from '../../domain/entities.ts';
import { DATABASE_ID } from '../../domain/ids.ts';
import { ORDER_SCHEMA, type Order, type OrderDocumentData } from '../../domain/order.ts';
import {
  deepFreeze,
  fieldsOfType,
  listFields,
  recordFromDocument as convert,
  type DocumentMeta,
  type EntitySchema,
} from '../../domain/schema.ts';
import {
  SYNCED_COLLECTIONS,
  type RemoteChange,
  type SyncedCollection,
  type SyncedEntities,
} from '../records/changes.ts';
import { memberFromDocument, presenceFromDocument } from '../records/people.ts';
import type { RealtimeEvent } from './ports.ts';

/** The database collections among the synced sets, with their schemas. */
const SCHEMAS = {
  orders: ORDER_SCHEMA,
  products: PRODUCT_SCHEMA,
  notes: NOTE_SCHEMA,
  activity: ACTIVITY_SCHEMA,
  attachments: ATTACHMENT_SCHEMA,
  exports: EXPORT_SCHEMA,
} as const satisfies Partial<Record<SyncedCollection, EntitySchema>>;

type DocumentCollection = keyof typeof SCHEMAS;

/** The realtime channel of a collection's documents. */
export function documentsChannel(collection: string): string {
  return `databases.${DATABASE_ID}.collections.${collection}.documents`;
}

/** The realtime channel of each synced set. */
export function channelOf(collection: SyncedCollection): string {
  if (collection === 'members') return 'memberships';
  if (collection === 'presence') return 'presences';
  return documentsChannel(collection);
}

const CHANNELS = new Map<string, SyncedCollection>(
  SYNCED_COLLECTIONS.map((collection) => [channelOf(collection), collection]),
);

/** The fields of each collection's records that hold objects (JSON; the rest are primitives). */
const NESTED = Object.fromEntries(
  Object.entries(SCHEMAS).map(([collection, schema]) => [collection, fieldsOfType(schema, 'json')]),
) as unknown as Record<DocumentCollection, readonly string[]>;

/** Freezes a converted record and the objects in its JSON fields. */
function freezeRecord<T>(collection: DocumentCollection, record: T): T {
  for (const field of NESTED[collection]) deepFreeze((record as Record<string, unknown>)[field]);
  return Object.freeze(record);
}

/**
 * Converts a backend document of `collection` (a membership or presence for `members` and
 * `presence`) into its frozen record, or null when it is not one the store keeps (another team's
 * membership). Records in the store are never mutated (they are replaced), and freezing them
 * once here keeps immer from walking them later.
 */
export function recordFromDocument<C extends SyncedCollection>(
  collection: C,
  doc: DocumentMeta,
): SyncedEntities[C] | null {
  if (collection === 'members') return freezeOrNull(memberFromDocument(doc)) as SyncedEntities[C];
  if (collection === 'presence')
    return freezeOrNull(presenceFromDocument(doc)) as SyncedEntities[C];
  const documents = collection as DocumentCollection;
  return freezeRecord(documents, convert(SCHEMAS[documents], doc)) as SyncedEntities[C];
}

function freezeOrNull<T>(record: T | null): T | null {
  return record === null ? null : Object.freeze(record);
}

/**
 * The attributes of an order that the desk's lists and metrics read (the fields marked `list` in
 * `ORDER_SCHEMA`). The snapshot reads only these (with `$id`, `$createdAt`, `$updatedAt`;
 * `Query.select`): about 70% of the bytes and half the server time of whole documents. Realtime
 * events, delta reads and single reads bring whole orders.
 */
export const ORDER_LIST_FIELDS: readonly (keyof OrderDocumentData)[] = listFields(ORDER_SCHEMA);

/** What `Query.select` asks for in a list read of orders. */
export const ORDER_LIST_SELECT: readonly string[] = [
  '$id',
  '$createdAt',
  '$updatedAt',
  ...ORDER_LIST_FIELDS,
];

/**
 * Converts an order document read with {@link ORDER_LIST_SELECT} into a frozen list copy:
 * `partial`, with placeholders in the fields it lacks. A whole copy of the same version
 * replaces it (see `isNewer`), never the other way round.
 */
export function listOrderFromDocument(doc: DocumentMeta): Order {
  const order: Order = convert(ORDER_SCHEMA, doc, 'list');
  order.partial = true;
  return freezeRecord('orders', order);
}

/** A remote change from a document of `collection` (null: not a record the store keeps). */
export function changeFromDocument(
  collection: SyncedCollection,
  doc: DocumentMeta,
  kind: 'upsert' | 'delete' = 'upsert',
): RemoteChange | null {
  const record = recordFromDocument(collection, doc);
  return record === null ? null : ({ collection, kind, record } as RemoteChange);
}

/**
 * Reads a realtime event: which synced set, upsert or delete, and the record. Returns null for
 * events of other channels, with a payload that is not a document, or that `wanted` turns down
 * (checked before the document is converted).
 */
export function changeFromEvent(
  event: RealtimeEvent,
  wanted?: (collection: SyncedCollection, doc: DocumentMeta) => boolean,
): RemoteChange | null {
  let collection: SyncedCollection | undefined;
  for (const channel of event.channels) {
    collection = CHANNELS.get(channel);
    if (collection !== undefined) break;
  }
  const payload = event.payload as Partial<DocumentMeta> | null;
  if (collection === undefined || typeof payload !== 'object' || payload === null) return null;
  if (typeof payload.$id !== 'string' || typeof payload.$updatedAt !== 'string') return null;
  if (wanted && !wanted(collection, payload as DocumentMeta)) return null;
  const kind = event.events.some((name) => name.endsWith('.delete')) ? 'delete' : 'upsert';
  try {
    return changeFromDocument(collection, payload as DocumentMeta, kind);
  } catch {
    return null;
  }
}
