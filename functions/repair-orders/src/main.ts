import { Databases, Query, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID, REPAIR_CURSOR_ID } from '../../../domain/ids.ts';
import type { OrderDocument } from '../../../domain/order.ts';
import { describeDrift, type Drift } from '../../../domain/order-invariants.ts';
import { functionClient, isAppwriteError, serverError } from '../../_shared/appwrite.ts';
import { AUDIT_BATCH, auditOrders, repairOrder } from '../../_shared/order-audit.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';

/** Orders changed this long before the cursor are checked again (commits in flight). */
export const MARGIN_MS = 60_000;
/**
 * Orders changed more recently than this are left for a later run: a change landing now is
 * someone's work in progress (and a test's), and every commit is whole anyway.
 */
export const SETTLE_MS = 60_000;
/** Where a first run starts: orders changed in the last hour. */
export const FIRST_WINDOW_MS = 3_600_000;
/** Orders one run checks at most; the cursor keeps the place for the next minute. */
export const MAX_ORDERS_PER_RUN = 20_000;

const COUNTER = {
  databaseId: DATABASE_ID,
  collectionId: COLLECTIONS.counters,
  documentId: REPAIR_CURSOR_ID,
} as const;

/** The cursor (ms of the last `$updatedAt` checked), or null before the first run. */
async function readCursor(databases: Databases): Promise<number | null> {
  try {
    return (await databases.getDocument(COUNTER)).value as number;
  } catch (error) {
    if (isAppwriteError(error, 404)) return null;
    throw error;
  }
}

async function saveCursor(databases: Databases, value: number): Promise<void> {
  await databases.upsertDocument({ ...COUNTER, data: { value } });
}

/** `settleMs` of the request body (a whole number ≥ 0), else {@link SETTLE_MS}. */
export function settleOf(bodyText: string): number {
  try {
    const { settleMs } = JSON.parse(bodyText || '{}') as { settleMs?: unknown };
    return typeof settleMs === 'number' && Number.isInteger(settleMs) && settleMs >= 0
      ? settleMs
      : SETTLE_MS;
  } catch {
    return SETTLE_MS;
  }
}

/** What one run did. */
export interface RepairRun {
  checked: number;
  drift: Drift[];
  repaired: Drift[];
  from: string;
  to: string | null;
}

/**
 * Checks every order changed since `sinceMs` and before `untilMs` (default: {@link SETTLE_MS}
 * ago) (oldest change first, {@link AUDIT_BATCH} a page,
 * at most `maxOrders`), repairs the drift it can (`repair: false`: only reports) and answers
 * where it got to.
 */
export async function repairSince(
  client: Client,
  sinceMs: number,
  options: { repair?: boolean; maxOrders?: number; untilMs?: number } = {},
): Promise<RepairRun> {
  const databases = new Databases(client);
  const from = new Date(sinceMs).toISOString();
  const until = new Date(options.untilMs ?? Date.now() - SETTLE_MS).toISOString();
  const run: RepairRun = { checked: 0, drift: [], repaired: [], from, to: null };
  let after: string | null = null;
  const maxOrders = options.maxOrders ?? MAX_ORDERS_PER_RUN;
  while (run.checked < maxOrders) {
    const { documents } = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [
        Query.greaterThanEqual('$updatedAt', from),
        Query.lessThan('$updatedAt', until),
        Query.orderAsc('$updatedAt'),
        Query.orderAsc('$id'),
        Query.limit(AUDIT_BATCH),
        Query.select(['status', 'rev', 'noteCount', 'attachmentCount']),
        ...(after ? [Query.cursorAfter(after)] : []),
      ],
    });
    const orders = documents as unknown as OrderDocument[];
    if (orders.length === 0) break;
    run.checked += orders.length;
    run.to = orders[orders.length - 1]!.$updatedAt;
    after = orders[orders.length - 1]!.$id;
    const drift = await auditOrders(client, orders);
    run.drift.push(...drift);
    if (options.repair !== false)
      for (const orderId of new Set(drift.map((item) => item.orderId)))
        run.repaired.push(...(await repairOrder(client, orderId)));
    if (orders.length < AUDIT_BATCH) break;
  }
  return run;
}

/**
 * `repair-orders` (every minute): checks the invariants (domain/order-invariants.ts) over the
 * orders changed since its cursor and at least a minute ago ({@link SETTLE_MS}) (a `counters` document; a minute of margin for commits in
 * flight), repairs what it can in a transaction per order, logs every drift found and what it
 * repaired, and moves its cursor on. Appwrite never retries an execution a crash interrupted, so
 * nothing else may depend on one: this is what finds it. Answers `{checked, drift, repaired}`.
 */
export default async function repairOrders(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const client = functionClient(ctx.req);
    const databases = new Databases(client);
    const now = Date.now();
    const cursor = (await readCursor(databases)) ?? now - FIRST_WINDOW_MS;
    // Run by hand with an API key: `{"settleMs": 0}` checks changes up to now.
    const settleMs = settleOf(ctx.req.bodyText);
    const run = await repairSince(client, cursor - MARGIN_MS, { untilMs: now - settleMs });
    if (run.to) await saveCursor(databases, Math.max(cursor, Date.parse(run.to)));
    for (const item of run.drift) ctx.log(`drift: ${describeDrift(item)}`);
    for (const item of run.repaired) ctx.log(`repaired: ${describeDrift(item)}`);
    ctx.log(
      `repair-orders: checked ${run.checked} order(s) changed since ${run.from}, drift ${run.drift.length}, repaired ${run.repaired.length}`,
    );
    return ctx.res.json({
      checked: run.checked,
      drift: run.drift.length,
      repaired: run.repaired.length,
    });
  } catch (error) {
    return serverError(ctx, error);
  }
}
