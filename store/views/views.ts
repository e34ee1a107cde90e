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
  ORDER_SORT_KEYS,
  buildOrderIndex,
  normalizeViewSpec,
  orderViewKey,
  type OrderSortKey,
  type OrderViewSpec,
} from './order-views.ts';
import { prepareSearchText } from './search-index.ts';
import { nextShownOrders, type OptimisticOrders } from './shown-orders.ts';
import {
  AFTER_FRAME,
  SLICE_MS,
  drain,
  runSliced,
  type Job,
  type SliceScheduler,
  type SlicedRun,
} from './sliced.ts';
import {
  buildSortColumn,
  catchUpSortColumn,
  catchUpSortColumnJob,
  catchUpSortColumnsJob,
  catchUpView,
  narrowestSource,
  rebuildSortColumns,
  selectJob,
  sortColumnJob,
  type SortColumn,
  type SortColumns,
} from './sort-columns.ts';
import type { SortedIndex } from './sorted-index.ts';

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
  /**
   * Every order sorted by each column a view has used (`createdAt` always), each as of a version
   * of the orders and caught up on demand or when idle ({@link ViewsActions.catchUpSortColumns}):
   * a new view is one pass over its column instead of a sort of every order.
   */
  sortColumns: SortColumns;
  /**
   * Table views being made in slices (see `sliced.ts`), by `orderViewKey`: what the table says
   * meanwhile ("Sorting…" while the sort column is built) and who asked for it. Moved to
   * {@link orderViews} when done.
   */
  pendingViews: Readonly<Record<string, PendingView>>;
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

/** A table view being made (see {@link ViewsState.pendingViews}). */
export interface PendingView {
  /** `sorting`: its sort column is being built first; `filtering`: one pass over rows. */
  phase: 'sorting' | 'filtering';
  /** Hooks waiting for it (handed to the view when it is done). */
  refs: number;
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
    sortColumns: { [spec.sort]: { index: buildSortColumn(spec.sort, orders), at: orders } },
    pendingViews: {},
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

/** Whether a view shows every order (no filter, no search): its sort column itself. */
const showsEveryOrder = (spec: OrderViewSpec) =>
  orderViewKey({ sort: spec.sort, dir: spec.dir }) === orderViewKey(spec);

/**
 * The maintained view a new one narrows (see `narrowestSource`), or null when it is made from its
 * sort column.
 */
function sourceViewOf(spec: OrderViewSpec, views: Iterable<OrderViewEntry>): SortedIndex | null {
  return showsEveryOrder(spec) ? null : narrowestSource(spec, views);
}

/**
 * The pass that makes a view's rows (a job, see `sliced.ts`) and the version of the orders they
 * are of (`from`): its sort column itself when nothing is filtered (read backwards for a
 * descending view: no pass), else one ordered pass over `source`, a maintained view it refines
 * (of `shown`), or over the column (of the column's version). The caller catches the rows up
 * from `from` ({@link catchUpView}).
 */
function viewPass(
  spec: OrderViewSpec,
  shown: EntityTable<Order>,
  column: SortColumn,
  source: SortedIndex | null,
): { job: Job<SortedIndex>; from: EntityTable<Order> } {
  const def = viewDefOf(spec);
  if (showsEveryOrder(spec))
    return { job: selectJob(column.index, def, column.at, true), from: column.at };
  return source === null
    ? { job: selectJob(column.index, def, column.at), from: column.at }
    : { job: selectJob(source, def, shown), from: shown };
}

/** The column of `key` when it can be caught up to `shown` (of the same table), else undefined. */
function usableColumn(
  columns: SortColumns,
  key: OrderSortKey,
  shown: EntityTable<Order>,
): SortColumn | undefined {
  const column = columns[key];
  return column !== undefined && column.at.lineage === shown.lineage ? column : undefined;
}

/**
 * The columns with `column` for `key` when it is new or of a later version of the orders than the
 * one held (the same object otherwise).
 */
function withColumn(columns: SortColumns, key: OrderSortKey, column: SortColumn): SortColumns {
  const held = columns[key];
  if (
    held !== undefined &&
    held.at.lineage === column.at.lineage &&
    held.at.version >= column.at.version
  )
    return columns;
  return { ...columns, [key]: column };
}

/**
 * A view's rows made at once ({@link viewPass}) and caught up to `orders`; its sort column, when
 * the view is made from it, built first (with one sort) when the desk has not sorted by it yet,
 * or caught up with the orders, and returned to be kept.
 */
function viewIndex(
  spec: OrderViewSpec,
  orders: EntityTable<Order>,
  columns: SortColumns,
  views: Iterable<OrderViewEntry>,
): { index: SortedIndex; column: SortColumn | null } {
  const existing = usableColumn(columns, spec.sort, orders);
  const source = sourceViewOf(spec, views);
  const build = (): SortColumn => ({ index: buildSortColumn(spec.sort, orders), at: orders });
  let column = existing ?? build();
  if (source === null && column.at !== orders)
    column = catchUpSortColumn(column, spec.sort, orders) ?? build();
  const pass = viewPass(spec, orders, column, source);
  const index = catchUpView(drain(pass.job), viewDefOf(spec), pass.from, orders)!;
  return { index, column: column === existing ? null : column };
}

/**
 * The views over a snapshot of orders loaded in one pass: each sort column built with one sort,
 * every view one pass over its column, the metrics counted once (instead of 100,000 incremental
 * updates).
 */
export function rebuildOrderViews(
  views: ViewsState,
  orders: EntityTable<Order>,
  now: number,
): Partial<ViewsState> {
  const metricsAcc = MetricsAccumulator.build(orders.values(), now);
  const sortColumns = rebuildSortColumns(views.sortColumns, orders);
  const orderViews: Record<string, OrderViewEntry> = {};
  for (const [key, entry] of Object.entries(views.orderViews))
    orderViews[key] = {
      ...entry,
      index: viewIndex(entry.spec, orders, sortColumns, []).index,
    };
  return {
    shownOrders: orders,
    metricsAcc,
    metrics: publish(views.metrics, metricsAcc, now),
    board: buildBoard(orders, metricsAcc.dayStart),
    orderViews,
    sortColumns,
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

/**
 * A view made within this many ms of being asked for (by the slice scheduler's clock: its first
 * slice) is published at once, in the frame of the input that asked for it; a slower one a
 * painted frame after its pass (`AFTER_FRAME`).
 */
export const QUICK_VIEW_MS = SLICE_MS;

/** A handle on a maintained table view (see {@link ViewsActions.acquireOrderView}). */
export interface OrderViewHandle {
  key: string;
  /** Stops maintaining the view for this caller (idempotent). */
  release(): void;
}

/** The views' own actions. */
export interface ViewsActions {
  /**
   * Starts (or shares) maintaining a table view; release it when it is no longer shown. A new
   * view is one pass over its sort column (or over the view it narrows, e.g. the previous
   * keystroke of a search, or a wider filter); only the first view sorted by a column pays for
   * that column's sort. With a slice scheduler the work runs in slices (the first one now): the
   * view is in {@link ViewsState.pendingViews} until done, then in `orderViews`; releasing it
   * before then stops the work.
   */
  acquireOrderView(spec: OrderViewSpec): OrderViewHandle;
  /**
   * Builds the sort columns not built yet (`keys`, default: every sortable column), so that the
   * first sort by them is a pass instead of a sort; meant for idle time after the load. Returns
   * the columns still missing (none when all of `keys` are built). With a slice scheduler they
   * are built one after another in slices (`budget` is then unused) and all are missing on return.
   */
  prepareSortColumns(keys?: readonly OrderSortKey[], budget?: number): OrderSortKey[];
  /**
   * Brings every sort column up to date with the shown orders (a column of another table is
   * dropped, to be built again when asked for); meant for idle time, so that the next view made
   * from a column has little to catch up. With a slice scheduler in slices (the first one now),
   * else at once; each column kept unless a newer one was meanwhile. Returns false when every column was
   * already up to date, true when a catch-up ran or is under way.
   */
  catchUpSortColumns(): boolean;
  /**
   * Makes the search text of the orders (`search-index.ts`: every name and email folded, per
   * chunk of the table) so that the first keystroke of a search does not; meant for idle time
   * after the load. In slices with a slice scheduler.
   */
  prepareSearch(): void;
  /** Advances time: republishes the per-minute series and rolls the day over at midnight. */
  tick(now?: number): void;
}

/** The views part: its state and actions (table views on demand, the clock). */
export function createViewsSlice(context: {
  now(): number;
  /** Where long builds run in slices; null: at once (tests, Node). */
  slices?: SliceScheduler | null;
}): DeskSlice<ViewsState & ViewsActions> {
  let viewSeq = 0;
  const scheduler = context.slices ?? null;
  return (set, get) => {
    const jobs = new Map<string, SlicedRun>();
    let preparing: SlicedRun | null = null;
    let catchingUp: SlicedRun | null = null;

    /** Sort columns being built in slices, by key (see {@link columnJob}). */
    const columnBuilds = new Map<OrderSortKey, Job>();

    /** The column of `key` when there is one of the shown orders' table. */
    const columnOf = (key: OrderSortKey) => usableColumn(get().sortColumns, key, get().shownOrders);

    /** Keeps `column` for `key` when it is newer than the one held. */
    const keepColumn = (key: OrderSortKey, column: SortColumn) => {
      const next = withColumn(get().sortColumns, key, column);
      if (next !== get().sortColumns) set({ sortColumns: next });
    };

    /** Builds the sort column of `key` over the orders (as of the build's start) and commits it. */
    function* buildColumn(key: OrderSortKey): Job {
      while (!columnOf(key)) {
        const from = get().shownOrders;
        const index = yield* sortColumnJob(key, from);
        if (get().shownOrders.lineage === from.lineage) keepColumn(key, { index, at: from });
      }
    }

    /**
     * A sort column in slices: the one build of it under way (started when there is none),
     * stepped by whichever job waits for it. A view sorted by a column being prepared, or asked
     * for again after a release, does not sort it a second time (a build left by every job is
     * taken up where it stopped).
     */
    function* columnJob(key: OrderSortKey): Job<SortColumn> {
      for (;;) {
        const held = columnOf(key);
        if (held) return held;
        let build = columnBuilds.get(key);
        if (build === undefined) columnBuilds.set(key, (build = buildColumn(key)));
        if (build.next().done) columnBuilds.delete(key);
        else yield;
      }
    }

    /** A view's rows in slices: its column first when missing, then one pass, caught up. */
    function* viewJob(key: string, spec: OrderViewSpec): Job<SortedIndex> {
      const started = scheduler?.now() ?? 0;
      for (;;) {
        let column = columnOf(spec.sort);
        if (!column) {
          column = yield* columnJob(spec.sort);
          set((draft) => {
            const pending = draft.pendingViews[key];
            if (pending) pending.phase = 'filtering';
          });
        }
        // A view made from its column: the column caught up first (and kept), so that the pass
        // reads the orders as they are now (and the caches of their chunks).
        if (
          !sourceViewOf(spec, Object.values(get().orderViews)) &&
          column.at !== get().shownOrders
        ) {
          const caught = yield* catchUpSortColumnJob(column, spec.sort, get().shownOrders);
          if (caught === null) continue;
          keepColumn(spec.sort, caught);
          column = caught;
        }
        const state = get();
        const pass = viewPass(
          spec,
          state.shownOrders,
          column,
          sourceViewOf(spec, Object.values(state.orderViews)),
        );
        const index = yield* pass.job;
        // A quick view (a pass over a prepared column) is published at once: the click's frame
        // shows its rows. A longer one is shown with these rows (a re-render, new rows laid
        // out) in a frame of its own, not in the one of the pass's last slice.
        if (scheduler !== null && scheduler.now() - started > QUICK_VIEW_MS) yield AFTER_FRAME;
        const caught = catchUpView(index, viewDefOf(spec), pass.from, get().shownOrders);
        if (caught !== null) return caught;
      }
    }

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

    /**
     * Drops one caller's reference: to a maintained view, or to a view still being made (the
     * last one stops its work).
     */
    const release = (key: string) => {
      if (get().orderViews[key]) return releaseView(key);
      const pending = get().pendingViews[key];
      if (!pending) return;
      if (pending.refs > 1)
        return set((draft) => {
          draft.pendingViews[key]!.refs--;
        });
      jobs.get(key)?.cancel();
      jobs.delete(key);
      set((draft) => {
        delete draft.pendingViews[key];
      });
    };

    /** A caller's handle on the view of `key`: its first release counts, the others do nothing. */
    const handleOf = (key: string): OrderViewHandle => {
      let released = false;
      return {
        key,
        release: () => {
          if (released) return;
          released = true;
          release(key);
        },
      };
    };

    /**
     * {@link ViewsActions.acquireOrderView} with a slice scheduler, for a view not maintained
     * yet: one more caller of the view being made, or its work started.
     */
    const acquireSliced = (key: string, spec: OrderViewSpec): void => {
      const state = get();
      if (state.pendingViews[key])
        return set((draft) => {
          draft.pendingViews[key]!.refs++;
        });
      const normalized = normalizeViewSpec(spec);
      // A view made in its first slice is published with no pending state before it.
      let first = true;
      const run = runSliced(
        viewJob(key, normalized),
        (index) => {
          jobs.delete(key);
          set((draft) => {
            const pending = draft.pendingViews[key];
            if (!pending && !first) return;
            delete draft.pendingViews[key];
            draft.orderViews[key] = castDraft({
              key,
              spec: normalized,
              index,
              refs: pending?.refs ?? 1,
              touched: ++viewSeq,
            });
          });
        },
        scheduler,
      );
      first = false;
      if (run.finished) return;
      jobs.set(key, run);
      set((draft) => {
        draft.pendingViews[key] = {
          phase: columnOf(normalized.sort) ? 'filtering' : 'sorting',
          refs: 1,
        };
      });
    };

    return {
      ...emptyViews(context.now()),

      acquireOrderView(spec) {
        const key = orderViewKey(spec);
        const seq = ++viewSeq;
        const state = get();
        if (scheduler !== null && !state.orderViews[key]) {
          acquireSliced(key, spec);
          return handleOf(key);
        }
        let column: SortColumn | null = null;
        const entry: OrderViewEntry | null = state.orderViews[key]
          ? null
          : (() => {
              const normalized = normalizeViewSpec(spec);
              const built = viewIndex(
                normalized,
                state.shownOrders,
                state.sortColumns,
                Object.values(state.orderViews),
              );
              column = built.column;
              return { key, spec: normalized, index: built.index, refs: 0, touched: seq };
            })();
        const newColumn = column as SortColumn | null;
        set((draft) => {
          if (newColumn)
            draft.sortColumns = castDraft(withColumn(get().sortColumns, spec.sort, newColumn));
          if (entry && !draft.orderViews[key]) draft.orderViews[key] = castDraft(entry);
          const view = draft.orderViews[key]!;
          view.refs++;
          view.touched = seq;
        });
        return handleOf(key);
      },

      prepareSortColumns(keys = ORDER_SORT_KEYS, budget = Infinity) {
        if (scheduler !== null) {
          const missing = keys.filter((key) => !columnOf(key));
          if (missing.length && (preparing === null || preparing.finished))
            preparing = runSliced(
              (function* () {
                for (const key of missing) yield* columnJob(key);
              })(),
              () => {},
              scheduler,
            );
          return keys.filter((key) => !columnOf(key));
        }
        const started = context.now();
        const missing: OrderSortKey[] = [];
        for (const key of keys) {
          if (columnOf(key)) continue;
          if (context.now() - started >= budget) {
            missing.push(key);
            continue;
          }
          const at = get().shownOrders;
          keepColumn(key, { index: buildSortColumn(key, at), at });
        }
        return missing;
      },

      catchUpSortColumns() {
        const columns = get().sortColumns;
        const to = get().shownOrders;
        if (catchingUp !== null && !catchingUp.finished) return true;
        if (Object.values(columns).every((column) => column.at === to)) return false;
        catchingUp = runSliced(
          catchUpSortColumnsJob(columns, to),
          (caught) => {
            if (get().shownOrders.lineage !== to.lineage) return;
            let next = get().sortColumns;
            for (const key of ORDER_SORT_KEYS) {
              const column = caught[key];
              if (column) next = withColumn(next, key, column);
              else if (columns[key] !== undefined && next[key] === columns[key]) {
                next = { ...next };
                delete next[key];
              }
            }
            if (next !== get().sortColumns) set({ sortColumns: next });
          },
          scheduler,
        );
        return true;
      },

      prepareSearch() {
        const job = prepareSearchText(get().shownOrders);
        if (scheduler === null) drain(job);
        else runSliced(job, () => {}, scheduler);
      },

      tick(now = context.now()) {
        const patch = tickViews(get(), now);
        if (Object.keys(patch).length) set(patch);
      },
    };
  };
}
