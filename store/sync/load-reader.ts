import type { Order } from '../../domain/order.ts';
import {
  assembleSnapshot,
  recentFull,
  type LoadPlan,
  type LoadResults,
  type PlannedRead,
  type SnapshotRecords,
} from './load-plan.ts';

/** What the reader needs from the engine. */
export interface LoadReaderIO {
  /**
   * Reads one planned read page by page (converted records); `onPage` returns false to stop.
   * Once `alive` says no (another read failed), pages that come in are dropped unseen. Rejects
   * when a page cannot be read.
   */
  read(
    read: PlannedRead,
    onPage: (records: readonly unknown[]) => boolean,
    alive: () => boolean,
  ): Promise<void>;
  /** The first page of the newest orders is in (to be shown at once). */
  newest(orders: readonly Order[]): void;
  /** Orders read so far. */
  progress(orders: number): void;
}

/**
 * Carries out a {@link LoadPlan}: the newest slice first, the rest once its first page is in (or,
 * when it is empty, once the latest change was read), all at once; a recent slice stops once it
 * and the newer ones hold the newest `maxOrders`. Resolves with the snapshot, or rejects with the
 * first failure (the other reads stop at their next page).
 */
export async function readSnapshot(plan: LoadPlan, io: LoadReaderIO): Promise<SnapshotRecords> {
  const results: LoadResults = {
    recent: Array.from({ length: plan.slices }, () => []),
    olderOpen: [],
    whole: {},
  };
  const counts = new Array<number>(plan.slices).fill(0);
  let loaded = 0;
  let failed = false;
  let shown = false;
  let newestIn!: () => void;
  const newestPage = new Promise<void>((resolve) => (newestIn = resolve));

  const alive = () => !failed;
  const run = (read: PlannedRead) =>
    io.read(
      read,
      (records) => {
        if (read.part === 'recent') {
          const into = results.recent[read.slice]!;
          for (const record of records) into.push(record as Order);
          counts[read.slice] = into.length;
          loaded += records.length;
          io.progress(loaded);
          if (read.slice === 0 && records.length > 0) {
            newestIn();
            if (!shown) {
              shown = true;
              io.newest(into);
            }
          }
          return !recentFull(counts, read.slice, plan.maxOrders);
        }
        if (read.part === 'watermark') return false;
        if (read.part === 'older-open') {
          for (const record of records) results.olderOpen.push(record as Order);
          loaded += records.length;
          io.progress(loaded);
          return true;
        }
        const into = (results.whole[read.part] ??= []) as unknown[];
        for (const record of records) into.push(record);
        return true;
      },
      alive,
    );

  const first = plan.reads.filter((read) => read.first).map(run);
  const firstDone = Promise.all(first).then(async () => {
    // An empty newest slice observed nothing: the latest change sets the watermark instead.
    if (counts[0] === 0) await run(plan.watermark);
  });
  const rest = Promise.race([newestPage, firstDone]).then(() =>
    Promise.all(plan.reads.filter((read) => !read.first).map(run)),
  );
  await Promise.all([firstDone, rest]).catch((error: unknown) => {
    failed = true;
    throw error;
  });
  return assembleSnapshot(plan, results);
}
