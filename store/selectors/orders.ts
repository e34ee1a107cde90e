import type { OrderAction } from '../../domain/order-machine.ts';
import type { Order } from '../../domain/order.ts';
import type { EntityTable } from '../records/entity-table.ts';
import type { DeskState } from '../state.ts';
import {
  DEFAULT_ORDER_VIEW,
  orderViewKey,
  type BoardColumn,
  type OrderViewSpec,
} from '../views/order-views.ts';
import type { SortedIndex } from '../views/sorted-index.ts';

const DEFAULT_VIEW_KEY = orderViewKey(DEFAULT_ORDER_VIEW);

/** One order as the desk shows it; the same reference until that order changes. */
export function selectOrder(state: DeskState, id: string): Order | undefined {
  return state.shownOrders.get(id);
}

/**
 * Every order shown, by id: a new table when any order changes, while an unchanged order keeps
 * its identity (so a memoized row re-renders only when its order changed).
 */
export function selectOrders(state: DeskState): EntityTable<Order> {
  return state.shownOrders;
}

/** Number of orders held. */
export function selectOrderCount(state: DeskState): number {
  return state.shownOrders.size;
}

/** Whether an action of ours on this order is in flight (its record is optimistic). */
export function selectIsPending(state: DeskState, id: string): boolean {
  return state.optimistic[id] !== undefined;
}

/** The action of ours in flight on this order, or null. */
export function selectPendingAction(state: DeskState, id: string): OrderAction | null {
  return (state.running[`order:${id}`] as OrderAction | undefined) ?? null;
}

/**
 * A board column's ids in display order (`size`, `at(i)`); a new value only when the column's
 * membership or order changes, not when a card's other fields do.
 */
export function selectBoardColumn(state: DeskState, column: BoardColumn): SortedIndex {
  return state.board.columns[column];
}

/** The ids of a maintained table view (see `acquireOrderView`), or undefined if not maintained. */
export function selectOrderView(
  state: DeskState,
  keyOrSpec: string | OrderViewSpec,
): SortedIndex | undefined {
  const key = typeof keyOrSpec === 'string' ? keyOrSpec : orderViewKey(keyOrSpec);
  return state.orderViews[key]?.index;
}

/** All orders, newest first (always maintained). */
export function selectDefaultOrderView(state: DeskState): SortedIndex {
  return state.orderViews[DEFAULT_VIEW_KEY]!.index;
}
