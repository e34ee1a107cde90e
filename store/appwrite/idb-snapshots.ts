import { clear, createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { PersistedOrders, SnapshotStorage } from '../sync/persist.ts';

/** The IndexedDB database and object store the desk's snapshots are kept in. */
const DB_NAME = 'livedesk-snapshots';
const STORE_NAME = 'snapshots';

let db: UseStore | null = null;
/** Set by {@link clearSnapshots} (sign-out): writes are refused until a new desk opens. */
let blocked = false;

function store(): UseStore {
  return (db ??= createStore(DB_NAME, STORE_NAME));
}

/**
 * The persisted snapshots in IndexedDB (`idb-keyval`, one object store, a key per user and
 * project). Opening it allows writes again after a sign-out.
 */
export function idbSnapshots(): SnapshotStorage {
  blocked = false;
  return {
    get: (key) => get(key, store()),
    set: (key, value: PersistedOrders) => (blocked ? Promise.resolve() : set(key, value, store())),
    del: (key) => del(key, store()),
  };
}

/**
 * Deletes every persisted snapshot of this browser (sign-out: the next person on this device
 * sees nothing of the last one's orders), and refuses writes still in flight.
 */
export async function clearSnapshots(): Promise<void> {
  blocked = true;
  await clear(store());
}
