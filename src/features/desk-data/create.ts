import { createDeskStore } from '../../../store/index.ts';
import { createAppwriteTransport } from '../../../store/appwrite/transport.ts';
import { appwriteSyncPorts } from '../../../store/appwrite/sync-ports.ts';
import {
  defaultFrameScheduler,
  type FrameScheduler,
  type RealtimePort,
} from '../../../store/sync/ports.ts';
import { hasAtLeast, type DeskRole } from '../../../domain/roles.ts';
import { sdk } from '../../lib/appwrite.ts';
import { benchEnabled, benchEventsApplied } from '../../lib/bench.ts';
import { createStoreDesk } from './store-desk.ts';
import type { DeskData } from './types.ts';

let ports: ReturnType<typeof appwriteSyncPorts> | null = null;

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
 * The desk's data layer for one signed-in member: the normalized store of store/ with the
 * Appwrite ports and the `order-action` gateway. Export jobs are for managers (schema: read by
 * manager and owner): staff sync none.
 */
export function createDeskData(actor: { id: string; name: string; role: DeskRole }): DeskData {
  // One realtime port per tab: the SDK cannot unregister its open/close callbacks.
  ports ??= appwriteSyncPorts(sdk());
  const fullSync = hasAtLeast(actor.role, 'manager')
    ? (['products', 'exports', 'members', 'presence'] as const)
    : (['products', 'members', 'presence'] as const);
  const scheduler = defaultFrameScheduler();
  const sync = {
    snapshot: ports.snapshot,
    fullSync,
    ...(benchEnabled()
      ? measured(ports.realtime, scheduler)
      : { realtime: ports.realtime, scheduler }),
  };
  const store = createDeskStore({
    actor,
    sync,
    transport: createAppwriteTransport(sdk(), `${location.origin}/join`),
  });
  return createStoreDesk(store);
}
