import type { Client } from 'node-appwrite';
import { functionClient, serverError } from '../../_shared/appwrite.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';
import { releaseLease, takeLease } from './lease.ts';
import { readListOrders, readWatermark } from './order-pages.ts';
import { snapshotBytes } from './snapshot-bytes.ts';
import { replaceSnapshotFile, storedWatermark } from './snapshot-store.ts';

/** What a run wrote, and where its time went (ms); `unchanged`: nothing changed since the last. */
export interface SnapshotRun {
  unchanged?: true;
  orders: number;
  bytes: number;
  watermark: number;
  /** Whether the file holds this run's bytes (false: another run stored its own first). */
  stored: boolean;
  readMs: number;
  encodeMs: number;
  storeMs: number;
}

/**
 * Reads the watermark, then every order's list copy, encodes them as the desk's snapshot file
 * and stores it in place of the previous one.
 */
export async function writeDeskSnapshot(client: Client): Promise<SnapshotRun> {
  const started = performance.now();
  // First: every change made while the orders are read is stamped at or after it.
  const watermark = await readWatermark(client);
  // No order changed since the stored file was written: it is current (orders aging out of the
  // window meanwhile are dropped by the desk itself).
  if (watermark > 0 && (await storedWatermark(client)) === watermark) {
    const ms = Math.round(performance.now() - started);
    return {
      unchanged: true,
      orders: 0,
      bytes: 0,
      watermark,
      stored: true,
      readMs: ms,
      encodeMs: 0,
      storeMs: 0,
    };
  }
  const orders = await readListOrders(client);
  const read = performance.now();
  const bytes = snapshotBytes({ savedAt: Date.now(), watermark, orders });
  const encoded = performance.now();
  const stored = await replaceSnapshotFile(client, bytes, watermark);
  return {
    orders: orders.length,
    bytes: bytes.length,
    watermark,
    stored,
    readMs: Math.round(read - started),
    encodeMs: Math.round(encoded - read),
    storeMs: Math.round(performance.now() - encoded),
  };
}

/** The run's one log line. */
export function describeRun(run: SnapshotRun): string {
  if (run.unchanged)
    return `desk-snapshot: no order changed since the stored file (watermark ${new Date(run.watermark).toISOString()}); checked in ${run.readMs} ms`;
  const mb = (run.bytes / 1_000_000).toFixed(2);
  const at = run.watermark ? new Date(run.watermark).toISOString() : 'none';
  const who = run.stored ? 'stored' : 'another run stored its own first';
  return `desk-snapshot: ${run.orders} orders, ${mb} MB, watermark ${at}; read ${run.readMs} ms, encoded ${run.encodeMs} ms, ${who} in ${run.storeMs} ms`;
}

/**
 * `desk-snapshot` (every 15 minutes, or executed with an API key): keeps the snapshot of every
 * order (`BUCKETS.snapshots`/`DESK_SNAPSHOT_FILE_ID`) that a desk's first visit on a device
 * starts from, catching up by `$updatedAt` from its watermark as a returning visit does. One run
 * at a time writes it (a lease); a run that finds another one writing answers
 * `{skipped}`, one that finds no order changed since the stored file `{unchanged, watermark,
 * ms}`. Answers `{orders, bytes, watermark, ms}`.
 */
export default async function deskSnapshot(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const client = functionClient(ctx.req);
    const started = Date.now();
    const lease = await takeLease(client, started);
    if (!lease) {
      ctx.log('desk-snapshot: another run is writing the snapshot; skipped');
      return ctx.res.json({ skipped: 'another run is writing the snapshot' });
    }
    try {
      const run = await writeDeskSnapshot(client);
      ctx.log(describeRun(run));
      if (run.unchanged)
        return ctx.res.json({
          unchanged: true,
          watermark: run.watermark,
          ms: Date.now() - started,
        });
      return ctx.res.json({
        orders: run.orders,
        bytes: run.bytes,
        watermark: run.watermark,
        ms: Date.now() - started,
      });
    } finally {
      await releaseLease(client, lease);
    }
  } catch (error) {
    return serverError(ctx, error);
  }
}
