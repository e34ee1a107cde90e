import type { Databases, Realtime } from 'appwrite';
import { DATABASE_ID } from '../../src/domain/ids.ts';
import type { DocumentMeta } from '../../src/domain/order.ts';
import {
  systemTimers,
  type DocumentPage,
  type RealtimeHandlers,
  type RealtimePort,
  type SnapshotPort,
  type Timers,
} from './ports.ts';

/**
 * The Appwrite SDK's reconnect delay before attempt `attempt` (0-based): 1 s for the first 5,
 * 5 s up to 15, 10 s up to 100, then 60 s (`Realtime.getTimeout` of appwrite@26).
 */
export function reconnectDelayMs(attempt: number): number {
  if (attempt < 5) return 1_000;
  if (attempt < 15) return 5_000;
  if (attempt < 100) return 10_000;
  return 60_000;
}

/** Options of {@link createAppwriteRealtimePort}. */
export interface AppwriteRealtimeOptions {
  /**
   * How long after the socket opens the subscription counts as active. The SDK reports the
   * socket's `open` before the server has processed the subscribe message (it is sent on the
   * server's `connected` frame), and there is no acknowledgement to wait for; changes in that
   * window could be missed by a resync that starts at once.
   */
  activationDelayMs?: number;
  timers?: Timers;
}

/** Whether the SDK's socket is open right now (read from the SDK's own, non-public field). */
function socketOpen(realtime: Realtime): boolean {
  const socket = (realtime as unknown as { socket?: { readyState?: number } }).socket;
  return socket?.readyState === 1;
}

/**
 * The realtime port over the SDK's `Realtime` (one per tab; create the port once, since the
 * SDK cannot unregister `onOpen`/`onClose` callbacks).
 *
 * The SDK reconnects by itself and re-subscribes with the same ids, but replays nothing: events
 * of the gap are lost, which is why the engine resyncs. Its attempt counter is not public, so
 * the port mirrors it: reset on `open`, one more per `close`.
 */
export function createAppwriteRealtimePort(
  realtime: Realtime,
  options: AppwriteRealtimeOptions = {},
): RealtimePort {
  const timers = options.timers ?? systemTimers;
  const activationDelay = options.activationDelayMs ?? 300;
  const listeners = new Set<RealtimeHandlers>();
  let attempts = 0;
  let lastDelay = reconnectDelayMs(0);
  let open = false;
  let active = false;
  let pending: unknown = null;

  const activate = () => {
    if (pending !== null) timers.clearTimeout(pending);
    pending = timers.setTimeout(() => {
      pending = null;
      if (!open) return;
      active = true;
      for (const handlers of [...listeners]) handlers.onOpen();
    }, activationDelay);
  };

  realtime.onOpen(() => {
    open = true;
    attempts = 0;
    activate();
  });
  realtime.onClose(() => {
    open = false;
    if (pending !== null) timers.clearTimeout(pending);
    pending = null;
    lastDelay = reconnectDelayMs(attempts++);
    const wasActive = active;
    active = false;
    if (wasActive || listeners.size) for (const handlers of [...listeners]) handlers.onClose();
  });

  return {
    async subscribe(channels, onEvent, handlers) {
      listeners.add(handlers);
      let subscription: { close(): Promise<void> } | null = null;
      try {
        subscription = await realtime.subscribe([...channels], (event) => onEvent(event));
      } finally {
        // Already connected (another subscription opened the socket): no `open` will come.
        if (!open && socketOpen(realtime)) open = true;
        if (open && !active && pending === null) activate();
        else if (active) handlers.onOpen();
      }
      return {
        close: async () => {
          listeners.delete(handlers);
          await subscription?.close();
        },
      };
    },
    nextRetryDelayMs: () => lastDelay,
  };
}

/** The snapshot port over the SDK's `Databases.listDocuments` in the `livedesk` database. */
export function createAppwriteSnapshotPort(databases: Databases): SnapshotPort {
  return {
    async listDocuments(collectionId, queries): Promise<DocumentPage> {
      const page = await databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId,
        queries: [...queries],
      });
      return { documents: page.documents as unknown as DocumentMeta[], total: page.total };
    },
  };
}

/** Both ports from the app's SDK facade (`sdk()` of src/lib/appwrite.ts). */
export function appwriteSyncPorts(
  sdk: { realtime: Realtime; databases: Databases },
  options: AppwriteRealtimeOptions = {},
): { realtime: RealtimePort; snapshot: SnapshotPort } {
  return {
    realtime: createAppwriteRealtimePort(sdk.realtime, options),
    snapshot: createAppwriteSnapshotPort(sdk.databases),
  };
}
