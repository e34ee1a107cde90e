import type { Actor } from '../domain/order-machine.ts';
import { immer } from 'zustand/middleware/immer';
import { createStore } from 'zustand/vanilla';
import { createFilesSlice } from './mutations/files.ts';
import type { FilesTransport } from './mutations/files-transport.ts';
import { createMutationsSlice } from './mutations/mutations.ts';
import type { DeskTransport } from './mutations/transport.ts';
import { emptyRecords } from './records/records.ts';
import type { DeskState } from './state.ts';
import { nextConnection } from './sync/connection.ts';
import { SyncEngine, type SyncOptions } from './sync/engine.ts';
import { createSyncSlice } from './sync/sync-state.ts';
import { createCommit, loadSnapshot, type DeskChange } from './transactions.ts';
import type { SliceScheduler } from './views/sliced.ts';
import { createViewsSlice } from './views/views.ts';

/** How a desk store is put together. Everything is optional: a bare store needs nothing. */
export interface DeskStoreOptions {
  /** The clock (epoch ms); "today" and event ages are measured with it. */
  now?: () => number;
  /** The signed-in member: the actor of every write (set once, for the store's life). */
  actor?: Actor;
  /** The backend ports of the sync engine; without them `startSync` and friends throw. */
  sync?: SyncOptions;
  /** Where writes go (store/appwrite/transport.ts in production); without it they fail. */
  transport?: DeskTransport;
  /** Where file writes go (store/appwrite/files-transport.ts in production); without it they fail. */
  files?: FilesTransport;
  /**
   * Where long view builds (a new sort column, a pass over 100,000 rows) run in slices of a few
   * ms, the event loop having a turn in between (`browserSlices()` in the app); without it they
   * run at once.
   */
  slices?: SliceScheduler;
}

/** Creates the zustand store from its parts; immer is applied once, on the combined store. */
function createDeskStoreApi(
  options: DeskStoreOptions,
  now: () => number,
  engine: () => SyncEngine | null,
  commits: { commit: (change: DeskChange) => void },
) {
  return createStore<DeskState>()(
    immer((set, get, api) => {
      const write = (patch: Partial<DeskState>) => set(patch);
      const commit = createCommit(get, write, now);
      commits.commit = commit;
      return {
        ...emptyRecords(),
        ...createViewsSlice({ now, slices: options.slices ?? null })(set, get, api),
        ...createSyncSlice({ now, engine })(set, get, api),
        ...createMutationsSlice({
          now,
          transport: () => options.transport ?? null,
          commit,
          refresh: (orderId) => engine()?.refreshOrder(orderId) ?? null,
        })(set, get, api),
        ...createFilesSlice({ files: () => options.files ?? null, commit })(set, get, api),
        actor: options.actor ?? null,

        applyRemote(changes, meta) {
          const s = get();
          const connection =
            meta?.eventsAt === undefined
              ? s.connection
              : nextConnection(s.connection, { type: 'events', at: meta.eventsAt });
          commit({
            remote: changes,
            ...(connection === s.connection ? {} : { sync: { connection } }),
          });
        },

        loadSnapshot(records, snapshotOptions) {
          loadSnapshot(get, write, commit, now, records, snapshotOptions);
        },
      };
    }),
  );
}

/** The desk store: a zustand store (vanilla API) of {@link DeskState}. */
export type DeskStore = ReturnType<typeof createDeskStoreApi>;

/**
 * Creates the desk's store. With `sync` ports, `getState().startSync()` runs the sync engine;
 * with a `transport`, the writes (`performOrderAction`, `addNote`, …) are carried out.
 *
 * @example
 * const store = createDeskStore({
 *   actor,
 *   sync: appwriteSyncPorts(sdk),
 *   transport: createAppwriteTransport(sdk, `${location.origin}/join`),
 * });
 * const stop = store.getState().startSync();
 */
export function createDeskStore(options: DeskStoreOptions = {}): DeskStore {
  const now = options.now ?? Date.now;
  let engine: SyncEngine | null = null;
  const commits = { commit: (_change: DeskChange) => {} };
  const store = createDeskStoreApi(options, now, () => engine, commits);
  if (options.sync)
    engine = new SyncEngine(
      { getState: store.getState, commit: commits.commit },
      { sliceScheduler: options.slices ?? null, ...options.sync },
      now,
    );
  return store;
}
