import {
  createContext,
  createElement,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { useStore } from 'zustand';
import type { Activity, Attachment, Note, Product } from '../../domain/entities.ts';
import type { AppError } from '../../domain/errors.ts';
import type { Order } from '../../domain/order.ts';
import type { DeskStore } from '../create-store.ts';
import type { MutationFailure, MutationTarget } from '../mutations/mutations.ts';
import type { EntityTable } from '../records/entity-table.ts';
import type { TeamMember } from '../records/people.ts';
import { selectConnection, selectLoad, selectMetrics } from '../selectors/connection.ts';
import {
  selectActivity,
  selectAttachments,
  selectIsNotePending,
  selectNotesWithPending,
  selectOrderDetail,
} from '../selectors/details.ts';
import { selectFailure, selectLatestFailure, selectRunning } from '../selectors/mutations.ts';
import {
  selectBoardColumn,
  selectIsPending,
  selectOrder,
  selectOrders,
  selectOrderView,
} from '../selectors/orders.ts';
import {
  selectConfirmedMembers,
  selectMembers,
  selectViewers,
  type Viewer,
} from '../selectors/people.ts';
import type { DeskState } from '../state.ts';
import type { ConnectionState } from '../sync/connection.ts';
import type { FirstScreen } from '../sync/first-screen.ts';
import type { LoadState, OrderDetailState } from '../sync/sync-state.ts';
import type { DeskMetrics } from '../views/metrics.ts';
import {
  ORDER_SORT_KEYS,
  orderViewKey,
  orderViewSpecOf,
  type BoardColumn,
  type OrderViewSpec,
} from '../views/order-views.ts';
import { SortedIndex } from '../views/sorted-index.ts';

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

/**
 * The store's writes (stable functions: they never change, so reading them does not subscribe):
 * `performOrderAction`, `addNote`, `saveProduct`, `setProductActive`, `changeMemberRole`,
 * `removeMember`, `inviteMember`, `dismissFailure`, `retryOrderDetail`.
 */
export function useDeskActions(): Pick<
  DeskState,
  | 'performOrderAction'
  | 'refundOrder'
  | 'addNote'
  | 'saveProduct'
  | 'setProductActive'
  | 'changeMemberRole'
  | 'removeMember'
  | 'inviteMember'
  | 'dismissFailure'
  | 'retryOrderDetail'
> {
  return useDeskStoreApi().getState();
}

/** One order; re-renders only when that order changes (one row per change). */
export function useOrder(id: string): Order | undefined {
  return useDeskStore((state) => selectOrder(state, id));
}

/**
 * Every order, for views that show many at once (one subscription for the whole table instead of
 * one per row): a new table when any order changes; an unchanged order keeps its identity.
 */
export function useOrders(): EntityTable<Order> {
  return useDeskStore(selectOrders);
}

/** Whether an action of ours on this order is in flight. */
export function useIsPending(id: string): boolean {
  return useDeskStore((state) => selectIsPending(state, id));
}

/** A board column's ids (`size`, `at(i)`); changes only when its membership or order does. */
export function useBoardColumn(column: BoardColumn): SortedIndex {
  return useDeskStore((state) => selectBoardColumn(state, column));
}

const NO_ROWS = SortedIndex.empty('asc');

/**
 * The rows of an orders-table view (`size`, `at(i)`), maintained while mounted and shared by
 * equal specs. For the frame in which a new view (a new sort or filter) is built, the previous
 * rows stay.
 */
export function useOrderTableRows(spec: OrderViewSpec): SortedIndex {
  const store = useDeskStoreApi();
  const key = orderViewKey(spec);
  useEffect(() => store.getState().acquireOrderView(orderViewSpecOf(key)).release, [store, key]);
  usePreparedSortColumns();
  const index = useDeskStore((state) => selectOrderView(state, key));
  const [last, setLast] = useState<SortedIndex | undefined>(index);
  if (index && index !== last) setLast(index);
  return index ?? last ?? NO_ROWS;
}

/**
 * Whether the rows of `spec`'s view are its own: false while the view is being made (the table
 * shows the previous rows then) and in the render before it is asked for.
 */
export function useOrderViewReady(spec: OrderViewSpec): boolean {
  const key = orderViewKey(spec);
  return useDeskStore((state) => selectOrderView(state, key) !== undefined);
}

/**
 * Whether the view of `spec` is still being made in slices (see `acquireOrderView`): `sorting`
 * while its sort column is built, `filtering` during the pass; null once its rows are there.
 */
export function useOrderViewPending(spec: OrderViewSpec): 'sorting' | 'filtering' | null {
  const key = orderViewKey(spec);
  return useDeskStore((state) => state.pendingViews[key]?.phase ?? null);
}

/**
 * A returning visit's first screen of the orders table when it is the view of `spec` and the
 * orders are still being restored (null otherwise: none, another view, or every order is
 * there). Also tells the store that this view is the one shown, so the first screen kept for
 * the next visit is this view's.
 */
export function useFirstScreen(spec: OrderViewSpec): FirstScreen | null {
  const store = useDeskStoreApi();
  const key = orderViewKey(spec);
  useEffect(() => store.getState().showTableView(key), [store, key]);
  return useDeskStore((state) => state.firstScreens.find((screen) => screen.view === key) ?? null);
}

/** How long after the load is ready the sort columns start being prepared (ms). */
const PREPARE_AFTER = 2000;

/** How often the sort columns are caught up with the orders when the desk is idle (ms). */
const CATCH_UP_EVERY = 1000;

/**
 * Once the orders are loaded, makes the search text of the orders, then builds the sort columns
 * not built yet, one per idle period of the browser (a timer elsewhere), so that the first
 * keystroke of a search folds no names and the first sort by any column is a pass, not a sort.
 * Then, every {@link CATCH_UP_EVERY} ms, catches the columns up with the orders' changes in an
 * idle period (at the latest that much later when the browser is never idle): the realtime
 * batches do not edit them, and a view made from a column has little to catch up.
 */
function usePreparedSortColumns(): void {
  const store = useDeskStoreApi();
  const ready = useDeskStore((state) => state.load.status === 'ready');
  useEffect(() => {
    if (!ready) return;
    let cancel = () => {};
    const idle = (run: () => void, timeout = 5000) => {
      if (typeof requestIdleCallback === 'function') {
        const handle = requestIdleCallback(run, { timeout });
        cancel = () => cancelIdleCallback(handle);
      } else {
        const handle = setTimeout(run, 50);
        cancel = () => clearTimeout(handle);
      }
    };
    const later = (run: () => void, ms: number) => {
      const handle = setTimeout(run, ms);
      cancel = () => clearTimeout(handle);
    };
    const catchUp = () => {
      store.getState().catchUpSortColumns();
      later(() => idle(catchUp, CATCH_UP_EVERY), CATCH_UP_EVERY);
    };
    const step = () => {
      const missing = ORDER_SORT_KEYS.filter((key) => !store.getState().sortColumns[key]);
      if (missing.length === 0) return catchUp();
      store.getState().prepareSortColumns([missing[0]!]);
      idle(step);
    };
    later(
      () =>
        idle(() => {
          store.getState().prepareSearch();
          idle(step);
        }),
      PREPARE_AFTER,
    );
    return () => cancel();
  }, [store, ready]);
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

/** The drawer's order: the whole record, read when only its list copy is held. */
export type OrderDetailView =
  | { status: 'ready'; order: Order }
  /** `listCopy`: the list copy held meanwhile (what the table and board show), if any. */
  | { status: 'loading'; listCopy: Order | null }
  | { status: 'missing' }
  | { status: 'error'; error: AppError; retry: () => void };

/**
 * Loads an order's whole record, notes, activity and attachments and keeps them live while
 * mounted; returns the order as the drawer shows it.
 */
export function useOrderDetail(orderId: string): OrderDetailView {
  const store = useDeskStoreApi();
  useEffect(() => store.getState().loadOrderDetail(orderId), [store, orderId]);
  const order = useDeskStore((state) => selectOrder(state, orderId));
  const detail = useDeskStore((state) => selectOrderDetail(state, orderId));
  return useMemo((): OrderDetailView => {
    if (order && order.partial !== true) return { status: 'ready', order };
    if (detail?.missing) return { status: 'missing' };
    if (detail?.status === 'error' && detail.error)
      return {
        status: 'error',
        error: detail.error,
        retry: () => store.getState().retryOrderDetail(orderId),
      };
    return { status: 'loading', listCopy: order ?? null };
  }, [order, detail, store, orderId]);
}

/** A tracked detail's lists: null while loading; the error when the read failed. */
export type DetailList<T> = { items: readonly T[]; error: AppError | null } | null;

function useDetailList<T>(
  orderId: string,
  select: (state: DeskState, orderId: string) => readonly T[],
): DetailList<T> {
  const detail: OrderDetailState | null = useDeskStore((state) =>
    selectOrderDetail(state, orderId),
  );
  const items = useDeskStore((state) => select(state, orderId));
  return useMemo(() => {
    if (!detail || detail.status === 'loading') return null;
    return { items, error: detail.status === 'error' ? detail.error : null };
  }, [detail, items]);
}

/**
 * An order's notes (ours still being sent after them) while its detail is tracked (see
 * {@link useOrderDetail}).
 */
export function useNotes(orderId: string): DetailList<Note> {
  return useDetailList(orderId, selectNotesWithPending);
}

/** An order's activity, in time order, while its detail is tracked. */
export function useActivity(orderId: string): DetailList<Activity> {
  return useDetailList(orderId, selectActivity);
}

/** An order's attachments while its detail is tracked. */
export function useAttachments(orderId: string): DetailList<Attachment> {
  return useDetailList(orderId, selectAttachments);
}

/** Whether a note of ours is still on its way to the backend. */
export function useIsNotePending(noteId: string): boolean {
  return useDeskStore((state) => selectIsNotePending(state, noteId));
}

/** Who else is viewing this order (the signed-in member is left out). */
export function useViewers(orderId: string): readonly Viewer[] {
  return useDeskStore((state) => selectViewers(state, orderId, state.actor?.id ?? ''));
}

/** Tells the team this member is viewing `orderId` while mounted. */
export function useViewOrder(orderId: string): void {
  const store = useDeskStoreApi();
  useEffect(() => store.getState().viewOrder(orderId), [store, orderId]);
}

/** The desk team's members (invited ones too), by name. */
export function useMembers(): readonly TeamMember[] {
  return useDeskStore(selectMembers);
}

/** The members who accepted, by name. */
export function useConfirmedMembers(): readonly TeamMember[] {
  return useDeskStore(selectConfirmedMembers);
}

/** The catalog, by `sortOrder` then name. */
export function useProducts(): readonly Product[] {
  return useDeskStore((state) => state.productList);
}

/** What a write on `target` is doing now, or null. */
export function useRunning(target: MutationTarget): string | null {
  return useDeskStore((state) => selectRunning(state, target));
}

/** The last failed write on `target`, or null. */
export function useFailure(target: MutationTarget): MutationFailure | null {
  return useDeskStore((state) => selectFailure(state, target));
}

/**
 * The most recent failed write among the targets starting with `prefix` (e.g. `product:`), except
 * `except`, or null: what a page shows above its list.
 */
export function useLatestFailure(prefix: string, except?: MutationTarget): MutationFailure | null {
  return useDeskStore((state) => selectLatestFailure(state, prefix, except));
}

/** The writes in flight, by target (for lists: one subscription for every row). */
export function useRunningWrites(): DeskState['running'] {
  return useDeskStore((state) => state.running);
}
