import { AppwriteException, Databases, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import {
  orderToDocumentData,
  type OrderDocument,
  type OrderDocumentData,
} from '../../domain/order.ts';
import type { OrderChange } from '../../domain/order-machine.ts';
import { activityIdFor, isAppwriteError } from './appwrite.ts';

/**
 * Every write of an order together with its activity record goes through this file: one Appwrite
 * 1.9 transaction (`createTransaction`, the two operations staged with `transactionId`,
 * `updateTransaction({commit: true})`), so that an order never changes without its record
 * (`<orderId>.r<rev>`) nor the record exists without the change. A change is decided on an order
 * as it was read: the staged update answers the order as the transaction sees it, and if its
 * `$updatedAt` is not the one read, someone changed it in between (rolled back: `'conflict'`);
 * anyone changing it after the staging makes the commit fail with 409 `transaction_conflict`
 * (`'conflict'` too). The committed order is read back for the answer.
 */

/** Who made a change, as the activity record names them (null for the shop's own records). */
export interface ChangeAuthor {
  id: string | null;
  name: string | null;
}

/** A committed change: the order as it is after the commit. */
export interface Committed {
  order: OrderDocument;
}

/** Seconds a transaction may stay open (Appwrite's minimum; ours last milliseconds). */
const TTL_SECONDS = 60;

function activityData(
  orderId: string,
  activity: OrderChange['activity'],
  author: ChangeAuthor,
  at: number,
): Record<string, unknown> {
  return {
    orderId,
    kind: activity.kind,
    actorId: author.id,
    actorName: author.name,
    data: JSON.stringify(activity.data).slice(0, 4096),
    at: new Date(at).toISOString(),
  };
}

async function readOrderDocument(databases: Databases, orderId: string): Promise<OrderDocument> {
  return (await databases.getDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: orderId,
  })) as unknown as OrderDocument;
}

/**
 * Runs `stage(transactionId)` in a new transaction and commits it. `stage` answers false to give
 * up (rolled back). Returns whether it committed; a commit refused because a document changed
 * (409) is false, anything else throws.
 */
async function inTransaction(
  databases: Databases,
  stage: (transactionId: string) => Promise<boolean>,
): Promise<boolean> {
  const { $id: transactionId } = await databases.createTransaction({ ttl: TTL_SECONDS });
  let staged = false;
  try {
    staged = await stage(transactionId);
  } finally {
    if (!staged)
      await databases.updateTransaction({ transactionId, rollback: true }).catch(() => {});
  }
  if (!staged) return false;
  try {
    await databases.updateTransaction({ transactionId, commit: true });
    return true;
  } catch (error) {
    if (isAppwriteError(error, 409)) return false;
    throw error;
  }
}

/**
 * Writes `change` to the order `read` was read as, with its activity record by `author` at
 * `at`, in one transaction — unless someone changed the order since (`'conflict'`: nothing was
 * written).
 */
export async function commitOrderChange(
  client: Client,
  read: OrderDocument,
  change: OrderChange,
  author: ChangeAuthor,
  at: number,
): Promise<Committed | 'conflict'> {
  const databases = new Databases(client);
  const committed = await inTransaction(databases, async (transactionId) => {
    const seen = (await databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: read.$id,
      data: orderToDocumentData(change.patch),
      transactionId,
    })) as unknown as OrderDocument;
    if (seen.$updatedAt !== read.$updatedAt) return false;
    await databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.activity,
      documentId: activityIdFor(read.$id, change.patch.rev),
      data: activityData(read.$id, change.activity, author, at),
      transactionId,
    });
    return true;
  });
  if (!committed) return 'conflict';
  return { order: await readOrderDocument(databases, read.$id) };
}

/** A new order: its id, every attribute, and who may read it besides the desk team. */
export interface NewOrder {
  orderId: string;
  data: OrderDocumentData;
  permissions: string[];
}

/**
 * Creates an order with its first activity record (`<orderId>.r<rev>`) in one transaction.
 * Throws Appwrite's 409 when the id, or the order number, is taken (nothing is written then).
 */
export async function commitNewOrder(
  client: Client,
  order: NewOrder,
  activity: OrderChange['activity'],
  author: ChangeAuthor,
  at: number,
): Promise<Committed> {
  const databases = new Databases(client);
  const committed = await inTransaction(databases, async (transactionId) => {
    await databases.createOperations({
      transactionId,
      operations: [
        {
          action: 'create',
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.orders,
          documentId: order.orderId,
          data: { ...order.data, $permissions: order.permissions },
        },
        {
          action: 'create',
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.activity,
          documentId: activityIdFor(order.orderId, order.data.rev),
          data: activityData(order.orderId, activity, author, at),
        },
      ],
    });
    return true;
  });
  if (!committed)
    throw new AppwriteException(
      `Order ${order.orderId} or its number #${order.data.number} is taken.`,
      409,
      'document_already_exists',
    );
  return { order: await readOrderDocument(databases, order.orderId) };
}
