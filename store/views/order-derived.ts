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
  type OrderViewDef,
  type OrderViewSpec,
} from './order-views.ts';
import type { SortedIndex } from './sorted-index.ts';

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

const viewDefs = new WeakMap<OrderViewSpec, OrderViewDef>();

/** The index definition of a view's spec, made once per spec object. */
export function viewDefOf(spec: OrderViewSpec): OrderViewDef {
  let def = viewDefs.get(spec);
  if (!def) {
    def = orderViewDef(spec);
    viewDefs.set(spec, def);
  }
  return def;
}

/**
 * What is derived from the orders table in every batch (the sort columns are caught up on
 * demand: `sort-columns.ts`).
 */
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
