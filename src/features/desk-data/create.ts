import { createDeskStore } from '../../../store/index.ts';
import { createFunctionGateway } from '../../../store/mutations/function-gateway.ts';
import { appwriteSyncPorts } from '../../../store/sync/appwrite-port.ts';
import {
  defaultFrameScheduler,
  type FrameScheduler,
  type RealtimePort,
  type SnapshotPort,
} from '../../../store/sync/ports.ts';
import { COLLECTIONS } from '../../domain/ids.ts';
import { hasAtLeast, type DeskRole } from '../../domain/roles.ts';
import { sdk } from '../../lib/appwrite.ts';
import { benchDataLayer, benchEnabled, benchEventsApplied } from '../../lib/bench.ts';
import { createInterimDesk } from './interim-store.ts';
import { createStoreDesk } from './store-desk.ts';
import type { DeskData } from './types.ts';

let ports: ReturnType<typeof appwriteSyncPorts> | null = null;

/** Export jobs are for managers (schema: read by manager and owner); staff read none. */
function withoutExportsFor(role: DeskRole, snapshot: SnapshotPort): SnapshotPort {
  if (hasAtLeast(role, 'manager')) return snapshot;
  return {
    listDocuments: (collectionId, queries) =>
      collectionId === COLLECTIONS.exports
        ? Promise.resolve({ documents: [], total: 0 })
        : snapshot.listDocuments(collectionId, queries),
  };
}

/** With `?bench=1`: stamps each realtime event on arrival and reports it once a flush applied it. */
function measured(realtime: RealtimePort, scheduler: FrameScheduler) {
  const arrived: { receivedAt: number; serverTime: number }[] = [];
  return {
    realtime: {
      subscribe: (channels, onEvent, handlers) =>
        realtime.subscribe(
          channels,
          (event) => {
            const time =
              typeof event.timestamp === 'number'
                ? event.timestamp
                : Date.parse(String(event.timestamp).replace(' ', 'T'));
            arrived.push({ receivedAt: performance.now(), serverTime: time });
            onEvent(event);
          },
          handlers,
        ),
      nextRetryDelayMs: () => realtime.nextRetryDelayMs(),
    } satisfies RealtimePort,
    scheduler: {
      schedule: (callback) =>
        scheduler.schedule(() => {
          const applied = arrived.splice(0);
          callback();
          benchEventsApplied(applied);
        }),
    } satisfies FrameScheduler,
  };
}

/**
 * The desk's data layer for one signed-in member: the normalized store of store/ with the
 * Appwrite ports and the `order-action` gateway. `?data=interim` selects the stand-in layer
 * (interim-store.ts), kept for comparison in `bench:ui` until the store's snapshot is as fast.
 */
export function createDeskData(actor: { id: string; name: string; role: DeskRole }): DeskData {
  if (new URLSearchParams(window.location.search).get('data') === 'interim') {
    benchDataLayer('stand-in (src/features/desk-data/interim-store.ts)');
    return createInterimDesk();
  }
  benchDataLayer('store/ (createDeskStore, Appwrite ports, order-action gateway)');
  // One realtime port per tab: the SDK cannot unregister its open/close callbacks.
  ports ??= appwriteSyncPorts(sdk());
  const snapshot = withoutExportsFor(actor.role, ports.snapshot);
  const scheduler = defaultFrameScheduler();
  const sync = benchEnabled()
    ? { snapshot, ...measured(ports.realtime, scheduler) }
    : { snapshot, realtime: ports.realtime, scheduler };
  const store = createDeskStore({ sync, gateway: createFunctionGateway(sdk().functions) });
  store.getState().setActor(actor);
  return createStoreDesk(store);
}
