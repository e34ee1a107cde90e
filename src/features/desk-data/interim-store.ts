import { ID, Query, type Models, type RealtimeResponseEvent } from 'appwrite';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import {
  activityFromDocument,
  noteFromDocument,
  type Activity,
  type Note,
} from '../../domain/entities.ts';
import { AppError, appErrorFromBody } from '../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import { decideOrderAction, type Actor, type OrderAction } from '../../domain/order-machine.ts';
import {
  OPEN_STATUSES,
  orderFromDocument,
  type Order,
  type OrderDocument,
} from '../../domain/order.ts';
import { onConnection, sdk, subscribe } from '../../lib/appwrite.ts';
import { toAppError } from '../../lib/errors.ts';
import { computeMetrics, startOfDay, type DeskMetrics } from '../header-metrics/compute.ts';
import {
  boardViewDef,
  SortedView,
  tableViewDef,
  viewKey,
  type OrderChangeRecord,
  type ViewDef,
} from './sorted-view.ts';
import type {
  BoardColumn,
  ConnectionInfo,
  DeskData,
  IdList,
  LoadState,
  OrderDetails,
  OrderViewSpec,
  PerOrder,
} from './types.ts';

/**
 * A stand-in data layer for the desk views until the normalized store of store/ lands: orders in
 * a mutable Map (records replaced, never mutated), realtime events queued and applied once per
 * animation frame, sorted views maintained incrementally, a version counter to notify React.
 * Subscribe first, load the snapshot with cursor pagination, replay, go live; resync by
 * `$updatedAt` on every reconnect.
 */

const PAGE = 5000;
const RESYNC_MARGIN_MS = 10_000;
const HISTORY_DAYS = 30;
/** Realtime events are applied for at most about this long per frame. */
const FRAME_BUDGET_MS = 6;
/** Time slices of the 30-day snapshot loaded concurrently. */
const SLICES = 4;
/**
 * What the board, the table and the metrics read; the snapshot loads only these (about half the
 * bytes and server time), and the drawer fetches the whole order when it opens.
 */
const LIST_FIELDS = [
  'number',
  'status',
  'customerName',
  'customerEmail',
  'items',
  'totalCents',
  'currency',
  'refundedCents',
  'assigneeId',
  'assigneeName',
  'paidAt',
  'readyAt',
  'fulfilledAt',
  'rev',
];

/** The SDK's reconnect delays (PRODUCT.md §8). */
export function reconnectDelayMs(attempt: number): number {
  if (attempt < 5) return 1_000;
  if (attempt < 15) return 5_000;
  if (attempt < 100) return 10_000;
  return 60_000;
}

interface State {
  version: number;
  load: LoadState;
  connection: ConnectionInfo;
  metrics: DeskMetrics;
  pending: Record<string, true>;
  notes: Record<string, PerOrder<Note>>;
  activity: Record<string, PerOrder<Activity>>;
  pendingNotes: Record<string, true>;
  /** Why the whole order could not be fetched for the drawer. */
  detailErrors: Record<string, AppError>;
}

const docsChannel = (collection: string) =>
  `databases.${DATABASE_ID}.collections.${collection}.documents`;

/** Whether `incoming` should replace `current`: the higher `rev`, then the later `$updatedAt`. */
export function isNewer(incoming: Order, current: Order | undefined): boolean {
  if (!current) return true;
  if (incoming.rev !== current.rev) return incoming.rev > current.rev;
  return incoming.updatedAt >= current.updatedAt;
}

export function createInterimDesk(): DeskData {
  const orders = new Map<string, Order>();
  const views = new Map<string, { view: SortedView; refs: number }>();
  const dropLater = (key: string) =>
    setTimeout(() => {
      if (views.get(key)?.refs === 0) views.delete(key);
    }, 2000);
  /** The shared view for a key (built on first use). */
  const viewFor = (key: string, def: () => ViewDef): { key: string; view: SortedView } => {
    let entry = views.get(key);
    if (!entry) {
      entry = { view: new SortedView(def(), (id) => orders.get(id)), refs: 0 };
      entry.view.rebuild(orders.values());
      views.set(key, entry);
      dropLater(key);
    }
    return { key, view: entry.view };
  };

  /** Subscribes a component to a shared view (refcounted) and returns its ids. */
  const useView = (key: string, def: () => ViewDef): IdList => {
    // `def` is derived from `key`: a new key is a new view.
    const holder = useMemo(() => viewFor(key, def), [key]);
    const subscribeView = useMemo(
      () => (listener: () => void) => {
        let entry = views.get(holder.key);
        if (!entry) {
          entry = { view: holder.view, refs: 0 };
          holder.view.rebuild(orders.values());
          views.set(holder.key, entry);
        }
        holder.view = entry.view;
        entry.refs++;
        const unsubscribe = store.subscribe(listener);
        listener();
        return () => {
          unsubscribe();
          entry.refs--;
          if (entry.refs === 0) dropLater(holder.key);
        };
      },
      [holder],
    );
    return useSyncExternalStore(subscribeView, () => holder.view.snapshot());
  };

  const confirmed = new Map<string, Order>();
  const eventListeners = new Set<(receivedAt: number, serverTime: number) => void>();
  const store = createStore<State>(() => ({
    version: 0,
    load: { status: 'loading', loaded: 0 },
    connection: { state: 'connecting', retryAt: null, lastEventAt: null },
    metrics: computeMetrics([], Date.now()),
    pending: {},
    notes: {},
    activity: {},
    pendingNotes: {},
    detailErrors: {},
  }));

  const queue: { event: RealtimeResponseEvent<Record<string, unknown>>; receivedAt: number }[] = [];
  let buffering = true;
  let frame = 0;
  let watermark = 0;
  let attempts = 0;
  let everOpened = false;

  const changedOrders = (changed: OrderChangeRecord[]) => {
    if (!changed.length) return;
    for (const { view } of views.values()) view.apply(changed);
    store.setState((s) => ({ version: s.version + 1 }));
  };

  // Orders that can move today's metrics: open ones and those paid or made ready today.
  const relevant = new Set<string>();
  let relevantDay = startOfDay(Date.now());
  const isRelevant = (order: Order) =>
    OPEN_STATUSES.includes(order.status) ||
    (order.paidAt !== null && order.paidAt >= relevantDay) ||
    (order.readyAt !== null && order.readyAt >= relevantDay);
  const metricsNow = (): DeskMetrics => {
    const now = Date.now();
    if (startOfDay(now) !== relevantDay) {
      relevantDay = startOfDay(now);
      relevant.clear();
      for (const order of orders.values()) if (isRelevant(order)) relevant.add(order.id);
    }
    const list: Order[] = [];
    for (const id of relevant) list.push(orders.get(id)!);
    return computeMetrics(list, now);
  };

  // Orders held as the snapshot's lighter copy (no payment details) until a full one arrives.
  const partial = new Set<string>();
  const fetchingDetails = new Set<string>();

  /** Stores `order` (when newer, or always with `force`) and records the change. */
  const put = (order: Order, changed: OrderChangeRecord[], force = false): void => {
    const before = orders.get(order.id);
    if (!force && !isNewer(order, before)) return;
    orders.set(order.id, order);
    partial.delete(order.id);
    if (isRelevant(order)) relevant.add(order.id);
    else relevant.delete(order.id);
    changed.push({ before, after: order });
  };

  const upsert = (order: Order, changed: OrderChangeRecord[]): void => {
    if (!isNewer(order, confirmed.get(order.id))) return;
    confirmed.set(order.id, order);
    if (order.updatedAt > watermark) watermark = order.updatedAt;
    put(order, changed, true);
  };

  // Events for an order whose notes or activity are still loading wait here, then merge.
  const earlyNotes = new Map<string, Note[]>();
  const earlyActivity = new Map<string, Activity[]>();

  const applyNote = (note: Note) => {
    const current = store.getState().notes[note.orderId];
    if (current === null)
      earlyNotes.set(note.orderId, [...(earlyNotes.get(note.orderId) ?? []), note]);
    if (!current) return;
    const items = current.items.filter((n) => n.id !== note.id);
    if (!note.deleted) items.push(note);
    items.sort((a, b) => a.createdAt - b.createdAt);
    const { [note.id]: _dropped, ...pendingNotes } = store.getState().pendingNotes;
    store.setState((s) => ({
      notes: { ...s.notes, [note.orderId]: { items, error: null } },
      pendingNotes,
    }));
  };

  const applyActivity = (entry: Activity) => {
    const current = store.getState().activity[entry.orderId];
    if (current === null)
      earlyActivity.set(entry.orderId, [...(earlyActivity.get(entry.orderId) ?? []), entry]);
    if (!current || current.items.some((a) => a.id === entry.id)) return;
    const items = [...current.items, entry].sort((a, b) => a.at - b.at);
    store.setState((s) => ({
      activity: { ...s.activity, [entry.orderId]: { items, error: null } },
    }));
  };

  const ORDERS = docsChannel(COLLECTIONS.orders);
  const NOTES = docsChannel(COLLECTIONS.notes);
  const ACTIVITY = docsChannel(COLLECTIONS.activity);

  /**
   * Applies queued events, at most ~{@link FRAME_BUDGET_MS} of them per frame: after a stall
   * the backlog is spread over a few frames instead of making one long one.
   */
  const flush = () => {
    frame = 0;
    const started = performance.now();
    const changed: OrderChangeRecord[] = [];
    let count = 0;
    while (count < queue.length) {
      const { event } = queue[count]!;
      count++;
      const channel = event.channels.find((c) => c.endsWith('.documents')) ?? '';
      const payload = event.payload as unknown;
      if (channel === ORDERS) upsert(orderFromDocument(payload as OrderDocument), changed);
      else if (channel === NOTES)
        applyNote(noteFromDocument(payload as Parameters<typeof noteFromDocument>[0]));
      else if (channel === ACTIVITY)
        applyActivity(activityFromDocument(payload as Parameters<typeof activityFromDocument>[0]));
      if ((count & 7) === 0 && performance.now() - started > FRAME_BUDGET_MS) break;
    }
    const batch = queue.splice(0, count);
    changedOrders(changed);
    if (batch.length) {
      const now = Date.now();
      if (now - (store.getState().connection.lastEventAt ?? 0) >= 500)
        store.setState((s) => ({ connection: { ...s.connection, lastEventAt: now } }));
      for (const listener of eventListeners)
        for (const { event, receivedAt } of batch)
          listener(receivedAt, Date.parse(event.timestamp.replace(' ', 'T')) || now);
    }
    if (queue.length && !buffering) frame = requestAnimationFrame(flush);
  };

  const onEvent = (event: RealtimeResponseEvent<Record<string, unknown>>) => {
    queue.push({ event, receivedAt: performance.now() });
    if (!buffering && !frame) frame = requestAnimationFrame(flush);
  };

  const loadPages = async (
    queries: string[],
    onPage?: (count: number) => void,
    light = false,
  ): Promise<Order[]> => {
    const out: Order[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page: Models.DocumentList<Models.Document> = await sdk().databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        queries: [
          ...queries,
          ...(light ? [Query.select(LIST_FIELDS)] : []),
          Query.limit(PAGE),
          ...(cursor ? [Query.cursorAfter(cursor)] : []),
        ],
      });
      for (const doc of page.documents)
        out.push(orderFromDocument(doc as unknown as OrderDocument));
      onPage?.(out.length);
      if (page.documents.length < PAGE) return out;
      cursor = page.documents.at(-1)!.$id;
    }
  };

  /**
   * Loads open orders plus the last 30 days (PRODUCT.md §8): the 30 days in time slices paged
   * concurrently (each slice by cursor), and older open orders.
   */
  const snapshot = async () => {
    performance.mark('livedesk:snapshot-start');
    const now = Date.now();
    const since = now - HISTORY_DAYS * 24 * 3600_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const counts = new Array<number>(SLICES + 1).fill(0);
    const progress = (slice: number) => (n: number) => {
      counts[slice] = n;
      store.setState({ load: { status: 'loading', loaded: counts.reduce((a, b) => a + b, 0) } });
    };
    const step = (now + 60_000 - since) / SLICES;
    const slices = Array.from({ length: SLICES }, (_, i) => {
      const from = since + i * step;
      const to = i === SLICES - 1 ? null : since + (i + 1) * step;
      return loadPages(
        [
          Query.greaterThan('$createdAt', iso(from)),
          ...(to === null ? [] : [Query.lessThanEqual('$createdAt', iso(to))]),
          Query.orderAsc('$createdAt'),
        ],
        progress(i),
        true,
      );
    });
    const olderOpen = loadPages(
      [
        Query.equal('status', [...OPEN_STATUSES]),
        Query.lessThanEqual('$createdAt', iso(since)),
        Query.orderAsc('$createdAt'),
      ],
      progress(SLICES),
      true,
    );
    const loaded = await Promise.all([...slices, olderOpen]);
    performance.mark('livedesk:snapshot-fetched');
    const ignored: OrderChangeRecord[] = [];
    for (const list of loaded)
      for (const order of list) {
        const known = confirmed.get(order.id);
        upsert(order, ignored);
        if (confirmed.get(order.id) !== known) partial.add(order.id);
      }
    for (const { view } of views.values()) view.rebuild(orders.values());
    buffering = false;
    flush();
    performance.mark('livedesk:snapshot-applied');
    store.setState((s) => ({
      version: s.version + 1,
      load: { status: 'ready', loaded: orders.size },
      metrics: metricsNow(),
    }));
  };

  const resync = async () => {
    store.setState((s) => ({ connection: { ...s.connection, state: 'resyncing', retryAt: null } }));
    try {
      const since = new Date(watermark - RESYNC_MARGIN_MS).toISOString();
      const changed: OrderChangeRecord[] = [];
      for (const order of await loadPages([
        Query.greaterThan('$updatedAt', since),
        Query.orderAsc('$updatedAt'),
      ]))
        upsert(order, changed);
      changedOrders(changed);
      for (const orderId of Object.keys(store.getState().notes)) void loadNotes(orderId);
      store.setState((s) => ({ connection: { ...s.connection, state: 'live' } }));
    } catch {
      store.setState((s) => ({
        connection: { ...s.connection, state: 'reconnecting', retryAt: Date.now() + 1000 },
      }));
      setTimeout(() => void resync(), 1000);
    }
  };

  const loadNotes = async (orderId: string) => {
    try {
      const { documents } = await sdk().databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.notes,
        queries: [Query.equal('orderId', orderId), Query.orderAsc('$createdAt'), Query.limit(500)],
      });
      const items = documents
        .map((d) => noteFromDocument(d as unknown as Parameters<typeof noteFromDocument>[0]))
        .filter((n) => !n.deleted);
      store.setState((s) => ({ notes: { ...s.notes, [orderId]: { items, error: null } } }));
    } catch (error) {
      store.setState((s) => ({
        notes: { ...s.notes, [orderId]: { items: [], error: toAppError(error) } },
      }));
    }
  };

  const loadActivity = async (orderId: string) => {
    try {
      const { documents } = await sdk().databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.activity,
        queries: [Query.equal('orderId', orderId), Query.orderAsc('at'), Query.limit(500)],
      });
      const items = documents.map((d) =>
        activityFromDocument(d as unknown as Parameters<typeof activityFromDocument>[0]),
      );
      store.setState((s) => ({ activity: { ...s.activity, [orderId]: { items, error: null } } }));
      for (const entry of earlyActivity.get(orderId) ?? []) applyActivity(entry);
      earlyActivity.delete(orderId);
    } catch (error) {
      store.setState((s) => ({
        activity: { ...s.activity, [orderId]: { items: [], error: toAppError(error) } },
      }));
    }
  };

  const refreshOrder = async (orderId: string) => {
    const doc = await sdk().databases.getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: orderId,
    });
    const fresh = orderFromDocument(doc as unknown as OrderDocument);
    const known = confirmed.get(fresh.id);
    // A realtime update may have brought a newer version meanwhile.
    if (known && !partial.has(fresh.id) && !isNewer(fresh, known)) return;
    const changed: OrderChangeRecord[] = [];
    confirmed.set(fresh.id, fresh);
    put(fresh, changed, true);
    changedOrders(changed);
  };

  const desk: DeskData = {
    start() {
      let stopped = false;
      const unsubscribe = subscribe<Record<string, unknown>>(
        [
          docsChannel(COLLECTIONS.orders),
          docsChannel(COLLECTIONS.notes),
          docsChannel(COLLECTIONS.activity),
        ],
        onEvent,
      );
      const stopConnection = onConnection((signal) => {
        if (signal === 'open') {
          const reconnect = everOpened;
          everOpened = true;
          attempts = 0;
          if (reconnect && !buffering) void resync();
          else if (!buffering)
            store.setState((s) => ({
              connection: { ...s.connection, state: 'live', retryAt: null },
            }));
        } else if (signal === 'close') {
          if (!navigator.onLine) return;
          const retryAt = Date.now() + reconnectDelayMs(attempts++);
          store.setState((s) => ({
            connection: { ...s.connection, state: 'reconnecting', retryAt },
          }));
        }
      });
      const offline = () =>
        store.setState((s) => ({
          connection: { ...s.connection, state: 'offline', retryAt: null },
        }));
      const online = () =>
        store.setState((s) => ({
          connection: { ...s.connection, state: 'reconnecting', retryAt: Date.now() + 1000 },
        }));
      window.addEventListener('offline', offline);
      window.addEventListener('online', online);
      const ticker = setInterval(() => {
        if (store.getState().load.status === 'ready') store.setState({ metrics: metricsNow() });
      }, 1000);
      void snapshot()
        .then(() => {
          if (!stopped && everOpened)
            store.setState((s) => ({ connection: { ...s.connection, state: 'live' } }));
        })
        .catch((error: unknown) =>
          store.setState({ load: { status: 'error', error: toAppError(error) } }),
        );
      return () => {
        stopped = true;
        unsubscribe();
        stopConnection();
        clearInterval(ticker);
        window.removeEventListener('offline', offline);
        window.removeEventListener('online', online);
        if (frame) cancelAnimationFrame(frame);
      };
    },
    useLoadState: () => useStore(store, (s) => s.load),
    useConnection: () => useStore(store, (s) => s.connection),
    useMetrics: () => useStore(store, (s) => s.metrics),
    useOrder(id) {
      return useStore(store, () => orders.get(id));
    },
    useOrderDetails(id) {
      const order = useStore(store, () => orders.get(id));
      const light = useStore(store, () => partial.has(id));
      const loaded = useStore(store, (s) => s.load.status === 'ready');
      const failure = useStore(store, (s) => s.detailErrors[id] ?? null);
      const needed = loaded && (order === undefined || light) && failure === null;
      useEffect(() => {
        if (!needed || fetchingDetails.has(id)) return;
        fetchingDetails.add(id);
        refreshOrder(id)
          .catch((error: unknown) =>
            store.setState((s) => ({
              detailErrors: { ...s.detailErrors, [id]: toAppError(error, 'view this order') },
            })),
          )
          .finally(() => fetchingDetails.delete(id));
      }, [needed, id]);
      return useMemo((): OrderDetails => {
        if (failure?.code === 'NOT_FOUND') return { status: 'missing' };
        if (failure)
          return {
            status: 'error',
            error: failure,
            retry: () => {
              const { [id]: _cleared, ...rest } = store.getState().detailErrors;
              store.setState({ detailErrors: rest });
            },
          };
        if (order === undefined || light) return { status: 'loading' };
        return { status: 'ready', order };
      }, [failure, order, light, id]);
    },
    useIsPending(id) {
      return useStore(store, (s) => s.pending[id] === true);
    },
    useIsNotePending(id) {
      return useStore(store, (s) => s.pendingNotes[id] === true);
    },
    useOrderView(spec: OrderViewSpec) {
      return useView(`table:${viewKey(spec)}`, () => tableViewDef(spec));
    },
    useBoardColumn(column: BoardColumn) {
      const day = column === 'done' ? startOfDay(Date.now()) : 0;
      return useView(`board:${column}:${day}`, () => boardViewDef(column, day));
    },
    useNotes(orderId) {
      const value = useStore(store, (s) => s.notes[orderId] ?? null);
      useEffect(() => {
        if (orderId in store.getState().notes) return;
        store.setState((s) => ({ notes: { ...s.notes, [orderId]: null } }));
        void loadNotes(orderId);
      }, [orderId]);
      return value;
    },
    useActivity(orderId) {
      const value = useStore(store, (s) => s.activity[orderId] ?? null);
      useEffect(() => {
        if (orderId in store.getState().activity) return;
        store.setState((s) => ({ activity: { ...s.activity, [orderId]: null } }));
        void loadActivity(orderId);
      }, [orderId]);
      return value;
    },
    async performOrderAction(orderId: string, action: OrderAction, actor: Actor) {
      const before = orders.get(orderId);
      if (!before) throw new AppError('NOT_FOUND', 'This order is no longer on the desk.');
      const decision = decideOrderAction(
        before,
        { action, expectedRev: before.rev },
        actor,
        Date.now(),
      );
      if (decision instanceof AppError) throw decision;
      const optimistic: Order = { ...before, ...decision.patch, updatedAt: Date.now() } as Order;
      const local: OrderChangeRecord[] = [];
      put(optimistic, local, true);
      store.setState((s) => ({ pending: { ...s.pending, [orderId]: true } }));
      changedOrders(local);
      const settle = () => {
        const { [orderId]: _done, ...pending } = store.getState().pending;
        store.setState({ pending });
      };
      try {
        const execution = await sdk().functions.createExecution({
          functionId: FUNCTIONS.orderAction,
          body: JSON.stringify({ orderId, action, expectedRev: before.rev }),
          async: false,
          method: 'POST' as never,
          headers: { 'content-type': 'application/json' },
        });
        let body: unknown = null;
        try {
          body = JSON.parse(execution.responseBody || 'null');
        } catch {
          body = null;
        }
        const failure = appErrorFromBody(body);
        if (failure || execution.responseStatusCode >= 400)
          throw (
            failure ??
            new AppError('SERVER_ERROR', `Something went wrong (ref ${execution.$id.slice(0, 8)}).`)
          );
        settle();
        const doc = body as OrderDocument | null;
        if (doc && typeof doc === 'object' && '$id' in doc) {
          const changed: OrderChangeRecord[] = [];
          upsert(orderFromDocument(doc), changed);
          changedOrders(changed);
        }
      } catch (error) {
        settle();
        const appError = toAppError(error, 'do that');
        if (orders.get(orderId) === optimistic) {
          const rollback: OrderChangeRecord[] = [];
          put(confirmed.get(orderId) ?? before, rollback, true);
          changedOrders(rollback);
        }
        if (appError.code === 'ORDER_CONFLICT' || appError.code === 'INVALID_TRANSITION')
          await refreshOrder(orderId).catch(() => {});
        throw appError;
      }
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
      store.setState((s) => ({ pendingNotes: { ...s.pendingNotes, [id]: true } }));
      applyNote(note);
      store.setState((s) => ({ pendingNotes: { ...s.pendingNotes, [id]: true } }));
      try {
        const doc = await sdk().databases.createDocument({
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
        applyNote(noteFromDocument(doc as unknown as Parameters<typeof noteFromDocument>[0]));
      } catch (error) {
        applyNote({ ...note, deleted: true });
        throw toAppError(error, 'add notes');
      }
    },
    refreshOrder,
    onEventApplied(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };
  return desk;
}
