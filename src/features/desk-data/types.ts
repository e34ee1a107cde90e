import type { Activity, Note } from '../../../domain/entities.ts';
import type { AppError } from '../../../domain/errors.ts';
import type { Actor, OrderAction } from '../../../domain/order-machine.ts';
import type { Order, OrderStatus } from '../../../domain/order.ts';

/**
 * What the desk views need from the data layer (the normalized store of store/, adapted in
 * store-desk.ts). The views use only this, so the store can change without touching a view.
 */

/** The header's numbers for today (local day). */
export interface DeskMetrics {
  revenueCents: number;
  currency: string;
  ordersToday: number;
  inProgress: number;
  /** Median time from paid to ready, for orders that became ready today (null: none yet). */
  medianPaidToReadyMs: number | null;
  /** Orders paid per minute, oldest first. */
  perMinute: number[];
}

/** Where the initial load is. */
export type LoadState =
  | { status: 'loading'; loaded: number }
  | { status: 'ready'; loaded: number }
  | { status: 'error'; error: AppError };

/** The realtime connection, as the header shows it. */
export interface ConnectionInfo {
  state: 'connecting' | 'live' | 'reconnecting' | 'resyncing' | 'offline';
  /** When the next reconnect attempt happens (epoch ms), while reconnecting. */
  retryAt: number | null;
  /** When the last realtime event arrived (epoch ms). */
  lastEventAt: number | null;
}

/** Columns the orders table sorts by. */
export const ORDER_SORT_KEYS = [
  'number',
  'createdAt',
  'updatedAt',
  'status',
  'customerName',
  'customerEmail',
  'items',
  'totalCents',
  'assigneeName',
] as const;

/** A sortable column of the orders table. */
export type OrderSortKey = (typeof ORDER_SORT_KEYS)[number];

/**
 * Which orders a table view shows and in what order — data only, so equal specs can share one
 * maintained index (the same shape as store/'s `OrderViewSpec`).
 */
export interface OrderViewSpec {
  sort: OrderSortKey;
  dir: 'asc' | 'desc';
  /** Only these statuses (all when empty or absent). */
  statuses?: readonly OrderStatus[];
  /** Only orders held by this user id; `'none'`: only unclaimed; null/absent: anyone. */
  assignee?: string | null;
  /** Created at or after (epoch ms). */
  createdFrom?: number | null;
  /** Created before (epoch ms, exclusive). */
  createdTo?: number | null;
  /** The order number (`1042`, `#1042`, as a prefix) or part of the customer's name or email. */
  text?: string;
}

/** Board columns: `paid`, `preparing`, `ready` (oldest payment first) and `done` (fulfilled today). */
export type BoardColumn = 'paid' | 'preparing' | 'ready' | 'done';

/**
 * An ordered list of order ids as a view reads it. A new object whenever the list changes (the
 * ids behind it may be shared and updated in place, so read it during render only).
 */
export interface IdList {
  readonly version: number;
  readonly length: number;
  at(index: number): string | undefined;
  indexOf(id: string): number;
}

/**
 * Every order the desk holds, by id: a new object whenever any of them changes, while an
 * unchanged order keeps its identity (so a memoized row re-renders only when its order changed).
 */
export interface OrderLookup {
  get(id: string): Order | undefined;
}

/** The drawer's order. */
export type OrderDetails =
  | { status: 'ready'; order: Order }
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'error'; error: AppError; retry: () => void };

/** Notes or activity of one order: null while loading. */
export type PerOrder<T> = { items: T[]; error: AppError | null } | null;

/** The data layer behind the desk views. */
export interface DeskData {
  /** Starts loading and live sync; returns the cleanup. */
  start(): () => void;
  useLoadState(): LoadState;
  useConnection(): ConnectionInfo;
  useOrder(id: string): Order | undefined;
  /**
   * Every order, for views that show many at once (one subscription for the whole table instead
   * of one per row).
   */
  useOrders(): OrderLookup;
  /**
   * The whole order for the drawer (list views may hold a lighter copy without payment
   * details): fetched when needed, `missing` when the backend has no such order.
   */
  useOrderDetails(id: string): OrderDetails;
  /** Order ids of a table view, in order; a new {@link IdList} only when the view changes. */
  useOrderView(spec: OrderViewSpec): IdList;
  /** Order ids of a board column, in order. */
  useBoardColumn(column: BoardColumn): IdList;
  useMetrics(): DeskMetrics;
  useNotes(orderId: string): PerOrder<Note>;
  useActivity(orderId: string): PerOrder<Activity>;
  /** Whether this order has an action of ours in flight (optimistic). */
  useIsPending(orderId: string): boolean;
  /** Whether a note of ours is still on its way to the backend. */
  useIsNotePending(noteId: string): boolean;
  /** Runs a workflow action through `order-action` (optimistic; rolls back and throws AppError on failure). */
  performOrderAction(orderId: string, action: OrderAction, actor: Actor): Promise<void>;
  /** Adds a note (shown at once, confirmed by the backend). */
  addNote(orderId: string, body: string, author: { id: string; name: string }): Promise<void>;
  /** Reloads one order from the backend (after a conflict). */
  refreshOrder(orderId: string): Promise<void>;
}
