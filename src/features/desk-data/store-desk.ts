import { ID } from 'appwrite';
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { DeskStore, OrderViewSpec as StoreViewSpec } from '../../../store/index.ts';
import { orderViewKey, orderViewSpecOf } from '../../../store/views/order-views.ts';
import {
  selectActivity,
  selectNotes,
  selectOrderDetail,
} from '../../../store/selectors/details.ts';
import {
  selectBoardColumn,
  selectIsPending,
  selectOrder,
  selectOrders,
  selectOrderView,
} from '../../../store/selectors/orders.ts';
import type { Note } from '../../../domain/entities.ts';
import { AppError } from '../../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import type { OrderAction } from '../../../domain/order-machine.ts';
import { sdk } from '../../lib/appwrite.ts';
import { toAppError } from '../../../store/appwrite/errors.ts';
import type {
  BoardColumn,
  ConnectionInfo,
  DeskData,
  DeskMetrics,
  IdList,
  LoadState,
  OrderDetails,
  OrderViewSpec,
  PerOrder,
} from './types.ts';

/** A store index as the views read it (`size`, `at(i)`), wrapped once per index version. */
interface IndexLike {
  size: number;
  at(index: number): string | undefined;
  toArray(): string[];
}

const wrappers = new WeakMap<IndexLike, IdList>();
const EMPTY: IdList = { version: 0, length: 0, at: () => undefined, indexOf: () => -1 };
let versions = 0;

function idList(index: IndexLike | undefined): IdList {
  if (!index) return EMPTY;
  let list = wrappers.get(index);
  if (!list) {
    list = {
      version: ++versions,
      length: index.size,
      at: (i) => index.at(i),
      indexOf: (id) => index.toArray().indexOf(id),
    };
    wrappers.set(index, list);
  }
  return list;
}

const errorOf = (info: { code: string; message: string } | null): AppError =>
  new AppError(
    (info?.code ?? 'SERVER_ERROR') as AppError['code'],
    info?.message ?? 'Something went wrong.',
  );

/** The desk views on the normalized store of store/. */
export function createStoreDesk(store: DeskStore): DeskData {
  const local = createStore<{ pendingNotes: Record<string, Note>; missing: Record<string, true> }>(
    () => ({
      pendingNotes: {},
      missing: {},
    }),
  );
  return {
    start: () => store.getState().startSync(),
    useLoadState() {
      const load = useStore(store, (s) => s.load);
      return useMemo((): LoadState => {
        if (load.status === 'error') return { status: 'error', error: errorOf(load.error) };
        if (load.status === 'ready') return { status: 'ready', loaded: load.loaded };
        return { status: 'loading', loaded: load.loaded };
      }, [load]);
    },
    useConnection() {
      const c = useStore(store, (s) => s.connection);
      return useMemo(
        (): ConnectionInfo => ({
          state: c.status,
          retryAt: c.nextRetryAt,
          lastEventAt: c.lastEventAt,
        }),
        [c],
      );
    },
    useOrder: (id) => useStore(store, (s) => selectOrder(s, id)),
    useOrders: () => useStore(store, selectOrders),
    useOrderDetails(id) {
      const order = useStore(store, (s) => selectOrder(s, id));
      const loaded = useStore(store, (s) => s.load.status === 'ready');
      const missing = useStore(local, (s) => s.missing[id] === true);
      const [error, setError] = useState<AppError | null>(null);
      // The whole order is read when it is not held, or held as the snapshot's list copy.
      const whole = order !== undefined && order.partial !== true;
      const read = loaded && !whole && !missing && error === null;
      useEffect(() => {
        if (!read) return;
        store
          .getState()
          .refreshOrder(id)
          .then(() => {
            const held = store.getState().orders.get(id);
            // Nothing whole came back: the backend has no such order (for us).
            if (held === undefined || held.partial)
              local.setState((s) => ({ missing: { ...s.missing, [id]: true } }));
          })
          .catch((caught: unknown) => setError(toAppError(caught, 'view this order')));
      }, [read, id]);
      return useMemo((): OrderDetails => {
        if (order && whole) return { status: 'ready', order };
        if (missing) return { status: 'missing' };
        if (error) return { status: 'error', error, retry: () => setError(null) };
        return { status: 'loading' };
      }, [order, whole, missing, error]);
    },
    useOrderView(spec: OrderViewSpec) {
      const key = orderViewKey(spec as StoreViewSpec);
      useEffect(() => store.getState().acquireOrderView(orderViewSpecOf(key)).release, [key]);
      const index = useStore(store, (s) => selectOrderView(s, key));
      // For the frame in which a new view is built, keep showing the previous rows.
      const [last, setLast] = useState<IndexLike | undefined>(index);
      if (index && index !== last) setLast(index);
      return idList(index ?? last);
    },
    useBoardColumn: (column: BoardColumn) =>
      idList(useStore(store, (s) => selectBoardColumn(s, column))),
    useMetrics() {
      const m = useStore(store, (s) => s.metrics);
      return useMemo(
        (): DeskMetrics => ({
          revenueCents: m.revenueCents,
          currency: m.currency ?? 'eur',
          ordersToday: m.ordersToday,
          inProgress: m.inProgress,
          medianPaidToReadyMs: m.medianPaidToReadyMs,
          perMinute: [...m.perMinute],
        }),
        [m],
      );
    },
    useNotes(orderId) {
      useEffect(() => store.getState().loadOrderDetail(orderId), [orderId]);
      const detail = useStore(store, (s) => selectOrderDetail(s, orderId));
      const notes = useStore(store, (s) => selectNotes(s, orderId));
      const pending = useStore(local, (s) => s.pendingNotes);
      return useMemo((): PerOrder<Note> => {
        if (!detail || detail.status === 'loading') return null;
        if (detail.status === 'error') return { items: [], error: errorOf(detail.error) };
        const extra = Object.values(pending).filter(
          (n) => n.orderId === orderId && !notes.some((x) => x.id === n.id),
        );
        return { items: extra.length ? [...notes, ...extra] : [...notes], error: null };
      }, [detail, notes, pending, orderId]);
    },
    useActivity(orderId) {
      useEffect(() => store.getState().loadOrderDetail(orderId), [orderId]);
      const detail = useStore(store, (s) => selectOrderDetail(s, orderId));
      const activity = useStore(store, (s) => selectActivity(s, orderId));
      return useMemo(() => {
        if (!detail || detail.status === 'loading') return null;
        if (detail.status === 'error') return { items: [], error: errorOf(detail.error) };
        return { items: [...activity], error: null };
      }, [detail, activity]);
    },
    useIsPending: (id) => useStore(store, (s) => selectIsPending(s, id)),
    useIsNotePending(id) {
      const pending = useStore(local, (s) => s.pendingNotes[id] !== undefined);
      const stored = useStore(store, (s) => s.notes.get(id) !== undefined);
      return pending && !stored;
    },
    async performOrderAction(orderId: string, action: OrderAction) {
      const result = await store.getState().performOrderAction(orderId, action);
      if (!result.ok) throw result.error;
    },
    async addNote(orderId, body, author) {
      const id = ID.unique();
      const now = Date.now();
      const note: Note = {
        id,
        createdAt: now,
        updatedAt: now,
        orderId,
        authorId: author.id,
        authorName: author.name,
        body: body.trim(),
        deleted: false,
      };
      const drop = () =>
        local.setState((s) => {
          const { [id]: _dropped, ...rest } = s.pendingNotes;
          return { pendingNotes: rest };
        });
      // Shown at once; the store gets the note through realtime (or its next read).
      local.setState((s) => ({ pendingNotes: { ...s.pendingNotes, [id]: note } }));
      try {
        await sdk().databases.createDocument({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.notes,
          documentId: id,
          data: {
            orderId,
            authorId: author.id,
            authorName: author.name,
            body: note.body,
            deleted: false,
          },
        });
      } catch (error) {
        drop();
        throw toAppError(error, 'add notes');
      }
      if (store.getState().notes.get(id)) return drop();
      const unsubscribe = store.subscribe((state) => {
        if (!state.notes.get(id)) return;
        unsubscribe();
        drop();
      });
      setTimeout(() => {
        unsubscribe();
        drop();
      }, 10_000);
    },
    refreshOrder: (orderId) => store.getState().refreshOrder(orderId),
  };
}
