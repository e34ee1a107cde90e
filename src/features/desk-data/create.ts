import { createDeskStore } from '../../../store/index.ts';
import { createFunctionGateway } from '../../../store/mutations/function-gateway.ts';
import { appwriteSyncPorts } from '../../../store/sync/appwrite-port.ts';
import {
  defaultFrameScheduler,
  type FrameScheduler,
  type RealtimePort,
} from '../../../store/sync/ports.ts';
import { hasAtLeast, type DeskRole } from '../../domain/roles.ts';
import { sdk } from '../../lib/appwrite.ts';
import { benchEnabled, benchEventsApplied } from '../../lib/bench.ts';
import { createStoreDesk } from './store-desk.ts';
import type { DeskData } from './types.ts';

let ports: ReturnType<typeof appwriteSyncPorts> | null = null;

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
 * Appwrite ports and the `order-action` gateway. Export jobs are for managers (schema: read by
 * manager and owner): staff sync none.
 */
export function createDeskData(actor: { id: string; name: string; role: DeskRole }): DeskData {
  // One realtime port per tab: the SDK cannot unregister its open/close callbacks.
  ports ??= appwriteSyncPorts(sdk());
  const fullSync = hasAtLeast(actor.role, 'manager')
    ? (['products', 'exports'] as const)
    : (['products'] as const);
  const scheduler = defaultFrameScheduler();
  const sync = {
    snapshot: ports.snapshot,
    fullSync,
    ...(benchEnabled()
      ? measured(ports.realtime, scheduler)
      : { realtime: ports.realtime, scheduler }),
  };
  const store = createDeskStore({ sync, gateway: createFunctionGateway(sdk().functions) });
  store.getState().setActor(actor);
  return createStoreDesk(store);
}
