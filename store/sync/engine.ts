import { Query } from 'appwrite';
import { OPEN_STATUSES } from '../../domain/order.ts';
import type { DocumentMeta, Order } from '../../domain/order.ts';
import type { ExportJob, Product } from '../../domain/entities.ts';
import { toAppError } from '../appwrite/errors.ts';
import type { DeskState, ErrorInfo } from '../state.ts';
import type { RemoteChange, SyncedCollection } from '../records/changes.ts';
import { Coverage } from './coverage.ts';
import {
  changeFromDocument,
  changeFromEvent,
  documentsChannel,
  listOrderFromDocument,
  ORDER_LIST_SELECT,
  recordFromDocument,
} from './documents.ts';
import { cursorPages, deltaPages, isoTime, PAGE_SIZE } from './pager.ts';
import {
  browserNetwork,
  defaultFrameScheduler,
  systemTimers,
  type FrameScheduler,
  type NetworkPort,
  type RealtimeEvent,
  type RealtimeHandlers,
  type RealtimePort,
  type RealtimeSubscription,
  type SnapshotPort,
  type Timers,
} from './ports.ts';

/** Collections loaded whole (in scope) and kept complete by delta reads. */
const FULL_SYNC = ['orders', 'products', 'exports'] as const;
/** A collection loaded whole and kept complete. */
export type FullSync = (typeof FULL_SYNC)[number];

/** Collections loaded per order, on demand. */
const DETAIL_SYNC = ['notes', 'activity', 'attachments'] as const;

/**
 * Details are followed with a realtime query naming the tracked orders (the server sends only
 * theirs); past this many, with none (every detail event, most dropped on arrival).
 */
const MAX_FOLLOWED_ORDERS = 100;

const IGNORE_CONNECTION: RealtimeHandlers = { onOpen: () => {}, onClose: () => {} };

const DAY = 24 * 3600_000;

/** The size of the first page of the newest orders (a screenful or two, shown at once). */
const FIRST_PAGE = 250;

/** Ports and settings of the sync engine. */
export interface SyncOptions {
  realtime: RealtimePort;
  snapshot: SnapshotPort;
  /** Flush scheduler (default: animation frames, or 16 ms outside a browser). */
  scheduler?: FrameScheduler;
  timers?: Timers;
  network?: NetworkPort;
  /** Delta reads start this long before the watermark (writes visible later than stamped). */
  resyncMarginMs?: number;
  /** Orders created this many days back are loaded, plus every open one. */
  historyDays?: number;
  /** At most this many recent orders are loaded (the newest). */
  maxOrders?: number;
  pageSize?: number;
  /** The recent orders are read in this many time slices at once (by `$createdAt`). */
  slices?: number;
  /** How long the first load waits for the subscription before reading anyway. */
  activationWaitMs?: number;
  /** How often metrics are republished (their per-minute series moves with time). */
  tickMs?: number;
  /** Delay before retrying a failed read, by attempt (the last value repeats). */
  retryDelaysMs?: readonly number[];
  /**
   * The collections besides `orders` that are loaded whole and kept complete (default: products
   * and export jobs; staff can read no export jobs).
   */
  fullSync?: readonly Exclude<FullSync, 'orders'>[];
}

/** The statuses loaded whatever their age. */
const ALWAYS_LOADED = [...OPEN_STATUSES, 'pending_payment'] as const;

/** A `livedesk:` performance mark of the load's phases (`bench:ui` prints them). */
function mark(name: string): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function')
    performance.mark(`livedesk:${name}`);
}

function errorInfo(error: unknown): ErrorInfo {
  const appError = toAppError(error);
  return { code: appError.code, message: appError.message };
}

/**
 * Keeps the store in sync with the backend: subscribe first and buffer; load the snapshot with
 * cursor pagination; replay the buffer; go live. On every reconnect: `reconnecting` (with the
 * SDK's retry delay), then `resyncing` (a delta read by `$updatedAt` from where changes may
 * have been missed, see {@link Coverage}), then `live`. Realtime events are queued and applied
 * once per frame in one `set`; applying is idempotent, so duplicates, reordering and overlap
 * between events and reads are harmless.
 */
export class SyncEngine {
  readonly #store: { getState(): DeskState };
  readonly #realtime: RealtimePort;
  readonly #snapshot: SnapshotPort;
  readonly #scheduler: FrameScheduler;
  readonly #timers: Timers;
  readonly #network: NetworkPort;
  readonly #now: () => number;
  readonly #margin: number;
  readonly #historyDays: number;
  readonly #maxOrders: number;
  readonly #pageSize: number;
  readonly #slices: number;
  readonly #activationWaitMs: number;
  readonly #tickMs: number;
  readonly #retryDelays: readonly number[];
  readonly #fullSync: readonly FullSync[];

  #queue: RemoteChange[] = [];
  #eventsAt: number | null = null;
  #cancelFlush: (() => void) | null = null;
  #buffering = true;
  #running = false;
  #active = false;
  #closes = 0;
  #initialDone = false;
  /** Increases with every start and stop; async work of an older epoch stops at its next step. */
  #epoch = 0;
  #resyncing = false;
  #resyncWanted = false;
  #detailRisk = false;
  #failures = 0;
  #coverage: Record<FullSync, Coverage> = {
    orders: new Coverage(),
    products: new Coverage(),
    exports: new Coverage(),
  };
  #activation: { resolve: () => void; promise: Promise<void> } | null = null;
  #subscription: RealtimeSubscription | null = null;
  /** The subscription to the tracked orders' details, and the key of the queries it was given. */
  #details: { subscription: Promise<RealtimeSubscription>; key: string } | null = null;
  /** Changes of the details subscription, one at a time. */
  #following: Promise<void> = Promise.resolve();
  #cleanups: (() => void)[] = [];
  #timerHandles = new Set<unknown>();

  constructor(store: { getState(): DeskState }, options: SyncOptions, now: () => number) {
    this.#store = store;
    this.#realtime = options.realtime;
    this.#snapshot = options.snapshot;
    this.#scheduler = options.scheduler ?? defaultFrameScheduler();
    this.#timers = options.timers ?? systemTimers;
    this.#network = options.network ?? browserNetwork();
    this.#now = now;
    this.#margin = options.resyncMarginMs ?? 5_000;
    this.#historyDays = options.historyDays ?? 30;
    this.#maxOrders = options.maxOrders ?? 100_000;
    this.#pageSize = options.pageSize ?? PAGE_SIZE;
    this.#slices = Math.max(1, Math.floor(options.slices ?? 4));
    this.#activationWaitMs = options.activationWaitMs ?? 2_000;
    this.#tickMs = options.tickMs ?? 5_000;
    this.#retryDelays = options.retryDelaysMs ?? [1_000, 2_000, 5_000, 10_000];
    this.#fullSync = ['orders', ...(options.fullSync ?? ['products', 'exports'])];
  }

  get #state(): DeskState {
    return this.#store.getState();
  }

  /** Whether the engine is running (between {@link start} and its cleanup). */
  get running(): boolean {
    return this.#running;
  }

  /** Starts syncing (again after a stop: a fresh load); returns the cleanup (idempotent). */
  start(): () => void {
    if (this.#running) return () => this.stop();
    this.#running = true;
    const epoch = ++this.#epoch;
    this.#buffering = true;
    this.#initialDone = false;
    this.#active = false;
    this.#resyncing = false;
    this.#resyncWanted = false;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#activation = { resolve, promise };
    if (!this.#network.online()) this.#state.connectionEvent({ type: 'offline', at: this.#now() });
    this.#cleanups.push(
      this.#network.subscribe((online) =>
        this.#state.connectionEvent({ type: online ? 'online' : 'offline', at: this.#now() }),
      ),
    );
    const channels = this.#fullSync.map(documentsChannel);
    this.#realtime
      .subscribe(channels, (event) => this.#onEvent(event), {
        onOpen: () => this.#onOpen(),
        onClose: () => this.#onClose(),
      })
      .then(
        (subscription) => {
          if (epoch === this.#epoch) this.#subscription = subscription;
          else void subscription.close();
        },
        () => {
          // The SDK keeps the subscription registered and reconnects by itself.
        },
      );
    void this.#followDetails();
    this.#scheduleTick();
    mark('sync-start');
    void this.#initialLoad(epoch);
    return () => this.stop();
  }

  /** Stops syncing: closes the subscription, drops queued events and timers. */
  stop(): void {
    if (!this.#running) return;
    this.#running = false;
    this.#epoch++;
    this.#queue = [];
    void this.#subscription?.close();
    this.#subscription = null;
    const details = this.#details;
    this.#details = null;
    if (details)
      this.#following = this.#following.then(() => details.subscription.then((d) => d.close()));
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    for (const handle of this.#timerHandles) this.#timers.clearTimeout(handle);
    this.#timerHandles.clear();
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    this.#activation?.resolve();
  }

  #later(callback: () => void, ms: number): void {
    const epoch = this.#epoch;
    const handle = this.#timers.setTimeout(() => {
      this.#timerHandles.delete(handle);
      if (epoch === this.#epoch) callback();
    }, ms);
    this.#timerHandles.add(handle);
  }

  #scheduleTick(): void {
    this.#later(() => {
      this.#state.tick(this.#now());
      this.#scheduleTick();
    }, this.#tickMs);
  }

  #retryDelay(): number {
    const delays = this.#retryDelays;
    return delays[Math.min(this.#failures++, delays.length - 1)] ?? 1_000;
  }

  // Realtime -----------------------------------------------------------------------------------

  /** Whether an event's document matters: notes, activity and attachments of tracked orders only. */
  readonly #wanted = (collection: SyncedCollection, doc: DocumentMeta): boolean =>
    !(DETAIL_SYNC as readonly string[]).includes(collection) ||
    this.#state.details[(doc as { orderId?: string }).orderId ?? ''] !== undefined;

  #onEvent(event: RealtimeEvent): void {
    if (!this.#running) return;
    // Details of orders no view tracks are dropped before they are converted (about half the
    // traffic: every workflow step writes an activity record).
    const change = changeFromEvent(event, this.#wanted);
    if (change === null) return;
    if (
      change.collection === 'orders' ||
      change.collection === 'products' ||
      change.collection === 'exports'
    )
      this.#coverage[change.collection].observe(change.record.updatedAt);
    this.#queue.push(change);
    this.#eventsAt = this.#now();
    if (!this.#buffering && this.#cancelFlush === null)
      this.#cancelFlush = this.#scheduler.schedule(() => {
        this.#cancelFlush = null;
        this.flush();
      });
  }

  #atRisk(): boolean {
    return this.#detailRisk || FULL_SYNC.some((c) => this.#coverage[c].riskFrom !== null);
  }

  #onOpen(): void {
    if (!this.#running) return;
    this.#active = true;
    const resync = this.#initialDone && this.#atRisk();
    this.#state.connectionEvent({ type: 'open', at: this.#now(), resync });
    this.#activation?.resolve();
    if (resync) void this.#resync(this.#epoch);
  }

  #onClose(): void {
    if (!this.#running) return;
    this.#active = false;
    this.#closes++;
    for (const collection of FULL_SYNC) this.#coverage[collection].closed();
    if (Object.keys(this.#state.details).length) this.#detailRisk = true;
    this.#state.connectionEvent({
      type: 'close',
      at: this.#now(),
      retryDelayMs: this.#realtime.nextRetryDelayMs(),
    });
  }

  /** Applies every queued change now, in one `set` (normally done once per frame). */
  flush(): void {
    if (this.#buffering) return;
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    const eventsAt = this.#eventsAt;
    this.#queue = [];
    this.#eventsAt = null;
    this.#state.applyRemote(batch, eventsAt === null ? undefined : { eventsAt });
  }

  // Reads ----------------------------------------------------------------------------------------

  /**
   * Reads pages from `pages`, converting each document (whole, or with `convert`); `onPage` gets
   * the changes and whether the subscription was active for the whole read (else what follows
   * may have been missed), and returns `false` to stop reading.
   */
  async #read(
    epoch: number | (() => boolean),
    collection: SyncedCollection,
    pages: AsyncGenerator<readonly DocumentMeta[]>,
    onPage: (changes: RemoteChange[], active: boolean) => void | boolean,
    convert: (doc: DocumentMeta) => RemoteChange = (doc) => changeFromDocument(collection, doc),
  ): Promise<void> {
    const alive = typeof epoch === 'number' ? () => epoch === this.#epoch : epoch;
    for (;;) {
      const closes = this.#closes;
      const wasActive = this.#active;
      const next = await pages.next();
      if (!alive()) {
        await pages.return(undefined);
        return;
      }
      if (next.done) return;
      const active = wasActive && this.#active && closes === this.#closes;
      if (onPage(next.value.map(convert), active) === false) {
        await pages.return(undefined);
        return;
      }
    }
  }

  #observePage(collection: FullSync, changes: readonly RemoteChange[], active: boolean): void {
    const coverage = this.#coverage[collection];
    for (const change of changes) coverage.observe(change.record.updatedAt);
    coverage.pageRead(active);
  }

  /**
   * The recent orders' time slices, newest first: `[from, to)` by `$createdAt` from `since`,
   * the newest open-ended (orders created while we read are in it, or come as events).
   */
  #recentSlices(since: number, now: number): { from: number; to: number | null }[] {
    const step = Math.max(1, (now - since) / this.#slices);
    return Array.from({ length: this.#slices }, (_, i) => ({
      from: i === this.#slices - 1 ? since : Math.round(now - (i + 1) * step),
      to: i === 0 ? null : Math.round(now - i * step),
    }));
  }

  /**
   * The first load. Orders: the list fields (see `ORDER_LIST_SELECT`) of those created in the
   * last `historyDays`, in time slices read at once, newest first within each and cut at
   * `maxOrders` overall, plus the open ones of any age; products and export jobs whole. The
   * newest orders are shown as soon as their first page is in, everything in one pass at the end.
   */
  async #initialLoad(epoch: number): Promise<void> {
    const store = this.#state;
    store.setLoad({ status: 'loading', loaded: 0, error: null });
    await Promise.race([
      this.#activation!.promise,
      new Promise<void>((resolve) => this.#later(resolve, this.#activationWaitMs)),
    ]);
    if (epoch !== this.#epoch) return;
    mark('snapshot-start');
    const now = this.#now();
    const since = now - this.#historyDays * DAY;
    const slices = this.#recentSlices(since, now);
    /** Recent orders per slice (newest slice first), each newest first. */
    const recent: Order[][] = slices.map(() => []);
    const olderOpen: Order[] = [];
    const products: Product[] = [];
    const exports: ExportJob[] = [];
    let loaded = 0;
    let shown = false;
    let failed = false;
    const alive = () => !failed && epoch === this.#epoch;
    const max = this.#maxOrders;
    /** Whether slice `i` and the newer ones hold the newest `max` orders already. */
    const full = (i: number) => {
      let count = 0;
      for (let j = 0; j <= i; j++) count += recent[j]!.length;
      return count >= max;
    };
    let newestIn!: () => void;
    const newestPage = new Promise<void>((resolve) => (newestIn = resolve));
    const ordersPage = (into: Order[]) => (changes: RemoteChange[], active: boolean) => {
      this.#observePage('orders', changes, active);
      for (const change of changes) into.push(change.record as Order);
      loaded += changes.length;
      this.#state.setLoad({ loaded });
      if (into !== recent[0]) return;
      newestIn();
      if (!shown && this.#state.orders.size === 0) {
        // The newest orders are shown at once; everything comes in one pass at the end.
        shown = true;
        this.#state.loadSnapshot({ orders: recent.flat() });
        mark('snapshot-shown');
      }
    };
    const collect =
      (collection: 'products' | 'exports', into: unknown[]) =>
      (changes: RemoteChange[], active: boolean) => {
        this.#observePage(collection, changes, active);
        for (const change of changes) into.push(change.record);
      };
    const pages = (collection: FullSync, queries: string[], max?: number, first?: number) =>
      cursorPages(this.#snapshot, collection, queries, {
        pageSize: this.#pageSize,
        ...(max === undefined ? {} : { max }),
        ...(first === undefined ? {} : { firstPageSize: first }),
      });
    const listed = (doc: DocumentMeta): RemoteChange => ({
      collection: 'orders',
      kind: 'upsert',
      record: listOrderFromDocument(doc),
    });
    const select = Query.select([...ORDER_LIST_SELECT]);
    try {
      const readSlice = (i: number) =>
        this.#read(
          alive,
          'orders',
          pages(
            'orders',
            [
              Query.greaterThanEqual('$createdAt', isoTime(slices[i]!.from)),
              ...(slices[i]!.to === null
                ? []
                : [Query.lessThan('$createdAt', isoTime(slices[i]!.to!))]),
              Query.orderDesc('$createdAt'),
              select,
            ],
            max,
            // The newest page is small: it is shown at once, and the rest waits for it.
            i === 0 ? FIRST_PAGE : undefined,
          ),
          (changes, active) => {
            ordersPage(recent[i]!)(changes, active);
            return !full(i);
          },
          listed,
        );
      const newest = readSlice(0);
      void newest.then(newestIn, newestIn);
      // The rest starts once the newest page is in: the first observation sets the watermark a
      // resync would start from (an older one, from an older slice, would widen it).
      const rest = newestPage.then(() =>
        Promise.all([
          ...slices.slice(1).map((_, i) => readSlice(i + 1)),
          this.#read(
            alive,
            'orders',
            pages('orders', [
              Query.equal('status', [...ALWAYS_LOADED]),
              Query.lessThan('$createdAt', isoTime(since)),
              Query.orderAsc('$createdAt'),
              select,
            ]),
            ordersPage(olderOpen),
            listed,
          ),
          this.#fullSync.includes('products') &&
            this.#read(
              alive,
              'products',
              pages('products', [Query.orderAsc('$createdAt')]),
              collect('products', products),
            ),
          this.#fullSync.includes('exports') &&
            this.#read(
              alive,
              'exports',
              pages('exports', [
                Query.greaterThanEqual('$createdAt', isoTime(since)),
                Query.orderDesc('$createdAt'),
              ]),
              collect('exports', exports),
            ),
        ]),
      );
      await Promise.all([newest, rest]).catch((error: unknown) => {
        failed = true;
        throw error;
      });
    } catch (error) {
      if (epoch !== this.#epoch) return;
      this.#state.setLoad({ status: 'error', error: errorInfo(error) });
      this.#later(() => void this.#initialLoad(epoch), this.#retryDelay());
      return;
    }
    if (epoch !== this.#epoch) return;
    mark('snapshot-fetched');
    this.#failures = 0;
    const orders = recent.flat();
    if (orders.length > max) orders.length = max;
    for (const order of olderOpen) orders.push(order);
    this.#state.loadSnapshot({ orders, products, exports }, { replace: shown });
    this.#buffering = false;
    this.flush();
    mark('snapshot-applied');
    this.#initialDone = true;
    this.#state.setLoad({ status: 'ready', loaded: this.#state.orders.size, error: null });
    if (this.#atRisk()) {
      if (this.#active) void this.#resync(epoch);
    } else this.#state.connectionEvent({ type: 'synced', at: this.#now() });
  }

  async #resync(epoch: number): Promise<void> {
    if (epoch !== this.#epoch) return;
    if (this.#resyncing) {
      this.#resyncWanted = true;
      return;
    }
    this.#resyncing = true;
    try {
      do {
        this.#resyncWanted = false;
        this.#state.connectionEvent({ type: 'resync', at: this.#now() });
        const from: Partial<Record<FullSync, number>> = {};
        for (const collection of this.#fullSync) {
          const start = this.#coverage[collection].take();
          if (start !== null) from[collection] = start;
        }
        const details = this.#detailRisk;
        this.#detailRisk = false;
        const restore = () => {
          for (const collection of this.#fullSync) {
            const start = from[collection];
            if (start !== undefined) this.#coverage[collection].restore(start);
          }
          if (details) this.#detailRisk = true;
        };
        try {
          for (const collection of this.#fullSync) {
            const start = from[collection];
            if (start === undefined) continue;
            await this.#read(
              epoch,
              collection,
              deltaPages(this.#snapshot, collection, start - this.#margin, [], this.#pageSize),
              (changes, active) => {
                this.#observePage(collection, changes, active);
                this.#queue.push(...changes);
                this.flush();
              },
            );
            if (epoch !== this.#epoch) return;
          }
          if (details)
            for (const orderId of Object.keys(this.#state.details))
              await this.#loadDetail(epoch, orderId);
        } catch {
          restore();
          if (epoch !== this.#epoch) return;
          this.#later(() => void this.#resync(epoch), this.#retryDelay());
          return;
        }
        this.#failures = 0;
      } while (epoch === this.#epoch && this.#active && (this.#resyncWanted || this.#atRisk()));
      if (epoch === this.#epoch && this.#active)
        this.#state.connectionEvent({ type: 'synced', at: this.#now() });
    } finally {
      this.#resyncing = false;
    }
  }

  // Details and single orders ----------------------------------------------------------------

  /** Tracks an order's notes, activity and attachments (loads them, keeps them live); returns the release. */
  loadOrderDetail(orderId: string): () => void {
    const first = this.#state.details[orderId] === undefined;
    this.#state.trackOrderDetail(orderId);
    if (first && this.#running) {
      const epoch = this.#epoch;
      const load = () => this.#loadDetail(epoch, orderId);
      void this.#followDetails()
        .then(load, () => {
          // Not followed: what the read misses comes with the next resync.
          this.#detailRisk = true;
          return load();
        })
        .catch(() => {});
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#state.untrackOrderDetail(orderId);
      if (this.#state.details[orderId] === undefined) void this.#followDetails();
    };
  }

  /**
   * Points the details subscription at the tracked orders (opened with the first, closed with
   * the last); resolves once the server applies it, so a read that starts then misses nothing.
   */
  #followDetails(): Promise<void> {
    const step = async () => {
      if (!this.#running) return;
      const ids = Object.keys(this.#state.details).sort();
      const queries = ids.length > MAX_FOLLOWED_ORDERS ? [] : [Query.equal('orderId', ids)];
      const key = JSON.stringify(queries);
      const current = this.#details;
      if (ids.length === 0) {
        this.#details = null;
        if (current) await (await current.subscription).close();
      } else if (!current) {
        const subscription = this.#realtime.subscribe(
          DETAIL_SYNC.map(documentsChannel),
          (event) => this.#onEvent(event),
          IGNORE_CONNECTION,
          queries,
        );
        this.#details = { subscription, key };
        await subscription;
      } else if (current.key !== key) {
        current.key = key;
        await (await current.subscription).update(queries);
      }
    };
    const next = this.#following.then(step, step);
    this.#following = next.catch(() => {});
    return next;
  }

  async #loadDetail(epoch: number, orderId: string): Promise<void> {
    if (epoch !== this.#epoch || !this.#state.details[orderId]) return;
    try {
      for (const collection of DETAIL_SYNC) {
        await this.#read(
          epoch,
          collection,
          cursorPages(
            this.#snapshot,
            collection,
            [Query.equal('orderId', orderId), Query.orderAsc('$createdAt')],
            { pageSize: this.#pageSize },
          ),
          (changes, active) => {
            if (!active) this.#detailRisk = true;
            this.#queue.push(...changes);
          },
        );
      }
      this.flush();
      if (this.#state.details[orderId]) this.#state.setOrderDetailStatus(orderId, 'ready');
    } catch (error) {
      this.flush();
      if (this.#state.details[orderId])
        this.#state.setOrderDetailStatus(orderId, 'error', errorInfo(error));
      throw error;
    }
  }

  /** Reads one order again and applies it (after a conflict, so the view shows who won). */
  async refreshOrder(orderId: string): Promise<void> {
    const page = await this.#snapshot.listDocuments('orders', [
      Query.equal('$id', orderId),
      Query.limit(1),
    ]);
    const doc = page.documents[0];
    if (!doc) return;
    this.#coverage.orders.observe(Date.parse(doc.$updatedAt));
    this.#queue.push({
      collection: 'orders',
      kind: 'upsert',
      record: recordFromDocument('orders', doc),
    });
    this.flush();
  }
}
