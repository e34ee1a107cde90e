import type { Order } from '../../domain/order.ts';
import { MetricsAccumulator } from './metrics.ts';
import type { RecordDiff } from '../records/changes.ts';
import type { EntityTable } from '../records/entity-table.ts';
import {
  applyOrderDiffs,
  BOARD_COLUMNS,
  boardDefs,
  buildOrderIndex,
  orderViewDef,
  type BoardColumn,
  type OrderIndexDef,
  type OrderViewSpec,
} from './order-views.ts';
import {
  reconcileDelete,
  reconcileUpsert,
  tombstoneOf,
  type Tombstone,
} from '../records/reconcile.ts';
import type { SortedIndex } from './sorted-index.ts';

/**
 * An optimistic change of ours in flight: the confirmed record it was made on (`base`, kept up
 * to date by remote changes while the action is pending) and the optimistic record.
 */
export interface OrderOverlay {
  base: Order | undefined;
  optimistic: Order;
}

/**
 * What the desk shows for an order with an overlay: the optimistic record until the backend's
 * version reaches its `rev` (the echo of our own change, or someone else's change that beat it),
 * then the backend's.
 */
export function visibleOrder(overlay: OrderOverlay): Order | undefined {
  const { base, optimistic } = overlay;
  return base !== undefined && base.rev >= optimistic.rev ? base : optimistic;
}

/** The orders table with its overlays and tombstones. */
export interface OrderRecords {
  /** What the desk shows: confirmed records, or optimistic ones while our action is pending. */
  orders: EntityTable<Order>;
  orderTombstones: EntityTable<Tombstone>;
  /** Overlays of pending actions by order id. */
  overlays: Readonly<Record<string, OrderOverlay>>;
}

/** The outcome of reconciling remote order changes. */
export interface OrderBatch extends OrderRecords {
  diffs: RecordDiff<Order>[];
}

/**
 * Reconciles remote order changes (higher `rev`, then later `updatedAt`; deletes leave
 * tombstones). For an order with a pending overlay the change is reconciled with the overlay's
 * confirmed base, so the echo of our own change replaces the optimistic record once (same
 * content, the backend's timestamps) and is never applied twice.
 */
export function reconcileOrders(
  records: OrderRecords,
  changes: readonly { kind: 'upsert' | 'delete'; record: Order }[],
): OrderBatch {
  const draft = records.orders.edit();
  const graves = records.orderTombstones.edit();
  const anyGraves = records.orderTombstones.size > 0;
  // Keyed reads of a plain object with an id string cost a string-table lookup: only when needed.
  const anyOverlays = Object.keys(records.overlays).length > 0;
  let overlays: Record<string, OrderOverlay> | null = null;
  /** Per changed slot: the record before the batch. */
  const first = new Map<number, Order | undefined>();
  for (const { kind, record } of changes) {
    const id = record.id;
    const slot = draft.slotOf(id);
    const held = draft.atSlot(slot);
    const overlay = anyOverlays ? (overlays ?? records.overlays)[id] : undefined;
    const confirmed = overlay ? overlay.base : held;
    if (kind === 'upsert') {
      const grave = anyGraves || graves.size > 0 ? graves.get(id) : undefined;
      if (reconcileUpsert(record, confirmed, grave) === 'ignore') continue;
      if (grave) graves.delete(id);
      if (!first.has(slot)) first.set(slot, held);
      if (overlay) {
        overlays ??= { ...records.overlays };
        const next = { base: record, optimistic: overlay.optimistic };
        overlays[id] = next;
        draft.setAt(slot, visibleOrder(next));
      } else draft.setAt(slot, record);
    } else {
      if (reconcileDelete(record, confirmed) === 'ignore') continue;
      const grave = graves.get(id);
      if (grave === undefined || reconcileUpsert(record, undefined, grave) === 'apply')
        graves.set(tombstoneOf(record));
      if (overlay) {
        overlays ??= { ...records.overlays };
        delete overlays[id];
      }
      if (held === undefined) continue;
      if (!first.has(slot)) first.set(slot, held);
      draft.setAt(slot, undefined);
    }
  }
  const orders = draft.commit();
  const diffs: RecordDiff<Order>[] = [];
  for (const [slot, before] of first) {
    const after = orders.atSlot(slot);
    if (before !== after) diffs.push({ before, after });
  }
  return {
    orders,
    orderTombstones: graves.commit(),
    overlays: overlays ?? records.overlays,
    diffs,
  };
}

/** The board: its four columns and the day "done" counts from. */
export interface BoardIndexes {
  dayStart: number;
  columns: Readonly<Record<BoardColumn, SortedIndex>>;
}

/** A maintained table view. */
export interface OrderViewEntry {
  key: string;
  spec: OrderViewSpec;
  index: SortedIndex;
  /** Hooks showing it; at 0 it is kept a little (LRU) and then dropped. */
  refs: number;
  /** Sequence number of its last acquire or release (for the LRU). */
  touched: number;
}

const viewDefs = new WeakMap<OrderViewSpec, OrderIndexDef>();

/** The index definition of a view's spec, made once per spec object. */
export function viewDefOf(spec: OrderViewSpec): OrderIndexDef {
  let def = viewDefs.get(spec);
  if (!def) {
    def = orderViewDef(spec);
    viewDefs.set(spec, def);
  }
  return def;
}

/** Everything derived from the orders table. */
export interface OrderDerived {
  board: BoardIndexes;
  orderViews: Readonly<Record<string, OrderViewEntry>>;
  metricsAcc: MetricsAccumulator;
}

/** Builds the board, counting "done" from `dayStart`. */
export function buildBoard(orders: EntityTable<Order>, dayStart: number): BoardIndexes {
  const defs = boardDefs(dayStart);
  const columns = {} as Record<BoardColumn, SortedIndex>;
  for (const column of BOARD_COLUMNS) columns[column] = buildOrderIndex(defs[column], orders);
  return { dayStart, columns };
}

/**
 * Brings the board, the table views and the metrics up to date with a batch of order diffs
 * (incrementally), or rebuilds what depends on the day when `now` has entered a new one.
 */
export function updateOrderDerived(
  derived: OrderDerived,
  orders: EntityTable<Order>,
  diffs: readonly RecordDiff<Order>[],
  now: number,
): OrderDerived {
  let { board, orderViews, metricsAcc } = derived;
  const newDay = !metricsAcc.covers(now);
  if (newDay) {
    metricsAcc = MetricsAccumulator.build(orders.values(), now);
    board = buildBoard(orders, metricsAcc.dayStart);
  }
  if (diffs.length === 0) return newDay ? { board, orderViews, metricsAcc } : derived;
  if (!newDay) {
    metricsAcc = metricsAcc.apply(diffs);
    const defs = boardDefs(board.dayStart);
    let columns: Record<BoardColumn, SortedIndex> | null = null;
    for (const column of BOARD_COLUMNS) {
      const next = applyOrderDiffs(board.columns[column], defs[column], diffs);
      if (next !== board.columns[column]) {
        columns ??= { ...board.columns };
        columns[column] = next;
      }
    }
    if (columns) board = { dayStart: board.dayStart, columns };
  }
  let views: Record<string, OrderViewEntry> | null = null;
  for (const key in orderViews) {
    const entry = orderViews[key]!;
    const index = applyOrderDiffs(entry.index, viewDefOf(entry.spec), diffs);
    if (index !== entry.index) {
      views ??= { ...orderViews };
      views[key] = { ...entry, index };
    }
  }
  if (views) orderViews = views;
  return { board, orderViews, metricsAcc };
}
