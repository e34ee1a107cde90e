import { immer } from 'zustand/middleware/immer';
import { createStore } from 'zustand/vanilla';
import type { OrderActionGateway } from './mutations/transport.ts';
import { createMutationsSlice } from './mutations/mutations.ts';
import { createSessionSlice } from './session.ts';
import type { DeskState } from './state.ts';
import { SyncEngine, type SyncOptions } from './sync/engine.ts';
import { createSyncSlice } from './sync/sync-state.ts';
import { createDataSlice } from './transactions.ts';

/** How a desk store is put together. Everything is optional: a bare store needs nothing. */
export interface DeskStoreOptions {
  /** The clock (epoch ms); "today" and event ages are measured with it. */
  now?: () => number;
  /** The backend ports of the sync engine; without them `startSync` and friends throw. */
  sync?: SyncOptions;
  /** Where workflow actions go (the `order-action` function in production). */
  gateway?: OrderActionGateway;
}

/** Creates the zustand store with every slice; immer is applied once, on the combined store. */
function createDeskStoreApi(
  now: () => number,
  engine: () => SyncEngine | null,
  gateway: () => OrderActionGateway | null,
) {
  return createStore<DeskState>()(
    immer((...a) => ({
      ...createDataSlice({ now })(...a),
      ...createSyncSlice({ now, engine })(...a),
      ...createMutationsSlice({
        now,
        gateway,
        refresh: (orderId) => engine()?.refreshOrder(orderId) ?? null,
      })(...a),
      ...createSessionSlice(...a),
    })),
  );
}

/** The desk store: a zustand store (vanilla API) of {@link DeskState}. */
export type DeskStore = ReturnType<typeof createDeskStoreApi>;

/**
 * Creates the desk's store. With `sync` ports, `getState().startSync()` runs the sync engine;
 * with a `gateway`, `performOrderAction` carries actions out.
 *
 * @example
 * const store = createDeskStore({ sync: appwriteSyncPorts(sdk), gateway: createFunctionGateway(sdk.functions) });
 * const stop = store.getState().startSync();
 */
export function createDeskStore(options: DeskStoreOptions = {}): DeskStore {
  const now = options.now ?? Date.now;
  let engine: SyncEngine | null = null;
  const store = createDeskStoreApi(
    now,
    () => engine,
    () => options.gateway ?? null,
  );
  if (options.sync) engine = new SyncEngine(store, options.sync, now);
  return store;
}

export type * from './state.ts';
export { createFunctionGateway, parseExecution, gatewayError } from './appwrite/transport.ts';
export {
  appwriteSyncPorts,
  createAppwriteRealtimePort,
  createAppwriteSnapshotPort,
} from './appwrite/sync-ports.ts';
export { lastEventAgeSeconds, secondsUntilRetry } from './sync/connection.ts';
export * from './selectors/orders.ts';
export * from './selectors/details.ts';
export * from './selectors/connection.ts';
export * from './selectors/people.ts';
export {
  DEFAULT_ORDER_VIEW,
  ORDER_SORT_KEYS,
  BOARD_COLUMNS,
  orderViewKey,
} from './views/order-views.ts';
export type { OrderActionGateway } from './mutations/transport.ts';
export type { SyncOptions } from './sync/engine.ts';
export type {
  RealtimePort,
  SnapshotPort,
  FrameScheduler,
  Timers,
  NetworkPort,
  RealtimeEvent,
} from './sync/ports.ts';
export type { ConnectionState, ConnectionStatus } from './sync/connection.ts';
export type { DeskMetrics } from './views/metrics.ts';
export type { OrderViewSpec, OrderSortKey, BoardColumn } from './views/order-views.ts';
export type { SortedIndex } from './views/sorted-index.ts';
export type { EntityTable } from './records/entity-table.ts';
export type { RemoteChange } from './records/changes.ts';
