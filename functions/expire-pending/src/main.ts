import { Databases, Query, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import { orderToDocumentData, type OrderDocument } from '../../../domain/order.ts';
import {
  expirePendingChange,
  PENDING_PAYMENT_TTL_MS,
  SYSTEM_ACTOR,
} from '../../../domain/order-machine.ts';
import { functionClient, isAppwriteError, serverError, toOrder } from '../../_shared/appwrite.ts';
import { activityWrite } from '../../_shared/order-writes.ts';
import { cancelUnpaidIntent } from '../../_shared/stripe.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';

/** Orders canceled per transaction (an `equal` query takes at most 100 values). */
export const BATCH = 50;
/** How long one run keeps retrying batches that others keep changing. */
const RUN_BUDGET_MS = 45_000;

const ORDERS = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.orders } as const;

/** Expired unpaid orders, oldest first, at most {@link BATCH}. */
async function listExpired(databases: Databases, cutoff: string): Promise<OrderDocument[]> {
  const { documents } = await databases.listDocuments({
    ...ORDERS,
    queries: [
      Query.equal('status', ['pending_payment']),
      Query.lessThanEqual('$createdAt', cutoff),
      Query.orderAsc('$createdAt'),
      Query.limit(BATCH),
    ],
  });
  return documents as unknown as OrderDocument[];
}

/**
 * Cancels `batch` in one transaction: per revision a bulk update by query (`updateDocuments` with
 * `$id` in the group — every order of a group gets the same `rev + 1`; checkout's orders are all
 * at rev 0 or 1, so this is one or two updates) and one bulk create of their `canceled` records.
 * Between the list and the staging someone may have paid an order: the orders are read again
 * after the staging, and any that changed since the list makes the batch a conflict (rolled back);
 * a change after the staging fails the commit (409). Either way nothing is written.
 */
async function cancelBatch(
  databases: Databases,
  batch: readonly OrderDocument[],
  now: number,
): Promise<'committed' | 'conflict'> {
  const { $id: transactionId } = await databases.createTransaction({ ttl: 60 });
  let staged = false;
  try {
    const groups = new Map<number, OrderDocument[]>();
    for (const doc of batch) groups.set(doc.rev, [...(groups.get(doc.rev) ?? []), doc]);
    for (const [rev, docs] of groups) {
      const change = expirePendingChange(toOrder(docs[0]!), now)!;
      await databases.updateDocuments({
        ...ORDERS,
        data: orderToDocumentData({ ...change.patch, rev: rev + 1 }),
        queries: [
          Query.equal(
            '$id',
            docs.map((doc) => doc.$id),
          ),
          Query.limit(docs.length),
        ],
        transactionId,
      });
    }
    const { documents } = await databases.listDocuments({
      ...ORDERS,
      queries: [
        Query.equal(
          '$id',
          batch.map((doc) => doc.$id),
        ),
        Query.limit(batch.length),
      ],
    });
    const listed = new Map(batch.map((doc) => [doc.$id, doc.$updatedAt]));
    if (
      documents.length !== batch.length ||
      documents.some((doc) => listed.get(doc.$id) !== doc.$updatedAt)
    )
      return 'conflict';
    await databases.createDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.activity,
      documents: batch.map((doc) => {
        const change = expirePendingChange(toOrder(doc), now)!;
        const write = activityWrite(doc.$id, doc.rev + 1, change.activity, SYSTEM_ACTOR, now);
        return { $id: write.documentId, ...write.data };
      }),
      transactionId,
    });
    staged = true;
  } finally {
    if (!staged)
      await databases.updateTransaction({ transactionId, rollback: true }).catch(() => {});
  }
  try {
    await databases.updateTransaction({ transactionId, commit: true });
    return 'committed';
  } catch (error) {
    if (isAppwriteError(error, 409)) return 'conflict';
    throw error;
  }
}

/** What one run of {@link expireAll} did. */
export interface ExpiryRun {
  /** Orders canceled. */
  canceled: number;
  /** Batches that someone changed meanwhile, listed and tried again. */
  retried: number;
  /** The PaymentIntents of the orders canceled (to be canceled at Stripe). */
  paymentIntents: string[];
}

/**
 * Cancels every expired unpaid order, {@link BATCH} at a time, each batch in one transaction
 * ({@link cancelBatch}); a batch that someone changed meanwhile is listed and tried again.
 */
export async function expireAll(client: Client, now: number): Promise<ExpiryRun> {
  const databases = new Databases(client);
  const cutoff = new Date(now - PENDING_PAYMENT_TTL_MS).toISOString();
  const deadline = Date.now() + RUN_BUDGET_MS;
  let canceled = 0;
  let retried = 0;
  const paymentIntents: string[] = [];
  for (;;) {
    const batch = (await listExpired(databases, cutoff)).filter(
      (doc) => expirePendingChange(toOrder(doc), now) !== null,
    );
    if (batch.length === 0) break;
    if ((await cancelBatch(databases, batch, now)) === 'committed') {
      canceled += batch.length;
      for (const doc of batch) if (doc.paymentIntentId) paymentIntents.push(doc.paymentIntentId);
    } else {
      retried++;
      // The next minute's run finishes what this one could not.
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
    }
  }
  return { canceled, retried, paymentIntents };
}

/**
 * `expire-pending` (every minute): cancels `pending_payment` orders created more than 30 minutes
 * ago, with a `canceled` activity each, in transactions of bulk updates by query, then their
 * PaymentIntents at Stripe, so that a card entered late is declined instead of charged and
 * refunded. Idempotent; safe against a payment or staff action landing at the same moment.
 * Answers `{canceled, retried, intentsCanceled}`.
 */
export default async function expirePending(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const now = Date.now();
    const { canceled, retried, paymentIntents } = await expireAll(functionClient(ctx.req), now);
    let intentsCanceled = 0;
    for (const paymentIntentId of paymentIntents)
      if (await cancelUnpaidIntent(paymentIntentId, (message) => ctx.log(message)))
        intentsCanceled += 1;
    ctx.log(
      `expire-pending: canceled ${canceled}, batches retried ${retried}, PaymentIntents canceled ${intentsCanceled} of ${paymentIntents.length}`,
    );
    return ctx.res.json({ canceled, retried, intentsCanceled });
  } catch (error) {
    return serverError(ctx, error);
  }
}
