import type { DeskSlice, SyncSlice } from '../state.ts';
import { initialConnection, nextConnection } from './connection.ts';
import type { SyncEngine } from './engine.ts';

/** What the sync slice needs: the clock and, for its async actions, the engine (if any). */
export interface SyncContext {
  now(): number;
  engine(): SyncEngine | null;
}

function needEngine(context: SyncContext): SyncEngine {
  const engine = context.engine();
  if (!engine) throw new Error('This desk store was created without sync ports.');
  return engine;
}

/** The connection state machine, the load state and the sync actions. */
export function createSyncSlice(context: SyncContext): DeskSlice<SyncSlice> {
  return (set, get) => ({
    connection: initialConnection(context.now()),
    load: { status: 'idle', loaded: 0, error: null },

    connectionEvent(event) {
      const current = get().connection;
      const next = nextConnection(current, event);
      if (next !== current) set((draft) => void (draft.connection = next));
    },

    setLoad(load) {
      set((draft) => void Object.assign(draft.load, load));
    },

    startSync() {
      return needEngine(context).start();
    },

    loadOrderDetail(orderId) {
      return needEngine(context).loadOrderDetail(orderId);
    },

    refreshOrder(orderId) {
      return needEngine(context).refreshOrder(orderId);
    },
  });
}
