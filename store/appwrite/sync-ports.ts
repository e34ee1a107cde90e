import type { Client, Presences, Realtime, Teams } from 'appwrite';
import { DATABASE_ID, DESK_TEAM_ID } from '../../domain/ids.ts';
import type { DocumentMeta } from '../../domain/order.ts';
import type { SyncedCollection } from '../records/changes.ts';
import {
  systemTimers,
  type DocumentPage,
  type RealtimeHandlers,
  type RealtimePort,
  type SnapshotPort,
  type Timers,
} from '../sync/ports.ts';
import { listDocumentsViaBlob } from './document-pages.ts';
import { toAppError } from './errors.ts';

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
   * The longest wait, after the socket opens, for the server to acknowledge the subscription
   * before it counts as active anyway. The SDK reports `open` before the subscribe frame (sent
   * on the server's `connected` frame) has been processed, and does not surface the server's
   * acknowledgement; the port reads it from the socket, and falls back to this delay.
   */
  activationDelayMs?: number;
  timers?: Timers;
}

type SdkSubscription = Awaited<ReturnType<Realtime['subscribe']>>;

/** The SDK's current socket (a non-public field of `Realtime`), if any. */
function socketOf(realtime: Realtime): WebSocket | undefined {
  return (realtime as unknown as { socket?: WebSocket }).socket;
}

/** Whether a realtime frame is the server's acknowledgement of a subscribe. */
export function isSubscribeAck(data: unknown): boolean {
  if (typeof data !== 'string' || !data.includes('"subscribe"')) return false;
  try {
    const message = JSON.parse(data) as { type?: unknown; data?: { to?: unknown } };
    return message.type === 'response' && message.data?.to === 'subscribe';
  } catch {
    return false;
  }
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
  const activationDelay = options.activationDelayMs ?? 1_000;
  const listeners = new Set<RealtimeHandlers>();
  let attempts = 0;
  let lastDelay = reconnectDelayMs(0);
  let open = false;
  let active = false;
  /** Bumped by every (re)open and close: a wait for an older activation comes to nothing. */
  let activation = 0;

  /**
   * On an open socket: resolves at the server's next subscribe acknowledgement (or after the
   * fallback delay), so a subscription made or changed now is in force once it resolves.
   */
  const nextAck = (): Promise<void> | null => {
    const socket = socketOf(realtime);
    if (
      !open ||
      !socket ||
      socket.readyState !== 1 ||
      typeof socket.addEventListener !== 'function'
    )
      return null;
    return new Promise<void>((resolve) => {
      const done = () => {
        timers.clearTimeout(timer);
        socket.removeEventListener('message', onMessage);
        resolve();
      };
      const onMessage = (event: MessageEvent) => {
        if (isSubscribeAck(event.data)) done();
      };
      const timer = timers.setTimeout(done, activationDelay);
      socket.addEventListener('message', onMessage);
    });
  };
  /** Active at the subscribe acknowledgement on the current socket, or after the fallback delay. */
  const awaitActivation = () => {
    const current = ++activation;
    const acknowledged =
      nextAck() ?? new Promise<void>((resolve) => timers.setTimeout(resolve, activationDelay));
    void acknowledged.then(() => {
      if (current !== activation || !open || active) return;
      active = true;
      for (const handlers of [...listeners]) handlers.onOpen();
    });
  };

  realtime.onOpen(() => {
    open = true;
    attempts = 0;
    awaitActivation();
  });
  realtime.onClose(() => {
    open = false;
    activation++;
    lastDelay = reconnectDelayMs(attempts++);
    active = false;
    for (const handlers of [...listeners]) handlers.onClose();
  });

  return {
    async subscribe(channels, onEvent, handlers, queries = []) {
      listeners.add(handlers);
      let subscription: SdkSubscription | null = null;
      const applied = nextAck();
      try {
        subscription = await realtime.subscribe([...channels], (event) => onEvent(event), [
          ...queries,
        ]);
        await applied;
      } finally {
        if (active) handlers.onOpen();
        else if (!open && socketOf(realtime)?.readyState === 1) {
          // Another subscription had opened the socket: no `open` will come for this one.
          open = true;
          awaitActivation();
        }
      }
      return {
        update: async (next) => {
          const updated = nextAck();
          await subscription?.update({ queries: [...next] });
          await updated;
        },
        close: async () => {
          listeners.delete(handlers);
          await subscription?.close();
        },
      };
    },
    nextRetryDelayMs: () => lastDelay,
  };
}

/** The SDK services the snapshot port reads with. */
export interface SnapshotSdk {
  /** Documents are read with it through {@link listDocumentsViaBlob}. */
  client: Client;
  teams: Pick<Teams, 'listMemberships'>;
  presences: Pick<Presences, 'list'>;
}

/**
 * The snapshot port over the SDK: documents of the `livedesk` database, the `desk` team's
 * memberships, the presences. What the SDK throws is converted once, here (`toAppError`).
 */
export function createAppwriteSnapshotPort(sdk: SnapshotSdk): SnapshotPort {
  const read = async (collection: SyncedCollection, queries: string[]): Promise<DocumentPage> => {
    if (collection === 'members') {
      const page = await sdk.teams.listMemberships({ teamId: DESK_TEAM_ID, queries });
      return { documents: page.memberships as unknown as DocumentMeta[], total: page.total };
    }
    if (collection === 'presence') {
      const page = await sdk.presences.list({ queries });
      return { documents: page.presences as unknown as DocumentMeta[], total: page.total };
    }
    // No total: the backend would count the matches of every page (and nothing here reads it).
    const page = await listDocumentsViaBlob(sdk.client, {
      databaseId: DATABASE_ID,
      collectionId: collection,
      queries,
      total: false,
    });
    return { documents: page.documents as unknown as DocumentMeta[], total: page.total };
  };
  return {
    async list(collection, queries) {
      try {
        return await read(collection, [...queries]);
      } catch (error) {
        throw toAppError(error, 'view the desk');
      }
    },
  };
}

/** Both ports from the app's SDK facade (`sdk()` of src/lib/appwrite.ts). */
export function appwriteSyncPorts(
  sdk: SnapshotSdk & { realtime: Realtime },
  options: AppwriteRealtimeOptions = {},
): { realtime: RealtimePort; snapshot: SnapshotPort } {
  return {
    realtime: createAppwriteRealtimePort(sdk.realtime, options),
    snapshot: createAppwriteSnapshotPort(sdk),
  };
}
