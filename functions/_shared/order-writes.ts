import { AppwriteException, Databases, type Client } from 'node-appwrite';
import { AppError } from '../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import {
  orderToDocumentData,
  type OrderDocument,
  type OrderDocumentData,
} from '../../domain/order.ts';
import type { OrderChange } from '../../domain/order-machine.ts';
import { activityIdFor, isAppwriteError, readOrder } from './appwrite.ts';

/**
 * Every write of an order goes through this file, together with its activity record
 * (`<orderId>.r<rev>`) and whatever other records the change is about (a note, an attachment):
 * one Appwrite 1.9 transaction (`createTransaction`, the order's update staged with
 * `transactionId`, the other writes with `createOperations`, `updateTransaction({commit: true})`),
 * so that an order never changes without its record nor a record exists without the change. A
 * change is decided on an order as it was read: the staged update answers the order as the
 * transaction sees it, and if its `$updatedAt` is not the one read, someone changed it in between
 * (rolled back: `'conflict'`); anyone changing it after the staging makes the commit fail with 409
 * `transaction_conflict` (`'conflict'` too, as does a record created meanwhile under the same id).
 * The committed order is read back for the answer. {@link commitUntilLanded} reads again and
 * decides again after a conflict until the change lands (bounded by time, never by a count).
 * A writer that holds the order as it last wrote it (the simulator) stages the same writes in one
 * call and reads nothing ({@link commitHeldOrderChange}, {@link writeNewOrder}).
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

/** A document written in the same transaction as an order's change. */
export interface StagedWrite {
  action: 'create' | 'update';
  collectionId: string;
  documentId: string;
  data: Record<string, unknown>;
}

/** Seconds a transaction may stay open (Appwrite's minimum; ours last milliseconds). */
const TTL_SECONDS = 60;

/** The `activity` record of the change that made `orderId` reach `rev` (`data` ≤ 4,096 characters). */
export function activityWrite(
  orderId: string,
  rev: number,
  activity: OrderChange['activity'],
  author: ChangeAuthor,
  at: number,
): StagedWrite {
  return {
    action: 'create',
    collectionId: COLLECTIONS.activity,
    documentId: activityIdFor(orderId, rev),
    data: {
      orderId,
      kind: activity.kind,
      actorId: author.id,
      actorName: author.name,
      data: JSON.stringify(activity.data).slice(0, 4096),
      at: new Date(at).toISOString(),
    },
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
  } catch (error) {
    // A staged write that is refused for a taken id is a conflict like any other.
    if (!isAppwriteError(error, 409)) throw error;
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
 * Writes `change` to the order `read` was read as, with its activity record by `author` at `at`
 * and the `writes` the change is about, in one transaction — unless someone changed the order
 * since, or a record of `writes` exists already (`'conflict'`: nothing was written).
 */
export async function commitOrderChange(
  client: Client,
  read: OrderDocument,
  change: OrderChange,
  author: ChangeAuthor,
  at: number,
  writes: readonly StagedWrite[] = [],
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
    await databases.createOperations({
      transactionId,
      operations: [
        ...writes,
        activityWrite(read.$id, change.patch.rev, change.activity, author, at),
      ].map((write) => ({ ...write, databaseId: DATABASE_ID })),
    });
    return true;
  });
  if (!committed) return 'conflict';
  return { order: await readOrderDocument(databases, read.$id) };
}

/**
 * Stages `operations` in one `createOperations` call of a new transaction and commits it (three
 * requests). Answers false when the commit is refused because a document changed after the
 * staging or a created id is taken (409: nothing written); anything else throws.
 */
export async function commitOperations(
  client: Client,
  operations: readonly StagedWrite[],
): Promise<boolean> {
  const databases = new Databases(client);
  return inTransaction(databases, async (transactionId) => {
    await databases.createOperations({
      transactionId,
      operations: operations.map((write) => ({ ...write, databaseId: DATABASE_ID })),
    });
    return true;
  });
}

/**
 * What {@link commitHeldOrderChange} stages: the order's update, the `writes` and the activity
 * record, in that order (the order in which {@link commitOrderChange} stages them).
 */
export function heldChangeOperations(
  orderId: string,
  change: OrderChange,
  author: ChangeAuthor,
  at: number,
  writes: readonly StagedWrite[] = [],
): StagedWrite[] {
  return [
    {
      action: 'update',
      collectionId: COLLECTIONS.orders,
      documentId: orderId,
      data: orderToDocumentData(change.patch),
    },
    ...writes,
    activityWrite(orderId, change.patch.rev, change.activity, author, at),
  ];
}

/**
 * {@link commitOrderChange} for a writer that holds the order as it last wrote or read it (the
 * simulator): {@link heldChangeOperations} in one transaction ({@link commitOperations}) — three
 * requests, no read before and none after. Answers `'conflict'` (nothing written) when the order
 * is no longer at `change.patch.rev - 1`: whoever moved it on created the record of that
 * revision, so the commit finds the record's id taken (every writer keeps that invariant,
 * domain/order-invariants.ts), or changed it after the staging. A writer that moved `rev` on
 * without its records would not be seen: such writers keep to {@link commitOrderChange}, which
 * checks the order's `$updatedAt`.
 */
export async function commitHeldOrderChange(
  client: Client,
  orderId: string,
  change: OrderChange,
  author: ChangeAuthor,
  at: number,
  writes: readonly StagedWrite[] = [],
): Promise<'committed' | 'conflict'> {
  const operations = heldChangeOperations(orderId, change, author, at, writes);
  return (await commitOperations(client, operations)) ? 'committed' : 'conflict';
}

/**
 * Thrown by a planner of {@link commitUntilLanded} when an earlier attempt of the same change
 * committed meanwhile (the same request, sent twice): nothing more to write.
 */
export class AlreadyWritten extends Error {}

/** What {@link commitUntilLanded} writes on the order as read: the change and its records. */
export interface PlannedChange {
  change: OrderChange;
  author: ChangeAuthor;
  writes?: readonly StagedWrite[];
}

/** How long {@link commitUntilLanded} keeps trying (under the functions' 15 s timeout). */
export const LANDING_TIMEOUT_MS = 10_000;

/**
 * Reads the order, asks `decide` what to write on it, and commits that in one transaction
 * ({@link commitOrderChange}); after a conflict it waits a moment (jittered, growing to 200 ms),
 * reads the order again and decides again, until the change lands. Every conflict means another
 * change committed, so a busy order still moves; only `timeoutMs` ends the tries, with a clear
 * `ORDER_CONFLICT` refusal and nothing written. `decide` may throw an `AppError` to refuse (given
 * the attempt number, so that it can check whether an earlier attempt's records exist).
 */
export async function commitUntilLanded(
  client: Client,
  orderId: string,
  decide: (read: OrderDocument, attempt: number) => Promise<PlannedChange> | PlannedChange,
  timeoutMs = LANDING_TIMEOUT_MS,
): Promise<Committed> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const read = await readOrder(client, orderId);
    const planned = await decide(read, attempt);
    const committed = await commitOrderChange(
      client,
      read,
      planned.change,
      planned.author,
      Date.now(),
      planned.writes ?? [],
    );
    if (committed !== 'conflict') return committed;
    if (Date.now() >= deadline)
      throw new AppError(
        'ORDER_CONFLICT',
        `This order kept changing for ${Math.round(timeoutMs / 1000)} s, so nothing was saved. Try again.`,
        { currentRev: read.rev, attempts: attempt },
      );
    const ceiling = Math.min(200, 5 * 2 ** Math.min(attempt, 6));
    await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
  }
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
  await writeNewOrder(client, order, activity, author, at);
  return { order: await readOrderDocument(new Databases(client), order.orderId) };
}

/** What {@link writeNewOrder} stages: the order, then its first activity record. */
export function newOrderOperations(
  order: NewOrder,
  activity: OrderChange['activity'],
  author: ChangeAuthor,
  at: number,
): StagedWrite[] {
  return [
    {
      action: 'create',
      collectionId: COLLECTIONS.orders,
      documentId: order.orderId,
      data: { ...order.data, $permissions: order.permissions },
    },
    activityWrite(order.orderId, order.data.rev, activity, author, at),
  ];
}

/**
 * {@link commitNewOrder} without reading the order back (three requests): resolves once it is
 * committed, for a writer that knows what it wrote.
 */
export async function writeNewOrder(
  client: Client,
  order: NewOrder,
  activity: OrderChange['activity'],
  author: ChangeAuthor,
  at: number,
): Promise<void> {
  if (!(await commitOperations(client, newOrderOperations(order, activity, author, at))))
    throw takenError(order);
}

/** Appwrite's 409 for a new order whose id or number is taken. */
export function takenError(order: NewOrder): AppwriteException {
  return new AppwriteException(
    `Order ${order.orderId} or its number #${order.data.number} is taken.`,
    409,
    'document_already_exists',
  );
}
