import type { AppError } from '../../domain/errors.ts';
import type { Actor } from '../../domain/order-machine.ts';
import { hasAtLeast } from '../../domain/roles.ts';
import {
  browserIdleSlices,
  browserSlices,
  appwriteSyncPorts,
  createAppwriteFiles,
  createAppwriteTransport,
  createDeskStore,
  inputFirstFrameScheduler,
  downloadServerSnapshot,
  idbSnapshots,
  lastSnapshotKey,
  prefetchSnapshot,
  snapshotKey,
  type PrefetchedSnapshot,
  type StoredSnapshot,
  type DeskStore,
  type FrameScheduler,
  type RealtimePort,
} from '../../store/index.ts';
import { sdk } from '../lib/appwrite.ts';
import { config } from '../lib/env.ts';
import { benchEnabled, benchEventsApplied } from '../lib/bench.ts';

let ports: ReturnType<typeof appwriteSyncPorts> | null = null;
let prefetched: PrefetchedSnapshot | null = null;
let serverSnapshotAhead: Promise<StoredSnapshot | undefined> | null = null;

/**
 * Starts reading the orders this browser kept for the last desk, while the app starts and checks
 * the session: a returning member's desk then paints them without waiting for IndexedDB. They are
 * shown only to that member (the desk's key names the user); another session ignores them. When
 * this browser keeps none, the desk's server-kept snapshot is downloaded meanwhile instead (the
 * backend answers it only to a desk member's session; the desk takes it once it is created).
 */
export function prefetchDeskSnapshot(): void {
  const key = lastSnapshotKey();
  if (key !== null) prefetched = prefetchSnapshot(idbSnapshots(), key, undefined, browserSlices());
  else serverSnapshotAhead = downloadServerSnapshot(sdk().client);
}

/**
 * The server-kept snapshot downloaded ahead (once), else a download now: also when the one ahead
 * had none (it was asked before a sign-in, without a session).
 */
async function serverSnapshot(): Promise<StoredSnapshot | undefined> {
  const ahead = serverSnapshotAhead;
  serverSnapshotAhead = null;
  return (await ahead) ?? downloadServerSnapshot(sdk().client);
}

/** The user whose desk this browser last kept orders for (this project's), or null. */
export function lastDeskUser(): string | null {
  const key = lastSnapshotKey();
  const prefix = snapshotKey(config().projectId, '');
  return key !== null && key.startsWith(prefix) && key.length > prefix.length
    ? key.slice(prefix.length)
    : null;
}

/**
 * With `?bench=1`: stamps each realtime event on arrival and reports it once a flush applied it.
 * Events the store drops on arrival (details of orders no view tracks) schedule no flush and
 * are not counted: nothing is painted for them.
 */
function measured(realtime: RealtimePort, scheduler: FrameScheduler) {
  const arrived: { receivedAt: number; serverTime: number }[] = [];
  let flushPending = false;
  return {
    realtime: {
      subscribe: (channels, onEvent, handlers, queries) =>
        realtime.subscribe(
          channels,
          (event) => {
            const time =
              typeof event.timestamp === 'number'
                ? event.timestamp
                : Date.parse(String(event.timestamp).replace(' ', 'T'));
            const receivedAt = performance.now();
            onEvent(event);
            if (flushPending) arrived.push({ receivedAt, serverTime: time });
          },
          handlers,
          queries,
        ),
      nextRetryDelayMs: () => realtime.nextRetryDelayMs(),
    } satisfies RealtimePort,
    scheduler: {
      schedule: (callback) => {
        flushPending = true;
        const cancel = scheduler.schedule(() => {
          flushPending = false;
          const applied = arrived.splice(0);
          callback();
          benchEventsApplied(applied);
        });
        return () => {
          flushPending = false;
          cancel();
        };
      },
    } satisfies FrameScheduler,
  };
}

/**
 * The desk store of one signed-in member, on the app's Appwrite SDK: the sync ports (one
 * realtime port per tab: the SDK cannot unregister its open/close callbacks) and the write
 * transport. Export jobs are for managers (schema: read by manager and owner): staff sync none.
 */
export function createAppDeskStore(actor: Actor): DeskStore {
  ports ??= appwriteSyncPorts(sdk());
  const fullSync = hasAtLeast(actor.role, 'manager')
    ? (['products', 'exports', 'members', 'presence'] as const)
    : (['products', 'members', 'presence'] as const);
  const scheduler = inputFirstFrameScheduler();
  return createDeskStore({
    actor,
    sync: {
      snapshot: ports.snapshot,
      fullSync,
      persist: {
        storage: idbSnapshots(),
        key: snapshotKey(config().projectId, actor.id),
        prefetched,
        serverSnapshot,
      },
      backgroundSlices: browserIdleSlices(),
      ...(benchEnabled()
        ? measured(ports.realtime, scheduler)
        : { realtime: ports.realtime, scheduler }),
    },
    transport: createAppwriteTransport(sdk(), `${location.origin}/join`),
    files: createAppwriteFiles(sdk()),
    slices: browserSlices(),
  });
}

/**
 * Calls `handle` with every new error the store keeps (the load, a drawer's detail, a failed
 * write), so one place can send the person to sign in when the session has ended. Returns the
 * cleanup.
 */
export function watchErrors(store: DeskStore, handle: (error: AppError) => void): () => void {
  return store.subscribe((state, previous) => {
    if (state.load.error && state.load.error !== previous.load.error) handle(state.load.error);
    if (state.details !== previous.details)
      for (const [orderId, detail] of Object.entries(state.details))
        if (detail.error && detail.error !== previous.details[orderId]?.error) handle(detail.error);
    if (state.failures !== previous.failures)
      for (const [target, failure] of Object.entries(state.failures))
        if (failure && failure !== previous.failures[target as keyof typeof state.failures])
          handle(failure.error);
  });
}
