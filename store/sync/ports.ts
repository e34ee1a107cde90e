import type { DocumentMeta } from '../../domain/order.ts';
import type { SyncedCollection } from '../records/changes.ts';

/**
 * The edges of the sync engine. The engine talks to the backend only through these, so the
 * Appwrite adapter (store/appwrite/sync-ports.ts) stays thin and the tests run the real engine against an
 * in-memory model of the backend protocol (testing/model-server.ts).
 */

/** A realtime event as Appwrite delivers it: the document is the payload. */
export interface RealtimeEvent {
  /** e.g. `databases.livedesk.collections.orders.documents.<id>.update` */
  events: readonly string[];
  /** e.g. `databases.livedesk.collections.orders.documents` */
  channels: readonly string[];
  /** Server time of the event. */
  timestamp: string | number;
  payload: unknown;
}

/** What the realtime connection tells the engine besides events. */
export interface RealtimeHandlers {
  /**
   * The subscription is active: every change from now on will be delivered. Called after each
   * (re)connection. Events missed while it was not active are gone (Appwrite has no replay).
   */
  onOpen(): void;
  /** The subscription is no longer active; the SDK reconnects by itself. */
  onClose(): void;
}

/** An open subscription. */
export interface RealtimeSubscription {
  /**
   * Replaces the subscription's realtime queries (Appwrite query strings). Resolves once the
   * server applies them, as far as the connection can tell (see {@link RealtimePort.subscribe}).
   */
  update(queries: readonly string[]): Promise<void>;
  /** Ends the subscription (idempotent). */
  close(): void | Promise<void>;
}

/** The realtime side of the backend. */
export interface RealtimePort {
  /**
   * Subscribes to `channels`, filtered on the server by realtime `queries` (ANDed; none: every
   * event). Resolves once the subscription is registered and, on a connection that is already
   * active, applied by the server; else it becomes active later, and may drop and come back any
   * number of times: see {@link RealtimeHandlers}.
   */
  subscribe(
    channels: readonly string[],
    onEvent: (event: RealtimeEvent) => void,
    handlers: RealtimeHandlers,
    queries?: readonly string[],
  ): Promise<RealtimeSubscription>;
  /** After an `onClose`: the delay before the SDK's next attempt (ms). */
  nextRetryDelayMs(): number;
}

/** A page of documents. `total` is capped by the backend: never rely on it for completeness. */
export interface DocumentPage {
  documents: readonly DocumentMeta[];
  total: number;
}

/**
 * The read side of the backend: Appwrite's list endpoints (documents of a collection, the desk
 * team's memberships, the presences).
 */
export interface SnapshotPort {
  /** Lists a synced set with Appwrite query strings (`Query.*` of the `appwrite` package). */
  list(collection: SyncedCollection, queries: readonly string[]): Promise<DocumentPage>;
}

/** Schedules the flush of queued events: once per animation frame in a browser. */
export interface FrameScheduler {
  /** Calls `callback` once, soon; returns a function that cancels it. */
  schedule(callback: () => void): () => void;
}

/** Timers for retries and delayed passes (injectable so tests control time). */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Whether the browser is online, and changes of it. */
export interface NetworkPort {
  online(): boolean;
  /** Calls `listener` on every change; returns the cleanup. */
  subscribe(listener: (online: boolean) => void): () => void;
}

/** Flushes once per animation frame where there is one, else every 16 ms. */
export function defaultFrameScheduler(): FrameScheduler {
  if (typeof requestAnimationFrame === 'function') {
    return {
      schedule(callback) {
        const handle = requestAnimationFrame(() => callback());
        return () => cancelAnimationFrame(handle);
      },
    };
  }
  return intervalScheduler(16);
}

/** Flushes `ms` after the first queued event (outside a browser, and in benchmarks). */
export function intervalScheduler(ms: number): FrameScheduler {
  return {
    schedule(callback) {
      const handle = setTimeout(callback, ms);
      return () => clearTimeout(handle);
    },
  };
}

/** The platform's timers. */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The browser's online state (`navigator.onLine` and its events); always online elsewhere. */
export function browserNetwork(): NetworkPort {
  const hasWindow = typeof window !== 'undefined' && typeof window.addEventListener === 'function';
  return {
    online: () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false),
    subscribe(listener) {
      if (!hasWindow) return () => {};
      const online = () => listener(true);
      const offline = () => listener(false);
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      };
    },
  };
}
