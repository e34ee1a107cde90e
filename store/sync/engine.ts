import { Query } from 'appwrite';
import type { DocumentMeta, Order } from '../../domain/order.ts';
import { toAppError } from '../appwrite/errors.ts';
import type { RemoteChange, SyncedCollection } from '../records/changes.ts';
import type { WholeSet } from '../records/records.ts';
import type { DeskState } from '../state.ts';
import type { DeskChange } from '../transactions.ts';
import {
  drain,
  runSliced,
  type Job,
  type SliceScheduler,
  type SlicedRun,
} from '../views/sliced.ts';
import type { Chunk, EntityTable } from '../records/entity-table.ts';
import { nextConnection, type ConnectionEvent } from './connection.ts';
import { Coverage } from './coverage.ts';
import {
  changeFromDocument,
  changeFromEvent,
  channelOf,
  listOrderFromDocument,
  recordFromDocument,
} from './documents.ts';
import { HISTORY_DAYS, MAX_ORDERS, windowStart } from './desk-window.ts';
import { planInitialLoad, type FullSyncSet, type PlannedRead } from './load-plan.ts';
import { readSnapshot } from './load-reader.ts';
import { mark, markLatest, measureLatest, timelineNow } from './marks.ts';
import { cursorPages, deltaPages, offsetPages, PAGE_SIZE } from './pager.ts';
import {
  INITIAL_PHASE,
  RETRY_DELAYS_MS,
  retryDelay,
  stepSync,
  type SyncEffect,
  type SyncInput,
} from './phases.ts';
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
import {
  browserHide,
  pageOf,
  readKeptFirstScreens,
  readKeptSnapshot,
  readServerSnapshot,
  SNAPSHOT_VERSION,
  type PersistOptions,
  type RestoredSnapshot,
} from './persist.ts';
import { PAGE_CHUNKS, SnapshotEncoder, type Segment } from './snapshot-codec.ts';
import { firstScreenOf, type StoredFirstScreen } from './first-screen.ts';
import { agedOutOrders, TRIM_EVERY_MS } from './window-trim.ts';
import { DEFAULT_ORDER_VIEW, orderViewKey } from '../views/order-views.ts';
import {
  detailStatus,
  trackDetail,
  untrackDetail,
  type LoadState,
  type SweepStatus,
} from './sync-state.ts';
import {
  byIdQueries,
  idBatches,
  INITIAL_SWEEP,
  stepSweep,
  sweepReads,
  sweepRemovals,
  unlistedOrders,
  type SweepInput,
} from './sweep.ts';

/** Sets kept complete by delta reads by `$updatedAt` (never hard-deleted). */
type DeltaSet = 'orders' | 'products' | 'exports';
/** A set loaded whole and kept complete. */
type FullSet = DeltaSet | WholeSet;

/** Sets loaded per order, on demand. */
const DETAIL_SYNC = ['notes', 'activity', 'attachments'] as const;

/**
 * Details are followed with a realtime query naming the tracked orders (the server sends only
 * theirs); past this many, with none (every detail event, most dropped on arrival).
 */
const MAX_FOLLOWED_ORDERS = 100;

const IGNORE_CONNECTION: RealtimeHandlers = { onOpen: () => {}, onClose: () => {} };

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
  /** Page size of the collections' reads (members and presences are read in one page). */
  pageSize?: number;
  /** The recent orders are read in this many time slices at once (by `$createdAt`). */
  slices?: number;
  /** How long the first load waits for the subscription before reading anyway. */
  activationWaitMs?: number;
  /** How often metrics are republished (their per-minute series moves with time). */
  tickMs?: number;
  /** How often the closed orders that aged out of the window are dropped (`window-trim.ts`). */
  trimEveryMs?: number;
  /** Delay before retrying a failed read, by attempt (the last value repeats). */
  retryDelaysMs?: readonly number[];
  /**
   * The sets besides `orders` that are loaded whole and kept complete (default: products,
   * export jobs, the team's members and the presences; staff can read no export jobs).
   */
  fullSync?: readonly FullSyncSet[];
  /**
   * Keep the orders between visits (`persist.ts`): a start with a snapshot of this version
   * paints from it and catches up by a delta read, showing "Resyncing" until live.
   */
  persist?: PersistOptions;
  /**
   * Where the id sweep's pass over the held orders runs in slices of a few ms (the store's
   * `slices`, handed over by `createDeskStore`); without it, at once.
   */
  sliceScheduler?: SliceScheduler | null;
  /**
   * Where background work runs in slices: a snapshot write's encoding and the id sweep's pass
   * (idle periods in the app, `browserIdleSlices`); default: {@link sliceScheduler}.
   */
  backgroundSlices?: SliceScheduler | null;
}

/** What the engine writes to: the store's state and its one commit. */
export interface SyncTarget {
  getState(): DeskState;
  commit(change: DeskChange): void;
}

/**
 * The segments of `table`'s pages that hold a chunk other than the one `written` (all of them
 * without it), as a job yielding after each chunk encoded (a page is 2,048 orders: tens of ms on
 * a busy core); an encoding error is its result, not thrown (a job runs in slices where nobody
 * could catch it).
 */
function* changedSegments(
  table: EntityTable<Order>,
  encoder: SnapshotEncoder,
  written: readonly Chunk<Order>[] | null,
): Job<Map<number, Segment> | Error> {
  const segments = new Map<number, Segment>();
  try {
    for (let p = 0; p * PAGE_CHUNKS < table.chunkCount; p++) {
      const page = pageOf(table, p);
      if (written && page.every((chunk, i) => written[p * PAGE_CHUNKS + i] === chunk)) continue;
      const encoding = encoder.page();
      for (const chunk of page) {
        const started = timelineNow();
        encoding.add(chunk);
        measureLatest('snapshot-encode', started);
        yield;
      }
      const started = timelineNow();
      segments.set(p, encoding.finish());
      measureLatest('snapshot-encode', started);
    }
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  return segments;
}

/**
 * Keeps the store in sync with the backend: subscribe first and buffer; load the snapshot with
 * cursor pagination; replay the buffer; go live. On every reconnect: `reconnecting` (with the
 * SDK's retry delay), then `resyncing` (a delta read by `$updatedAt` from where changes may
 * have been missed, see {@link Coverage}; the members and presences, which the backend deletes
 * for good, are read again whole), then `live`. Realtime events are queued and applied once per
 * frame in one `set`; applying is idempotent, so duplicates, reordering and overlap between
 * events and reads are harmless. When to do what is decided by the machine of `phases.ts`.
 */
export class SyncEngine {
  readonly #store: SyncTarget;
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
  readonly #trimEveryMs: number;
  readonly #retryDelays: readonly number[];
  readonly #fullSync: readonly FullSyncSet[];
  readonly #persist: PersistOptions | null;
  readonly #sliceScheduler: SliceScheduler | null;
  readonly #backgroundSlices: SliceScheduler | null;
  /** The key of the table view the orders table shows (its first screen is kept with a write). */
  #shownView: string | null = null;

  #phase = INITIAL_PHASE;
  #queue: RemoteChange[] = [];
  #eventsAt: number | null = null;
  #cancelFlush: (() => void) | null = null;
  /** Changes missed while a detail was read without an active subscription. */
  #detailRisk = false;
  #coverage: Record<FullSet, Coverage> = {
    orders: new Coverage(),
    products: new Coverage(),
    exports: new Coverage(),
    members: new Coverage(),
    presence: new Coverage(),
  };
  /** While a whole set is read again: its changes since the read began, to apply after it. */
  #replay: Partial<Record<WholeSet, RemoteChange[]>> = {};
  #activation: { resolve: () => void; promise: Promise<void> } | null = null;
  #subscription: RealtimeSubscription | null = null;
  /** The subscription to the tracked orders' details, and the key of the queries it was given. */
  #details: { subscription: Promise<RealtimeSubscription>; key: string } | null = null;
  /** Changes of the details subscription, one at a time. */
  #following: Promise<void> = Promise.resolve();
  #cleanups: (() => void)[] = [];
  #timerHandles = new Set<unknown>();
  /** This run started from a persisted snapshot: the load reads no orders (a delta does). */
  #restored = false;
  /** A snapshot write is scheduled. */
  #saveScheduled = false;
  /** Encodes the snapshot's segments (its dictionaries continue those of the kept snapshot). */
  #encoder: SnapshotEncoder | null = null;
  /** The chunks kept in storage, by index (null: unknown, the next write replaces them all). */
  #written: Chunk<Order>[] | null = null;
  /** The snapshot write under way: its encoding job, run in slices. */
  #saving: { job: Job<Map<number, Segment> | Error>; run: SlicedRun; settle: () => void } | null =
    null;
  /** The store's orders changed since the last snapshot write. */
  #dirty = false;
  /** A first write waited for received events: it is tried again once they are applied. */
  #saveAfterFlush = false;
  /** When an id sweep is owed, and whether one runs (`sweep.ts`). */
  #sweepState = INITIAL_SWEEP;
  /** While a sweep runs: the orders a remote change touched since it began (never removed). */
  #sweepTouched: Set<string> | null = null;
  /** The sweep's pass over the held orders, while it runs in slices. */
  #sweepPass: SlicedRun | null = null;
  /** The window trim's pass over the held orders, while it runs in slices (`window-trim.ts`). */
  #trimPass: SlicedRun | null = null;

  constructor(store: SyncTarget, options: SyncOptions, now: () => number) {
    this.#store = store;
    this.#realtime = options.realtime;
    this.#snapshot = options.snapshot;
    this.#scheduler = options.scheduler ?? defaultFrameScheduler();
    this.#timers = options.timers ?? systemTimers;
    this.#network = options.network ?? browserNetwork();
    this.#now = now;
    this.#margin = options.resyncMarginMs ?? 5_000;
    this.#historyDays = options.historyDays ?? HISTORY_DAYS;
    this.#maxOrders = options.maxOrders ?? MAX_ORDERS;
    this.#pageSize = options.pageSize ?? PAGE_SIZE;
    this.#slices = Math.max(1, Math.floor(options.slices ?? 4));
    this.#activationWaitMs = options.activationWaitMs ?? 2_000;
    this.#tickMs = options.tickMs ?? 5_000;
    this.#trimEveryMs = options.trimEveryMs ?? TRIM_EVERY_MS;
    this.#retryDelays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.#fullSync = options.fullSync ?? ['products', 'exports', 'members', 'presence'];
    this.#persist = options.persist ?? null;
    this.#sliceScheduler = options.sliceScheduler ?? null;
    this.#backgroundSlices = options.backgroundSlices ?? this.#sliceScheduler;
  }

  get #state(): DeskState {
    return this.#store.getState();
  }

  /** The sets loaded whole: orders and those of `fullSync`. */
  get #fullSets(): FullSet[] {
    return ['orders', ...this.#fullSync];
  }

  /** Whether the engine is running (between {@link start} and its cleanup). */
  get running(): boolean {
    return this.#phase.stage !== 'stopped';
  }

  // The machine ---------------------------------------------------------------------------------

  #step(input: SyncInput): void {
    const { phase, effects } = stepSync(this.#phase, input, this.#retryDelays);
    this.#phase = phase;
    for (const effect of effects) this.#do(effect, phase.run);
  }

  #do(effect: SyncEffect, run: number): void {
    switch (effect.type) {
      case 'load':
        void this.#initialLoad(run);
        return;
      case 'load-later':
        this.#later(() => void this.#initialLoad(run), effect.delayMs);
        return;
      case 'go-live':
        this.flush();
        return;
      case 'resync':
        void this.#resync(run);
        return;
      case 'resync-later':
        this.#later(() => this.#step({ type: 'resync-wanted' }), effect.delayMs);
        return;
      case 'synced':
        this.#connection({ type: 'synced', at: this.#now() });
        // Nothing written yet (a cold load): in the first idle period, once its table is painted.
        if (this.#written === null) this.#saveWhenIdle();
        else this.#saveSoon();
        this.#sweepStep({ type: 'synced' });
        return;
    }
  }

  #atRisk(): boolean {
    return this.#detailRisk || this.#fullSets.some((c) => this.#coverage[c].riskFrom !== null);
  }

  #connection(event: ConnectionEvent): void {
    const current = this.#state.connection;
    const connection = nextConnection(current, event);
    if (connection !== current) this.#store.commit({ sync: { connection } });
  }

  #setLoad(load: Partial<LoadState>): void {
    this.#store.commit({ sync: { load: { ...this.#state.load, ...load } } });
  }

  // Lifecycle -----------------------------------------------------------------------------------

  /** Starts syncing (again after a stop: a fresh load); returns the cleanup (idempotent). */
  start(): () => void {
    if (this.running) return () => this.stop();
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#activation = { resolve, promise };
    const run = this.#phase.run + 1;
    this.#restored = false;
    this.#dirty = false;
    this.#saveScheduled = false;
    this.#saveAfterFlush = false;
    this.#sweepState = INITIAL_SWEEP;
    this.#encoder = null;
    this.#written = null;
    if (this.#persist) {
      const save = () => void this.saveSnapshot({ urgent: true });
      this.#cleanups.push((this.#persist.onHide ?? browserHide)(save));
    }
    if (!this.#network.online()) this.#connection({ type: 'offline', at: this.#now() });
    this.#cleanups.push(
      this.#network.subscribe((online) =>
        this.#connection({ type: online ? 'online' : 'offline', at: this.#now() }),
      ),
    );
    const channels = this.#fullSets.map(channelOf);
    this.#realtime
      .subscribe(channels, (event) => this.#onEvent(event), {
        onOpen: () => this.#onOpen(),
        onClose: () => this.#onClose(),
      })
      .then(
        (subscription) => {
          if (run === this.#phase.run) this.#subscription = subscription;
          else void subscription.close();
        },
        () => {
          // The SDK keeps the subscription registered and reconnects by itself.
        },
      );
    mark('sync-start');
    this.#step({ type: 'start' });
    void this.#followDetails();
    this.#scheduleTick();
    this.#scheduleTrim();
    return () => this.stop();
  }

  /** Stops syncing: closes the subscription, drops queued events and timers. */
  stop(): void {
    if (!this.running) return;
    this.#step({ type: 'stop' });
    this.#queue = [];
    this.#replay = {};
    void this.#subscription?.close();
    this.#subscription = null;
    const details = this.#details;
    this.#details = null;
    if (details)
      this.#following = this.#following.then(() => details.subscription.then((d) => d.close()));
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    this.#sweepStep({ type: 'stop' });
    this.#sweepPass?.cancel();
    this.#sweepPass = null;
    this.#trimPass?.cancel();
    this.#trimPass = null;
    this.#saving?.run.cancel();
    this.#saving?.settle();
    this.#saving = null;
    this.#sweepTouched = null;
    if (this.#state.sweep.running) this.#setSweep({ running: false });
    for (const handle of this.#timerHandles) this.#timers.clearTimeout(handle);
    this.#timerHandles.clear();
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    this.#activation?.resolve();
  }

  #later(callback: () => void, ms: number): void {
    const run = this.#phase.run;
    const handle = this.#timers.setTimeout(() => {
      this.#timerHandles.delete(handle);
      if (run === this.#phase.run) callback();
    }, ms);
    this.#timerHandles.add(handle);
  }

  #scheduleTick(): void {
    this.#later(() => {
      this.#state.tick(this.#now());
      this.#scheduleTick();
    }, this.#tickMs);
  }

  // Realtime -----------------------------------------------------------------------------------

  /** Whether an event's document matters: notes, activity and attachments of tracked orders only. */
  readonly #wanted = (collection: SyncedCollection, doc: DocumentMeta): boolean =>
    !(DETAIL_SYNC as readonly string[]).includes(collection) ||
    this.#state.details[(doc as { orderId?: string }).orderId ?? ''] !== undefined;

  #onEvent(event: RealtimeEvent): void {
    if (!this.running) return;
    // Details of orders no view tracks are dropped before they are converted (about half the
    // traffic: every workflow step writes an activity record).
    const change = changeFromEvent(event, this.#wanted);
    if (change === null) return;
    const coverage = this.#coverage[change.collection as FullSet] as Coverage | undefined;
    coverage?.observe(change.record.updatedAt);
    this.#replay[change.collection as WholeSet]?.push(change);
    this.#queue.push(change);
    this.#eventsAt = this.#now();
    if (this.#phase.stage === 'running' && this.#cancelFlush === null)
      this.#cancelFlush = this.#scheduler.schedule(() => {
        this.#cancelFlush = null;
        this.flush();
      });
  }

  #onOpen(): void {
    if (!this.running) return;
    const atRisk = this.#atRisk();
    const resync = this.#phase.stage === 'running' && atRisk;
    this.#connection({ type: 'open', at: this.#now(), resync });
    this.#activation?.resolve();
    this.#sweepStep({ type: 'open', at: this.#now() });
    this.#step({ type: 'open', atRisk });
  }

  #onClose(): void {
    if (!this.running) return;
    for (const collection of this.#fullSets) this.#coverage[collection].closed();
    if (Object.keys(this.#state.details).length) this.#detailRisk = true;
    this.#sweepStep({ type: 'close', at: this.#now() });
    this.#step({ type: 'close' });
    this.#connection({
      type: 'close',
      at: this.#now(),
      retryDelayMs: this.#realtime.nextRetryDelayMs(),
    });
  }

  /** Applies every queued change now, in one `set` (normally done once per frame). */
  flush(): void {
    if (this.#phase.stage !== 'running') return;
    this.#cancelFlush?.();
    this.#cancelFlush = null;
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    const eventsAt = this.#eventsAt;
    this.#queue = [];
    this.#eventsAt = null;
    this.#state.applyRemote(batch, eventsAt === null ? undefined : { eventsAt });
    const touched = this.#sweepTouched;
    if (touched)
      for (const change of batch) if (change.collection === 'orders') touched.add(change.record.id);
    if (batch.some((change) => change.collection === 'orders')) {
      this.#dirty = true;
      this.#saveSoon();
    }
    if (this.#saveAfterFlush) {
      this.#saveAfterFlush = false;
      this.#saveWhenIdle();
    }
  }

  // Persistence ----------------------------------------------------------------------------------

  /**
   * The table view the orders table shows now (`orderViewKey`): the first screen kept with the
   * next snapshot write is that view's (the default view's until one is shown). A new one is
   * written soon, so that a returning visit finds the view the person last had.
   */
  showTableView(key: string): void {
    if (key === this.#shownView) return;
    this.#shownView = key;
    if (!this.#persist || this.#written === null) return;
    this.#dirty = true;
    this.#saveSoon();
  }

  /**
   * The first screens at the start of a write: the default view's (the desk opened from a link
   * or the menu) and the shown view's when it is another and maintained.
   */
  #firstScreens(table: EntityTable<Order>, watermark: number, savedAt: number) {
    const state = this.#state;
    const defaultKey = orderViewKey(DEFAULT_ORDER_VIEW);
    const all = state.orderViews[defaultKey];
    if (all === undefined) return [];
    const screens: StoredFirstScreen[] = [];
    for (const view of new Set([defaultKey, this.#shownView ?? defaultKey])) {
      const entry = state.orderViews[view];
      if (entry === undefined) continue;
      try {
        screens.push(
          firstScreenOf({
            version: this.#persist?.version ?? SNAPSHOT_VERSION,
            savedAt,
            watermark,
            orders: table,
            view,
            index: entry.index,
            total: all.index.size,
          }),
        );
      } catch {
        // not kept: that view paints once the snapshot is restored
      }
    }
    return screens;
  }

  /** Schedules a snapshot write (at most one per `throttleMs`). */
  #saveSoon(): void {
    if (!this.#persist || this.#saveScheduled || !this.#dirty) return;
    this.#saveScheduled = true;
    this.#later(() => {
      this.#saveScheduled = false;
      void this.saveSnapshot();
    }, this.#persist.throttleMs ?? 5_000);
  }

  /**
   * A first write (nothing kept yet) in the page's next idle period (with the background slices;
   * at once without them), whatever throttled write is also due.
   */
  #saveWhenIdle(): void {
    if (!this.#persist) return;
    const run = this.#phase.run;
    const save = () => {
      if (run === this.#phase.run) void this.saveSnapshot();
    };
    if (this.#backgroundSlices) this.#backgroundSlices.later(save);
    else this.#later(save, 0);
  }

  /**
   * Writes the orders snapshot now, if it is complete up to a watermark: only while live (no
   * gap to catch up, no event received and not yet applied), else at the next chance. The table
   * as it is now (a version never changes) is encoded in slices, only the chunks that changed
   * since the last write, then written with its watermark; events applied meanwhile make the next
   * write. A write due while one is under way is put off by the throttle again. `urgent` (the
   * page is being hidden or left): at once, without a turn of the event loop, finishing a write
   * under way first. Resolves with whether it wrote.
   */
  async saveSnapshot(options: { urgent?: boolean } = {}): Promise<boolean> {
    const persist = this.#persist;
    const urgent = options.urgent === true;
    if (!persist) return false;
    if (this.#saving) {
      if (urgent) {
        this.#saving.run.cancel();
        this.#saving.settle();
      } else this.#saveSoon();
      return false;
    }
    if (!this.#dirty) return false;
    const coverage = this.#coverage.orders;
    const blocked =
      this.#phase.stage !== 'running' ||
      this.#phase.resync !== 'idle' ||
      coverage.riskFrom !== null ||
      coverage.watermark === null ||
      this.#state.connection.status !== 'live';
    if (blocked || this.#queue.length !== 0) {
      // Received events are applied within a frame: a first write (nothing kept) tries again then.
      if (!blocked && this.#written === null) this.#saveAfterFlush = true;
      else this.#saveSoon();
      return false;
    }
    this.#dirty = false;
    const started = timelineNow();
    const table = this.#state.orders;
    const watermark = coverage.watermark;
    const savedAt = this.#now();
    const firstScreens = this.#firstScreens(table, watermark, savedAt);
    // Counted with the pages encoded (its own piece of main-thread work, a chunk's worth).
    measureLatest('snapshot-encode', started);
    const encoder = (this.#encoder ??= new SnapshotEncoder());
    const written = this.#written;
    const replace = written === null || written.length > table.chunkCount;
    const job = changedSegments(table, encoder, replace ? null : written);
    let hurry = urgent;
    const segments = await new Promise<Map<number, Segment> | Error | null>((resolve) => {
      const saving = {
        job,
        run: runSliced(job, resolve, urgent ? null : this.#backgroundSlices),
        // Finishes the job now (the page is being left), or gives up (stopped).
        settle: () => {
          hurry = true;
          resolve(this.running ? drain(job) : null);
        },
      };
      if (!saving.run.finished) this.#saving = saving;
    });
    this.#saving = null;
    if (segments === null || segments instanceof Error) return false;
    this.#written = null;
    try {
      await persist.storage.write(persist.key, {
        header: {
          version: persist.version ?? SNAPSHOT_VERSION,
          savedAt,
          watermark,
          chunks: table.chunkCount,
          dictionaries: encoder.dictionaries(),
        },
        segments,
        replace,
        urgent: hurry,
        firstScreens,
      });
      this.#written = Array.from({ length: table.chunkCount }, (_, c) => table.chunkAt(c));
      measureLatest('snapshot-write', started);
      markLatest('snapshot-saved');
      return true;
    } catch {
      // Refused (another write under way) or storage full: what is kept stays the last write
      // (or nothing: the next visit loads cold), and these orders are the next write's.
      this.#dirty = true;
      return false;
    }
  }

  /**
   * Reads the persisted snapshot and, when it is of this version, shows its orders with the
   * connection "Resyncing": the orders are at risk from its watermark, so the first catch-up
   * reads what changed since (less the margin). Another version or an unreadable one is deleted.
   */
  async #restore(run: number): Promise<boolean> {
    const persist = this.#persist;
    if (!persist || this.#state.orders.size !== 0) return false;
    const version = persist.version ?? SNAPSHOT_VERSION;
    const prefetched = persist.prefetched;
    const same = prefetched && prefetched.key === persist.key && prefetched.version === version;
    const screensAhead = same ? prefetched.takeFirstScreens() : null;
    // The first screens are read on their own, before the snapshot, and shown while it is read
    // and decoded (its read starts once one is painted).
    const screens = await (screensAhead ??
      readKeptFirstScreens(persist.storage, persist.key, version));
    if (screens.length > 0 && run === this.#phase.run && this.#state.orders.size === 0) {
      this.#store.commit({ sync: { firstScreens: screens } });
      this.#connection({ type: 'restored', at: this.#now() });
      mark('first-screen');
      await new Promise<void>((painted) => this.#scheduler.schedule(painted));
    }
    const ahead = same ? prefetched.take() : null;
    const read: Promise<RestoredSnapshot | null> = (
      ahead ?? readKeptSnapshot(persist.storage, persist.key, version, this.#sliceScheduler)
    ).then((r) => r.restored);
    let saved: RestoredSnapshot | null;
    try {
      saved = await read;
      if (saved === null) await persist.storage.del(persist.key);
    } catch {
      saved = null;
    }
    // Nothing kept here (a first visit on this device): the desk's server-kept snapshot, if any.
    const kept = saved !== null;
    if (!kept && persist.serverSnapshot && run === this.#phase.run) {
      saved = await readServerSnapshot(persist.serverSnapshot, version, this.#sliceScheduler);
    }
    if (run !== this.#phase.run || saved === null || this.#state.orders.size !== 0) {
      if (this.#state.firstScreens.length > 0) this.#store.commit({ sync: { firstScreens: [] } });
      return false;
    }
    this.#state.loadSnapshot({ orders: saved.orders });
    // What storage holds is this table: a write puts only the chunks that change from here.
    if (kept && this.#state.orders === saved.orders) {
      this.#encoder = saved.encoder;
      const table = saved.orders;
      this.#written = Array.from({ length: table.chunkCount }, (_, c) => table.chunkAt(c));
    }
    const coverage = this.#coverage.orders;
    coverage.observe(saved.watermark);
    coverage.restore(saved.watermark);
    this.#restored = true;
    this.#sweepStep({ type: 'restored' });
    this.#connection({ type: 'restored', at: this.#now() });
    this.#store.commit({
      sync: {
        load: {
          ...this.#state.load,
          status: 'ready',
          loaded: this.#state.orders.size,
          error: null,
        },
        firstScreens: [],
      },
    });
    mark('snapshot-restored');
    return true;
  }

  // Reads ----------------------------------------------------------------------------------------

  /**
   * Reads pages from `pages`, converting each document (whole, or with `convert`); `onPage` gets
   * the changes (none, once, for a read that found nothing) and whether the subscription was
   * active for the whole read (else what follows may have been missed), and returns `false` to
   * stop reading.
   */
  async #read(
    alive: () => boolean,
    collection: SyncedCollection,
    pages: AsyncGenerator<readonly DocumentMeta[]>,
    onPage: (changes: RemoteChange[], active: boolean) => void | boolean,
    convert: (doc: DocumentMeta) => RemoteChange | null = (doc) =>
      changeFromDocument(collection, doc),
  ): Promise<void> {
    let read = 0;
    for (;;) {
      const drops = this.#phase.drops;
      const wasActive = this.#phase.active;
      const next = await pages.next();
      if (!alive()) {
        await pages.return(undefined);
        return;
      }
      const active = wasActive && this.#phase.active && drops === this.#phase.drops;
      // Nothing at all is a read too: what changes after it must be caught up.
      if (next.done) {
        if (read === 0) onPage([], active);
        return;
      }
      read++;
      const changes: RemoteChange[] = [];
      for (const doc of next.value) {
        const change = convert(doc);
        if (change !== null) changes.push(change);
      }
      if (onPage(changes, active) === false) {
        await pages.return(undefined);
        return;
      }
    }
  }

  #observePage(collection: FullSet, changes: readonly RemoteChange[], active: boolean): void {
    const coverage = this.#coverage[collection];
    for (const change of changes) coverage.observe(change.record.updatedAt);
    const seen = this.#latestSeen();
    coverage.pageRead(active, seen === -Infinity ? undefined : seen);
  }

  #pagesOf(read: PlannedRead): AsyncGenerator<readonly DocumentMeta[]> {
    const options = {
      // Offset pages of a set that changes may skip a record: read small sets in one page.
      pageSize: read.paging === 'offset' ? PAGE_SIZE : this.#pageSize,
      ...(read.max === undefined ? {} : { max: read.max }),
      ...(read.firstPageSize === undefined ? {} : { firstPageSize: read.firstPageSize }),
    };
    return read.paging === 'cursor'
      ? cursorPages(this.#snapshot, read.collection, read.queries, options)
      : offsetPages(this.#snapshot, read.collection, read.queries, options);
  }

  /** The first load: the plan of `load-plan.ts`, carried out by `load-reader.ts`. */
  async #initialLoad(run: number): Promise<void> {
    if (!this.#restored) await this.#restore(run);
    if (run !== this.#phase.run) return;
    if (!this.#restored) this.#setLoad({ status: 'loading', loaded: 0, error: null });
    await Promise.race([
      this.#activation!.promise,
      new Promise<void>((resolve) => this.#later(resolve, this.#activationWaitMs)),
    ]);
    if (run !== this.#phase.run) return;
    mark('snapshot-start');
    const plan = this.#loadPlan();
    // Restored: the orders come from the catch-up's delta read, not from the load.
    if (this.#restored) plan.reads = plan.reads.filter((read) => read.collection !== 'orders');
    let shown = false;
    const asOf: Partial<Record<WholeSet, number>> = {};
    let snapshot;
    try {
      snapshot = await readSnapshot(plan, {
        read: (read, onPage, alive) => {
          // A set read whole replaces what is held: the events it received before this read
          // are in the read (and one of them could bring back what was deleted since).
          if (read.part === 'members' || read.part === 'presence') {
            this.#queue = this.#queue.filter((change) => change.collection !== read.part);
            asOf[read.part] = this.#wholeAsOf();
          }
          return this.#read(
            () => alive() && run === this.#phase.run,
            read.collection,
            this.#pagesOf(read),
            (changes, active) => {
              this.#observePage(read.collection as FullSet, changes, active);
              return onPage(changes.map((change) => change.record));
            },
            read.copy === 'list'
              ? (doc) => ({
                  collection: 'orders',
                  kind: 'upsert',
                  record: listOrderFromDocument(doc),
                })
              : undefined,
          );
        },
        newest: (orders) => {
          if (this.#state.orders.size !== 0) return;
          // The newest orders are shown at once; everything comes in one pass at the end.
          shown = true;
          this.#state.loadSnapshot({ orders: [...orders] });
          mark('snapshot-shown');
        },
        progress: (loaded) => this.#setLoad({ loaded }),
      });
    } catch (error) {
      if (run !== this.#phase.run) return;
      this.#setLoad({ status: 'error', error: toAppError(error) });
      this.#step({ type: 'load-failed' });
      return;
    }
    if (run !== this.#phase.run) return;
    mark('snapshot-fetched');
    this.#state.loadSnapshot(snapshot, { replace: shown, asOf });
    this.#dirty = true;
    this.#step({ type: 'loaded', atRisk: this.#atRisk() });
    mark('snapshot-applied');
    this.#setLoad({ status: 'ready', loaded: this.#state.orders.size, error: null });
  }

  /**
   * A time a whole read that starts now is known to cover: the latest change seen in any set (a
   * server time already past), less the margin for writes visible later than stamped (-∞ before
   * any).
   */
  #wholeAsOf(): number {
    return this.#latestSeen() - this.#margin;
  }

  /** The latest change seen in any set: a server time already past (-∞ before any). */
  #latestSeen(): number {
    let seen = -Infinity;
    for (const coverage of Object.values(this.#coverage))
      if (coverage.watermark !== null && coverage.watermark > seen) seen = coverage.watermark;
    return seen;
  }

  /** One catch-up pass: what may have been missed in each set, and the tracked details. */
  async #resync(run: number): Promise<void> {
    if (run !== this.#phase.run) return;
    this.#connection({ type: 'resync', at: this.#now() });
    const from: Partial<Record<FullSet, number>> = {};
    for (const collection of this.#fullSets) {
      const start = this.#coverage[collection].take();
      if (start !== null) from[collection] = start;
    }
    const details = this.#detailRisk;
    this.#detailRisk = false;
    const alive = () => run === this.#phase.run;
    try {
      for (const collection of this.#fullSets) {
        const start = from[collection];
        if (start === undefined) continue;
        if (collection === 'members' || collection === 'presence')
          await this.#readWhole(alive, collection);
        else
          await this.#read(
            alive,
            collection,
            deltaPages(this.#snapshot, collection, start - this.#margin, [], this.#pageSize),
            (changes, active) => {
              this.#observePage(collection, changes, active);
              this.#queue.push(...changes);
              this.flush();
            },
          );
        if (!alive()) return;
      }
      if (details)
        for (const orderId of Object.keys(this.#state.details))
          await this.#loadDetail(run, orderId);
    } catch {
      for (const collection of this.#fullSets) {
        const start = from[collection];
        if (start !== undefined) this.#coverage[collection].restore(start);
      }
      if (details) this.#detailRisk = true;
      if (alive()) this.#step({ type: 'resync-failed' });
      return;
    }
    if (alive()) this.#step({ type: 'resync-done', atRisk: this.#atRisk() });
  }

  /**
   * Reads a whole set again and puts it in place of what is held, then applies its changes that
   * came in meanwhile (a delete during the read must not be undone by the older read).
   */
  async #readWhole(alive: () => boolean, collection: WholeSet): Promise<void> {
    const asOf = this.#wholeAsOf();
    const replay: RemoteChange[] = [];
    this.#replay[collection] = replay;
    const records: unknown[] = [];
    try {
      await this.#read(
        alive,
        collection,
        offsetPages(this.#snapshot, collection, []),
        (changes, active) => {
          this.#observePage(collection, changes, active);
          for (const change of changes) records.push(change.record);
        },
      );
    } finally {
      delete this.#replay[collection];
    }
    if (!alive()) return;
    this.flush();
    this.#store.commit({
      replace: [{ collection, records, asOf } as NonNullable<DeskChange['replace']>[number]],
      remote: replay,
    });
  }

  // The id sweep ---------------------------------------------------------------------------------

  #setSweep(sweep: Partial<SweepStatus>): void {
    this.#store.commit({ sync: { sweep: { ...this.#state.sweep, ...sweep } } });
  }

  #sweepStep(input: SweepInput): void {
    const { state, start } = stepSweep(this.#sweepState, input);
    this.#sweepState = state;
    if (start) void this.#sweep(this.#phase.run);
  }

  /** Live, and nothing being caught up or owed. */
  #synced(): boolean {
    return (
      this.#phase.stage === 'running' &&
      this.#phase.resync === 'idle' &&
      this.#state.connection.status === 'live'
    );
  }

  /**
   * Tries `attempt` until it succeeds, waiting the engine's retry delays between failures
   * (growing, the last repeating). Rejects only once the run has ended.
   */
  async #retrying<T>(alive: () => boolean, attempt: () => Promise<T>): Promise<T> {
    for (let failures = 0; ; failures++) {
      try {
        return await attempt();
      } catch (error) {
        if (!alive()) throw error;
        const delay = retryDelay(failures, this.#retryDelays);
        await new Promise<void>((resolve) => this.#later(resolve, delay));
      }
    }
  }

  /** The initial load's plan for the desk's window as of now (the load and the sweep read it). */
  #loadPlan(): ReturnType<typeof planInitialLoad> {
    return planInitialLoad(
      {
        historyDays: this.#historyDays,
        maxOrders: this.#maxOrders,
        slices: this.#slices,
        firstPageSize: FIRST_PAGE,
        fullSync: this.#fullSync,
      },
      this.#now(),
    );
  }

  /**
   * The id sweep (`sweep.ts`): lists the ids of the desk's window, reads the held orders it did
   * not list by id, and removes the ones the server no longer has, unless a remote change
   * touched them meanwhile; then writes a fresh snapshot. Orders deleted while nobody watched
   * (a returning visit, a long gap) go; one outside the window but still on the server stays.
   */
  async #sweep(run: number): Promise<void> {
    const alive = () => run === this.#phase.run;
    const touched = new Set<string>();
    this.#sweepTouched = touched;
    this.#setSweep({ running: true });
    mark('sweep-start');
    try {
      const plan = this.#loadPlan();
      const listed = new Set<string>();
      let recent = 0;
      for (const read of sweepReads(plan)) {
        const max = read.part === 'recent' ? this.#maxOrders - recent : undefined;
        if (max !== undefined && max <= 0) continue;
        // A failed page starts the read again: its cursor document may be one deleted since.
        const count = await this.#retrying(alive, async () => {
          let inRead = 0;
          const pages = cursorPages(this.#snapshot, 'orders', read.queries, {
            pageSize: this.#pageSize,
            ...(max === undefined ? {} : { max }),
          });
          for await (const documents of pages) {
            if (!alive()) break;
            for (const doc of documents) listed.add(doc.$id);
            inRead += documents.length;
          }
          return inRead;
        });
        if (!alive()) return;
        if (read.part === 'recent') recent += count;
      }
      const unlisted: Order[] = [];
      await new Promise<void>((resolve) => {
        this.#sweepPass = runSliced(
          unlistedOrders(this.#state.orders.values(), listed, touched, unlisted),
          resolve,
          this.#backgroundSlices,
        );
      });
      this.#sweepPass = null;
      if (!alive()) return;
      const found = new Set<string>();
      const ids = unlisted.map((order) => order.id);
      for (const batch of idBatches(ids)) {
        const page = await this.#retrying(alive, () =>
          this.#snapshot.list('orders', byIdQueries(batch)),
        );
        if (!alive()) return;
        for (const doc of page.documents) found.add(doc.$id);
      }
      if (!alive()) return;
      // Changes received meanwhile count as touched before anything is removed.
      this.flush();
      const removed = sweepRemovals(unlisted, found, touched, (id) => this.#state.orders.get(id));
      if (removed.length)
        this.#state.applyRemote(
          removed.map((record) => ({ collection: 'orders', kind: 'delete', record })),
        );
      this.#dirty = true;
      this.#setSweep({
        running: false,
        done: this.#state.sweep.done + 1,
        removed: removed.length,
      });
      mark('sweep-done');
      void this.saveSnapshot();
    } catch {
      // Reads are retried until the run stops: only a stopped run (or a fault) ends up here.
    } finally {
      if (this.#sweepTouched === touched) this.#sweepTouched = null;
    }
    if (!alive()) return;
    if (this.#state.sweep.running) this.#setSweep({ running: false });
    this.#sweepStep({ type: 'done', synced: this.#synced() });
  }

  // The window trim ------------------------------------------------------------------------------

  #scheduleTrim(): void {
    this.#later(() => {
      void this.#trimWindow(this.#phase.run);
      this.#scheduleTrim();
    }, this.#trimEveryMs);
  }

  /**
   * Drops from the desk the orders that aged out of its window (`window-trim.ts`), every
   * `trimEveryMs` while it is caught up and live: a pass over the held orders in slices, then,
   * with the events received meanwhile applied, the ones still as the pass saw them are evicted
   * (from the desk only). An order whose detail is open stays while it is.
   */
  async #trimWindow(run: number): Promise<void> {
    if (
      this.#trimPass !== null ||
      this.#phase.stage !== 'running' ||
      this.#phase.resync !== 'idle' ||
      this.#state.connection.status !== 'live'
    )
      return;
    const since = windowStart(this.#now(), this.#historyDays);
    const aged: Order[] = [];
    const tracked = (id: string) => this.#state.details[id] !== undefined;
    await new Promise<void>((resolve) => {
      const pass = runSliced(
        agedOutOrders(this.#state.orders.values(), since, tracked, aged),
        resolve,
        this.#backgroundSlices,
      );
      if (!pass.finished) this.#trimPass = pass;
    });
    this.#trimPass = null;
    if (run !== this.#phase.run || aged.length === 0) return;
    this.flush();
    // Evicted, not deleted: only the version the pass saw goes (an order changed since stays),
    // and no tombstone is left, so a later read (a link to the order) brings it back.
    const before = this.#state.orders;
    this.#state.applyRemote(
      aged
        .filter((order) => !tracked(order.id))
        .map((record) => ({ collection: 'orders', kind: 'evict', record })),
    );
    if (this.#state.orders === before) return;
    this.#dirty = true;
    this.#saveSoon();
  }

  // Details and single orders ----------------------------------------------------------------

  /**
   * Tracks an order's detail (loads the whole order when only its list copy is held, its notes,
   * activity and attachments, and keeps them live); returns the release.
   */
  loadOrderDetail(orderId: string): () => void {
    const first = this.#state.details[orderId] === undefined;
    this.#store.commit({ sync: { details: trackDetail(this.#state.details, orderId) } });
    if (first && this.running) this.#startDetail(orderId);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const { details, dropped } = untrackDetail(this.#state.details, orderId);
      this.#store.commit({ sync: { details }, ...(dropped ? { dropDetail: orderId } : {}) });
      if (dropped) void this.#followDetails();
    };
  }

  /** Reads a tracked detail that failed again. */
  retryOrderDetail(orderId: string): void {
    const detail = this.#state.details[orderId];
    if (!detail || detail.status !== 'error') return;
    this.#store.commit({
      sync: { details: detailStatus(this.#state.details, orderId, { status: 'loading' }) },
    });
    void this.#loadDetail(this.#phase.run, orderId).catch(() => {});
  }

  #startDetail(orderId: string): void {
    const run = this.#phase.run;
    // The order itself is followed by the orders' subscription: read at once, while the details
    // subscription is pointed at it (only the lists wait for that).
    const order = this.#readWholeOrder(orderId);
    order?.catch(() => {});
    const load = () => this.#loadDetail(run, orderId, order);
    void this.#followDetails()
      .then(load, () => {
        // Not followed: what the read misses comes with the next resync.
        this.#detailRisk = true;
        return load();
      })
      .catch(() => {});
  }

  /**
   * Points the details subscription at the tracked orders (opened with the first, closed with
   * the last); resolves once the server applies it, so a read that starts then misses nothing.
   */
  #followDetails(): Promise<void> {
    const step = async () => {
      if (!this.running) return;
      const ids = Object.keys(this.#state.details).sort();
      const queries = ids.length > MAX_FOLLOWED_ORDERS ? [] : [Query.equal('orderId', ids)];
      const key = JSON.stringify(queries);
      const current = this.#details;
      if (ids.length === 0) {
        this.#details = null;
        if (current) await (await current.subscription).close();
      } else if (!current) {
        const subscription = this.#realtime.subscribe(
          DETAIL_SYNC.map(channelOf),
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

  /** Reads the whole order when only its list copy (or nothing) is held; null: not needed. */
  #readWholeOrder(orderId: string): Promise<boolean> | null {
    const held = this.#state.orders.get(orderId);
    return held === undefined || held.partial ? this.#readOrder(orderId) : null;
  }

  /**
   * Reads an order's detail: the whole order if only its list copy is held (`order`: that read,
   * started already), then the rest.
   */
  async #loadDetail(run: number, orderId: string, order?: Promise<boolean> | null): Promise<void> {
    if (run !== this.#phase.run || !this.#state.details[orderId]) return;
    const alive = () => run === this.#phase.run;
    try {
      const reading = order === undefined ? this.#readWholeOrder(orderId) : order;
      if (reading !== null) {
        const found = await reading;
        if (!alive()) return;
        if (!found) {
          this.#store.commit({
            sync: {
              details: detailStatus(this.#state.details, orderId, {
                status: 'ready',
                missing: true,
              }),
            },
          });
          return;
        }
      }
      for (const collection of DETAIL_SYNC) {
        await this.#read(
          alive,
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
      this.#store.commit({
        sync: { details: detailStatus(this.#state.details, orderId, { status: 'ready' }) },
      });
    } catch (error) {
      this.flush();
      this.#store.commit({
        sync: {
          details: detailStatus(this.#state.details, orderId, {
            status: 'error',
            error: toAppError(error, 'view this order'),
          }),
        },
      });
      throw error;
    }
  }

  /** Reads one order and queues it; whether the backend has it (for us). */
  async #readOrder(orderId: string): Promise<boolean> {
    const page = await this.#snapshot.list('orders', [Query.equal('$id', orderId), Query.limit(1)]);
    const doc = page.documents[0];
    if (!doc) return false;
    const record = recordFromDocument('orders', doc)!;
    this.#coverage.orders.observe(record.updatedAt);
    this.#queue.push({ collection: 'orders', kind: 'upsert', record });
    this.flush();
    return true;
  }

  /** Reads one order again and applies it (after a conflict, so the view shows who won). */
  async refreshOrder(orderId: string): Promise<void> {
    await this.#readOrder(orderId);
  }
}
