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

/**
 * Flushes once per animation frame where there is one ({@link inputFirstFrameScheduler}: a frame
 * after a person's input is left to it), else every 16 ms.
 */
export function defaultFrameScheduler(): FrameScheduler {
  if (typeof requestAnimationFrame === 'function') {
    return inputFirstFrameScheduler(
      {
        request: (callback) => requestAnimationFrame(callback),
        cancel: (handle) => cancelAnimationFrame(handle as number),
      },
      pageInputClock(),
    );
  }
  return intervalScheduler(16);
}

/** Animation frames: `request` calls back once with the frame's start time (ms). */
export interface AnimationFrames {
  request(callback: (frameStart: number) => void): unknown;
  cancel(handle: unknown): void;
}

/** When the page last handled a person's input (ms, the frames' clock; -Infinity: never). */
export interface InputClock {
  lastInputAt(): number;
}

/** One frame at 60 Hz, with a little slack (ms). */
const FRAME_MS = 17;

/**
 * Flushes in animation frames, but a frame whose interval saw a person's input (a click, a key,
 * a letter typed: handled less than a frame before the frame starts, or since) is left to that
 * input's rendering: the flush comes in the next frame instead. Never later than that, so a
 * queued event waits one frame more at most, however often the person types.
 */
export function inputFirstFrameScheduler(
  frames: AnimationFrames,
  input: InputClock,
): FrameScheduler {
  return {
    schedule(callback) {
      let handle = frames.request((frameStart) => {
        if (input.lastInputAt() < frameStart - FRAME_MS) return callback();
        handle = frames.request(() => callback());
      });
      return () => frames.cancel(handle);
    },
  };
}

/** The DOM events that mark a person's input. */
const INPUT_EVENTS = ['pointerdown', 'keydown', 'click', 'input'] as const;

let pageInput: InputClock | null = null;

/** The page's {@link InputClock}: listens (once per page) to every input event, first of all. */
function pageInputClock(): InputClock {
  if (pageInput) return pageInput;
  let last = -Infinity;
  const seen = () => {
    last = performance.now();
  };
  for (const type of INPUT_EVENTS)
    window.addEventListener(type, seen, { capture: true, passive: true });
  return (pageInput = { lastInputAt: () => last });
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
