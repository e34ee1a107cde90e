import { Query } from 'appwrite';
import type { Order } from '../../domain/order.ts';
import { ALWAYS_LOADED, windowStart } from './desk-window.ts';
import type { SyncedCollection, SyncedEntities } from '../records/changes.ts';
import type { EntityTable } from '../records/entity-table.ts';
import { ORDER_LIST_SELECT } from './documents.ts';
import { isoTime } from './pager.ts';

/** The sets besides `orders` that can be loaded whole and kept complete. */
export type FullSyncSet = 'products' | 'exports' | 'members' | 'presence';

/**
 * Where a read's records go in the snapshot (`watermark`: nowhere; the read only tells when the
 * orders last changed).
 */
export type SnapshotPart = 'recent' | 'older-open' | 'watermark' | FullSyncSet;

/** One read of the initial load. */
export interface PlannedRead {
  part: SnapshotPart;
  /** For `recent`: the time slice, 0 the newest. */
  slice: number;
  collection: SyncedCollection;
  queries: string[];
  /** `cursor` for collections (ordered by something that never changes), `offset` for the rest. */
  paging: 'cursor' | 'offset';
  /** `list`: orders' list fields only (`Query.select`), converted as list copies. */
  copy: 'whole' | 'list';
  /** Stop after this many records. */
  max?: number;
  /** A smaller first page, to have something to show sooner. */
  firstPageSize?: number;
  /**
   * The newest slice starts alone; the rest once its first page is in: the first observation
   * sets the watermark a resync would start from (an older one would widen it).
   */
  first: boolean;
}

/** Settings of the initial load. */
export interface LoadSettings {
  /** Orders created this many days back are loaded, plus every open one. */
  historyDays: number;
  /** At most this many recent orders are loaded (the newest). */
  maxOrders: number;
  /** The recent orders are read in this many time slices at once (by `$createdAt`). */
  slices: number;
  /** The size of the newest slice's first page. */
  firstPageSize: number;
  /** What else is loaded whole. */
  fullSync: readonly FullSyncSet[];
}

/** The reads of the initial load and how their records add up to the snapshot. */
export interface LoadPlan {
  reads: PlannedRead[];
  /**
   * Read when the newest slice is empty, before the others: the latest change of any order. A
   * resync starts from the latest change seen first; an older order seen first would widen it.
   */
  watermark: PlannedRead;
  maxOrders: number;
  slices: number;
}

/**
 * The recent orders' time slices, newest first: `[from, to)` by `$createdAt` from `since`,
 * the newest open-ended (orders created while we read are in it, or come as events).
 */
export function recentSlices(
  since: number,
  now: number,
  count: number,
): { from: number; to: number | null }[] {
  const step = Math.max(1, (now - since) / count);
  return Array.from({ length: count }, (_, i) => ({
    from: i === count - 1 ? since : Math.round(now - (i + 1) * step),
    to: i === 0 ? null : Math.round(now - i * step),
  }));
}

/**
 * Plans the first load at `now`. Orders: the list fields of those created in the last
 * `historyDays`, in time slices read at once, newest first within each and cut at `maxOrders`
 * overall, plus the open ones of any age; products, export jobs, members and presences whole.
 */
export function planInitialLoad(settings: LoadSettings, now: number): LoadPlan {
  const slices = Math.max(1, Math.floor(settings.slices));
  const since = windowStart(now, settings.historyDays);
  const select = Query.select([...ORDER_LIST_SELECT]);
  const reads: PlannedRead[] = recentSlices(since, now, slices).map((slice, i) => ({
    part: 'recent',
    slice: i,
    collection: 'orders',
    queries: [
      Query.greaterThanEqual('$createdAt', isoTime(slice.from)),
      ...(slice.to === null ? [] : [Query.lessThan('$createdAt', isoTime(slice.to))]),
      Query.orderDesc('$createdAt'),
      select,
    ],
    paging: 'cursor',
    copy: 'list',
    max: settings.maxOrders,
    ...(i === 0 ? { firstPageSize: settings.firstPageSize } : {}),
    first: i === 0,
  }));
  reads.push({
    part: 'older-open',
    slice: 0,
    collection: 'orders',
    queries: [
      Query.equal('status', [...ALWAYS_LOADED]),
      Query.lessThan('$createdAt', isoTime(since)),
      Query.orderAsc('$createdAt'),
      select,
    ],
    paging: 'cursor',
    copy: 'list',
    first: false,
  });
  const whole = (part: FullSyncSet, queries: string[], paging: 'cursor' | 'offset') =>
    settings.fullSync.includes(part)
      ? [
          {
            part,
            slice: 0,
            collection: part,
            queries,
            paging,
            copy: 'whole',
            first: false,
          } satisfies PlannedRead,
        ]
      : [];
  reads.push(
    ...whole('products', [Query.orderAsc('$createdAt')], 'cursor'),
    ...whole(
      'exports',
      [Query.greaterThanEqual('$createdAt', isoTime(since)), Query.orderDesc('$createdAt')],
      'cursor',
    ),
    ...whole('members', [], 'offset'),
    ...whole('presence', [], 'offset'),
  );
  const watermark: PlannedRead = {
    part: 'watermark',
    slice: 0,
    collection: 'orders',
    queries: [Query.orderDesc('$updatedAt'), Query.select(['$id', '$createdAt', '$updatedAt'])],
    paging: 'cursor',
    copy: 'list',
    max: 1,
    first: false,
  };
  return { reads, watermark, maxOrders: settings.maxOrders, slices };
}

/** Whether slice `slice` and the newer ones hold the newest `max` orders already. */
export function recentFull(counts: readonly number[], slice: number, max: number): boolean {
  let count = 0;
  for (let i = 0; i <= slice; i++) count += counts[i] ?? 0;
  return count >= max;
}

/** Records of a snapshot. */
export interface SnapshotRecords {
  /** As records, or as a table already made (a persisted snapshot's: its chunks as kept). */
  orders?: readonly Order[] | EntityTable<Order>;
  products?: readonly SyncedEntities['products'][];
  exports?: readonly SyncedEntities['exports'][];
  members?: readonly SyncedEntities['members'][];
  presence?: readonly SyncedEntities['presence'][];
}

/** What the reads of a plan returned: the recent orders per slice, and the rest per part. */
export interface LoadResults {
  recent: Order[][];
  olderOpen: Order[];
  whole: { [P in FullSyncSet]?: SyncedEntities[P][] };
}

/**
 * The snapshot: the recent orders newest first, cut at `maxOrders`, then the older open ones;
 * the other sets as read.
 */
export function assembleSnapshot(plan: LoadPlan, results: LoadResults): SnapshotRecords {
  const orders = results.recent.flat();
  if (orders.length > plan.maxOrders) orders.length = plan.maxOrders;
  for (const order of results.olderOpen) orders.push(order);
  return { orders, ...results.whole };
}
