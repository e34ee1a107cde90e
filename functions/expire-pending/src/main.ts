import { Databases, Query, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import type { OrderDocument } from '../../../domain/order.ts';
import {
  expirePendingChange,
  PENDING_PAYMENT_TTL_MS,
  SYSTEM_ACTOR,
} from '../../../domain/order-machine.ts';
import {
  activityIdFor,
  functionClient,
  readOrder,
  serverError,
  toOrder,
  updateOrderIfUnchanged,
  writeActivity,
} from '../../_shared/appwrite.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';

const PAGE = 100;
/** Attempts per order when someone else writes it at the same moment. */
const ATTEMPTS = 3;

type Outcome = 'canceled' | 'skipped';

/**
 * Cancels one order if it is still an expired unpaid one, safely against concurrent writers
 * (the write names the `$updatedAt` it read; on a conflict the order is read again).
 */
async function expireOne(client: Client, doc: OrderDocument, now: number): Promise<Outcome> {
  let read = doc;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const change = expirePendingChange(toOrder(read), now);
    if (!change) return 'skipped';
    const updated = await updateOrderIfUnchanged(client, read, change);
    if (updated !== 'conflict') {
      await writeActivity(client, {
        id: activityIdFor(read.$id, change.patch.rev),
        orderId: read.$id,
        kind: change.activity.kind,
        actorId: SYSTEM_ACTOR.id,
        actorName: SYSTEM_ACTOR.name,
        data: change.activity.data,
        at: now,
      });
      return 'canceled';
    }
    read = await readOrder(client, read.$id);
  }
  return 'skipped';
}

/**
 * `expire-pending` (every minute): cancels `pending_payment` orders created more than 30 minutes
 * ago, with a `canceled` activity each. Idempotent; safe against a payment or staff action
 * landing at the same moment. Answers `{canceled, skipped}`.
 */
export default async function expirePending(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const client = functionClient(ctx.req);
    const databases = new Databases(client);
    const now = Date.now();
    const cutoff = new Date(now - PENDING_PAYMENT_TTL_MS).toISOString();
    const seen = new Set<string>();
    let canceled = 0;
    let skipped = 0;
    for (;;) {
      const { documents } = await databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        queries: [
          Query.equal('status', ['pending_payment']),
          Query.lessThanEqual('$createdAt', cutoff),
          Query.orderAsc('$createdAt'),
          Query.limit(PAGE),
        ],
      });
      const fresh = (documents as unknown as OrderDocument[]).filter((doc) => !seen.has(doc.$id));
      for (const doc of fresh) {
        seen.add(doc.$id);
        if ((await expireOne(client, doc, now)) === 'canceled') canceled++;
        else skipped++;
      }
      if (documents.length < PAGE || fresh.length === 0) break;
    }
    ctx.log(`expire-pending: canceled ${canceled}, skipped ${skipped} (cutoff ${cutoff})`);
    return ctx.res.json({ canceled, skipped });
  } catch (error) {
    return serverError(ctx, error);
  }
}
