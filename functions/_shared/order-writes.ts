import { Databases, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import type { OrderDocument, OrderDocumentData } from '../../domain/order.ts';
import type { OrderChange } from '../../domain/order-machine.ts';
import { activityIdFor, updateOrderIfUnchanged, writeActivity } from './appwrite.ts';

/**
 * Every write of an order together with its activity record goes through this file
 * ({@link commitOrderChange}, {@link commitNewOrder}), so that they can become one transaction in
 * one place.
 *
 * TRANSACTIONS — not yet. Appwrite 1.9 writes several documents atomically with its
 * transactions API (`databases.createTransaction`, `createOperations` with the order's update
 * and the activity's create, `updateTransaction({commit: true})`; a concurrent change makes the
 * commit fail with 409). The local backend does not implement it yet (it refuses `transactionId`
 * with `general_not_implemented`), so today these are two writes, in this order:
 *   1. the order, only if nobody changed it since it was read (`X-Appwrite-Timestamp`: 409 →
 *      `'conflict'`);
 *   2. the activity record, whose id derives from the new `rev` (`<orderId>.r<rev>`), so that
 *      writing it again records nothing twice.
 * What two writes cannot promise: a process that dies between them leaves the order changed
 * without its activity record. Callers get {@link Committed.activityError} when the second write
 * failed, log it, and still answer with the order (it did change).
 */

/** Who made a change, as the activity record names them (null for the shop's own records). */
export interface ChangeAuthor {
  id: string | null;
  name: string | null;
}

/** A committed change: the order as written, and why its activity record is missing, if it is. */
export interface Committed {
  order: OrderDocument;
  activityError: unknown;
}

/**
 * Writes `change` to the order `read` was read as, with its activity record by `author` at
 * `at`, unless someone changed the order since (`'conflict'`: nothing was written).
 */
export async function commitOrderChange(
  client: Client,
  read: OrderDocument,
  change: OrderChange,
  author: ChangeAuthor,
  at: number,
): Promise<Committed | 'conflict'> {
  const order = await updateOrderIfUnchanged(client, read, change);
  if (order === 'conflict') return 'conflict';
  const activityError = await writeActivity(client, {
    id: activityIdFor(read.$id, change.patch.rev),
    orderId: read.$id,
    kind: change.activity.kind,
    actorId: author.id,
    actorName: author.name,
    data: change.activity.data,
    at,
  }).then(
    () => null,
    (error: unknown) => error,
  );
  return { order, activityError };
}

/** A new order: its id, every attribute, and who may read it besides the desk team. */
export interface NewOrder {
  orderId: string;
  data: OrderDocumentData;
  permissions: string[];
}

/**
 * Creates an order with its first activity record (`<orderId>.r<rev>`). Throws what Appwrite
 * throws: 409 `document_already_exists` when the id, or the order number, is taken.
 */
export async function commitNewOrder(
  client: Client,
  order: NewOrder,
  activity: OrderChange['activity'],
  author: ChangeAuthor,
  at: number,
): Promise<Committed> {
  const created = (await new Databases(client).createDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: order.orderId,
    data: order.data,
    permissions: order.permissions,
  })) as unknown as OrderDocument;
  const activityError = await writeActivity(client, {
    id: activityIdFor(order.orderId, order.data.rev),
    orderId: order.orderId,
    kind: activity.kind,
    actorId: author.id,
    actorName: author.name,
    data: activity.data,
    at,
  }).then(
    () => null,
    (error: unknown) => error,
  );
  return { order: created, activityError };
}
