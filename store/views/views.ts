import { castDraft } from 'immer';
import type { ExportJob, Note, Activity, Attachment, Product } from '../../domain/entities.ts';
import type { Order } from '../../domain/order.ts';
import type { RecordDiff } from '../records/changes.ts';
import { EntityTable } from '../records/entity-table.ts';
import type { TeamMember } from '../records/people.ts';
import type { RecordDiffs, RecordsState } from '../records/records.ts';
import { DETAIL_LISTS, regroupByOrder, type ListsByOrder } from './detail-lists.ts';
import { MetricsAccumulator, sameMetrics, type DeskMetrics } from './metrics.ts';
import {
  buildBoard,
  updateOrderDerived,
  viewDefOf,
  type BoardIndexes,
  type OrderViewEntry,
} from './order-derived.ts';
import type { DeskSlice } from '../state.ts';
import {
  DEFAULT_ORDER_VIEW,
  buildOrderIndex,
  normalizeViewSpec,
  orderViewKey,
  type OrderViewSpec,
} from './order-views.ts';
import { nextShownOrders, type OptimisticOrders } from './shown-orders.ts';

/**
 * What the views read, maintained from the records (and our optimistic orders) as they change:
 * never recomputed from scratch per event.
 */
export interface ViewsState {
  /** The orders as the desk shows them: confirmed, or optimistic while our action is pending. */
  shownOrders: EntityTable<Order>;
  board: BoardIndexes;
  /** Maintained table views by `orderViewKey`; the default view is always there. */
  orderViews: Readonly<Record<string, OrderViewEntry>>;
  /** The running totals behind {@link metrics}, updated from diffs. */
  metricsAcc: MetricsAccumulator;
  metrics: DeskMetrics;
  /** Products by `sortOrder`, then name. */
  productList: readonly Product[];
  /** Export jobs, newest first. */
  exportList: readonly ExportJob[];
  /** Members of the desk team by name. */
  memberList: readonly TeamMember[];
  /** Visible notes of tracked orders, oldest first. */
  notesByOrder: ListsByOrder<Note>;
  /** Activity of tracked orders, in time order. */
  activityByOrder: ListsByOrder<Activity>;
  /** Visible attachments of tracked orders, oldest first. */
  attachmentsByOrder: ListsByOrder<Attachment>;
}

const byProductOrder = (a: Product, b: Product) =>
  a.sortOrder - b.sortOrder || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1);
const byNewest = (a: ExportJob, b: ExportJob) =>
  b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1);
const byMemberName = (a: TeamMember, b: TeamMember) =>
  a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1);

/** The published metrics at `now`: the previous object when the numbers are the same. */
function publish(previous: DeskMetrics, acc: MetricsAccumulator, now: number): DeskMetrics {
  const next = acc.snapshot(now);
  return sameMetrics(previous, next) ? previous : next;
}

/** The views of an empty desk at `now`. */
export function emptyViews(now: number): ViewsState {
  const orders = EntityTable.empty<Order>();
  const metricsAcc = MetricsAccumulator.build([], now);
  const key = orderViewKey(DEFAULT_ORDER_VIEW);
  const spec = normalizeViewSpec(DEFAULT_ORDER_VIEW);
  return {
    shownOrders: orders,
    board: buildBoard(orders, metricsAcc.dayStart),
    orderViews: {
      [key]: { key, spec, index: buildOrderIndex(viewDefOf(spec), orders), refs: 1, touched: 0 },
    },
    metricsAcc,
    metrics: metricsAcc.snapshot(now),
    productList: [],
    exportList: [],
    memberList: [],
    notesByOrder: {},
    activityByOrder: {},
    attachmentsByOrder: {},
  };
}

/**
 * The views over a snapshot of orders loaded in one pass: every index built with one sort, the
 * metrics counted once (instead of 100,000 incremental updates).
 */
export function rebuildOrderViews(
  views: ViewsState,
  orders: EntityTable<Order>,
  now: number,
): Partial<ViewsState> {
  const metricsAcc = MetricsAccumulator.build(orders.values(), now);
  const orderViews: Record<string, OrderViewEntry> = {};
  for (const [key, entry] of Object.entries(views.orderViews))
    orderViews[key] = { ...entry, index: buildOrderIndex(viewDefOf(entry.spec), orders) };
  return {
    shownOrders: orders,
    metricsAcc,
    metrics: publish(views.metrics, metricsAcc, now),
    board: buildBoard(orders, metricsAcc.dayStart),
    orderViews,
  };
}

/** What changed, for {@link updateViews}. */
export interface ViewsChange {
  /** The record tables the views follow, after the change. */
  tables: Pick<RecordsState, 'orders' | 'products' | 'exports' | 'members'>;
  /** The record tables that are new. */
  changed: Partial<RecordsState>;
  diffs: RecordDiffs;
  /** Our optimistic orders before and after the change. */
  optimistic: { before: OptimisticOrders; after: OptimisticOrders };
  now: number;
}

/**
 * Brings the views up to date with a change of the records and/or our optimistic orders: the
 * shown orders, the board, the table views and the metrics from the diffs of the shown orders
 * (or a rebuild at midnight), the per-order lists from their diffs, the small sorted lists
 * (products, export jobs, members) again when their table changed. Pure; only what changed is
 * in the result.
 */
export function updateViews(views: ViewsState, change: ViewsChange): Partial<ViewsState> {
  const { tables: records, changed, diffs, optimistic, now } = change;
  const patch: { -readonly [K in keyof ViewsState]?: ViewsState[K] } = {};
  const shown = nextShownOrders(
    { shown: views.shownOrders, optimistic: optimistic.before },
    { confirmed: records.orders, optimistic: optimistic.after },
    diffs.orders ?? [],
  );
  if (shown.shown !== views.shownOrders) patch.shownOrders = shown.shown;
  const derived = updateOrderDerived(views, shown.shown, shown.diffs, now);
  if (derived.board !== views.board) patch.board = derived.board;
  if (derived.orderViews !== views.orderViews) patch.orderViews = derived.orderViews;
  if (derived.metricsAcc !== views.metricsAcc) {
    patch.metricsAcc = derived.metricsAcc;
    const metrics = publish(views.metrics, derived.metricsAcc, now);
    if (metrics !== views.metrics) patch.metrics = metrics;
  }
  if (changed.products) patch.productList = records.products.toArray().sort(byProductOrder);
  if (changed.exports) patch.exportList = records.exports.toArray().sort(byNewest);
  if (changed.members) patch.memberList = records.members.toArray().sort(byMemberName);
  if (diffs.notes)
    patch.notesByOrder = regroupByOrder(views.notesByOrder, diffs.notes, DETAIL_LISTS.notes);
  if (diffs.activity)
    patch.activityByOrder = regroupByOrder(
      views.activityByOrder,
      diffs.activity as readonly RecordDiff<Activity>[],
      DETAIL_LISTS.activity,
    );
  if (diffs.attachments)
    patch.attachmentsByOrder = regroupByOrder(
      views.attachmentsByOrder,
      diffs.attachments,
      DETAIL_LISTS.attachments,
    );
  return patch;
}

/** Time passing: the per-minute series moves, and at midnight the day's views are rebuilt. */
export function tickViews(views: ViewsState, now: number): Partial<ViewsState> {
  const patch: { -readonly [K in keyof ViewsState]?: ViewsState[K] } = {};
  const derived = updateOrderDerived(views, views.shownOrders, [], now);
  if (derived.board !== views.board) patch.board = derived.board;
  if (derived.orderViews !== views.orderViews) patch.orderViews = derived.orderViews;
  if (derived.metricsAcc !== views.metricsAcc) patch.metricsAcc = derived.metricsAcc;
  const metrics = publish(views.metrics, derived.metricsAcc, now);
  if (metrics !== views.metrics) patch.metrics = metrics;
  return patch;
}

/** Unreferenced table views kept around (most recently used first) before being dropped. */
const KEEP_UNUSED_VIEWS = 2;

/** A handle on a maintained table view (see {@link ViewsActions.acquireOrderView}). */
export interface OrderViewHandle {
  key: string;
  /** Stops maintaining the view for this caller (idempotent). */
  release(): void;
}

/** The views' own actions. */
export interface ViewsActions {
  /** Starts (or shares) maintaining a table view; release it when it is no longer shown. */
  acquireOrderView(spec: OrderViewSpec): OrderViewHandle;
  /** Advances time: republishes the per-minute series and rolls the day over at midnight. */
  tick(now?: number): void;
}

/** The views part: its state and actions (table views on demand, the clock). */
export function createViewsSlice(context: { now(): number }): DeskSlice<ViewsState & ViewsActions> {
  let viewSeq = 0;
  return (set, get) => {
    const releaseView = (key: string) =>
      set((draft) => {
        const entry = draft.orderViews[key];
        if (!entry) return;
        entry.refs = Math.max(0, entry.refs - 1);
        entry.touched = ++viewSeq;
        const unused = Object.values(draft.orderViews)
          .filter((view) => view.refs === 0)
          .sort((a, b) => b.touched - a.touched);
        for (const view of unused.slice(KEEP_UNUSED_VIEWS)) delete draft.orderViews[view.key];
      });

    return {
      ...emptyViews(context.now()),

      acquireOrderView(spec) {
        const key = orderViewKey(spec);
        const seq = ++viewSeq;
        const entry: OrderViewEntry | null = get().orderViews[key]
          ? null
          : (() => {
              const normalized = normalizeViewSpec(spec);
              return {
                key,
                spec: normalized,
                index: buildOrderIndex(viewDefOf(normalized), get().shownOrders),
                refs: 0,
                touched: seq,
              };
            })();
        set((draft) => {
          if (entry && !draft.orderViews[key]) draft.orderViews[key] = castDraft(entry);
          const view = draft.orderViews[key]!;
          view.refs++;
          view.touched = seq;
        });
        let released = false;
        return {
          key,
          release: () => {
            if (released) return;
            released = true;
            releaseView(key);
          },
        };
      },

      tick(now = context.now()) {
        const patch = tickViews(get(), now);
        if (Object.keys(patch).length) set(patch);
      },
    };
  };
}
