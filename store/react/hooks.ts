import { createContext, createElement, useContext, useEffect, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { OrderAction } from '../../domain/order-machine.ts';
import type { Order } from '../../domain/order.ts';
import type { DeskStore } from '../index.ts';
import { selectConnection, selectLoad, selectMetrics } from '../selectors/connection.ts';
import {
  selectActivity,
  selectAttachments,
  selectNotes,
  selectOrderDetail,
} from '../selectors/details.ts';
import type { DeskMetrics } from '../views/metrics.ts';
import {
  selectBoardColumn,
  selectIsPending,
  selectOrder,
  selectOrderError,
  selectOrderView,
} from '../selectors/orders.ts';
import { selectViewers, type Viewer } from '../selectors/people.ts';
import type {
  DeskState,
  LoadState,
  OrderActionError,
  OrderActionResult,
  OrderDetailState,
} from '../state.ts';
import type { ConnectionState } from '../sync/connection.ts';
import {
  orderViewKey,
  orderViewSpecOf,
  type BoardColumn,
  type OrderViewSpec,
} from '../views/order-views.ts';
import type { SortedIndex } from '../views/sorted-index.ts';
import type { Activity, Attachment, Note } from '../../domain/entities.ts';

const DeskStoreContext = createContext<DeskStore | null>(null);

/** Provides a desk store to the hooks below it. */
export function DeskStoreProvider(props: { store: DeskStore; children?: ReactNode }) {
  return createElement(DeskStoreContext.Provider, { value: props.store }, props.children);
}

/** The desk store of the nearest {@link DeskStoreProvider}. */
export function useDeskStoreApi(): DeskStore {
  const store = useContext(DeskStoreContext);
  if (!store) throw new Error('useDeskStore outside DeskStoreProvider');
  return store;
}

/**
 * Selects from the desk store; re-renders only when the selected value changes (`Object.is`).
 * Selectors must return stored references (the `select*` functions do), not new objects.
 */
export function useDeskStore<T>(selector: (state: DeskState) => T): T {
  return useStore(useDeskStoreApi(), selector);
}

/** Runs the sync engine while mounted (once per store). */
export function useDeskSync(): void {
  const store = useDeskStoreApi();
  useEffect(() => store.getState().startSync(), [store]);
}

/** One order; re-renders only when that order changes (one row per change). */
export function useOrder(id: string): Order | undefined {
  return useDeskStore((state) => selectOrder(state, id));
}

/** Whether an action of ours on this order is in flight. */
export function useIsPending(id: string): boolean {
  return useDeskStore((state) => selectIsPending(state, id));
}

/** The last refused or failed action on this order, or null. */
export function useOrderError(id: string): OrderActionError | null {
  return useDeskStore((state) => selectOrderError(state, id));
}

/** A board column's ids (`size`, `at(i)`); changes only when its membership or order does. */
export function useBoardColumn(column: BoardColumn): SortedIndex {
  return useDeskStore((state) => selectBoardColumn(state, column));
}

/**
 * The rows of an orders-table view (`size`, `at(i)`), maintained while mounted and shared by
 * equal specs. Undefined for the frame in which a new view (a new sort or filter) is built:
 * keep showing the previous rows.
 */
export function useOrderTableRows(spec: OrderViewSpec): SortedIndex | undefined {
  const store = useDeskStoreApi();
  const key = orderViewKey(spec);
  useEffect(() => store.getState().acquireOrderView(orderViewSpecOf(key)).release, [store, key]);
  return useDeskStore((state) => selectOrderView(state, key));
}

/** The header's metrics. */
export function useMetrics(): DeskMetrics {
  return useDeskStore(selectMetrics);
}

/** The realtime connection (status, next retry, last event time). */
export function useConnection(): ConnectionState {
  return useDeskStore(selectConnection);
}

/** The initial load. */
export function useLoadState(): LoadState {
  return useDeskStore(selectLoad);
}

/** An order's notes, activity and attachments, loaded and kept live while mounted. */
export function useOrderDetail(orderId: string): {
  detail: OrderDetailState | null;
  notes: readonly Note[];
  activity: readonly Activity[];
  attachments: readonly Attachment[];
} {
  const store = useDeskStoreApi();
  useEffect(() => store.getState().loadOrderDetail(orderId), [store, orderId]);
  const detail = useDeskStore((state) => selectOrderDetail(state, orderId));
  const notes = useDeskStore((state) => selectNotes(state, orderId));
  const activity = useDeskStore((state) => selectActivity(state, orderId));
  const attachments = useDeskStore((state) => selectAttachments(state, orderId));
  return { detail, notes, activity, attachments };
}

/** Who else is viewing this order. */
export function useViewers(orderId: string, me: string): readonly Viewer[] {
  return useDeskStore((state) => selectViewers(state, orderId, me));
}

/** Runs a workflow action (optimistic; never throws: see {@link OrderActionResult}). */
export function usePerformOrderAction(): (
  orderId: string,
  action: OrderAction,
) => Promise<OrderActionResult> {
  return useDeskStore((state) => state.performOrderAction);
}
