import { clear, createStore, promisifyRequest, type UseStore } from 'idb-keyval';
import { measureLatest, timelineNow } from '../sync/marks.ts';
import type { SnapshotStorage, SnapshotWrite, StoredSnapshot } from '../sync/persist.ts';

/** The IndexedDB database and object store the desk's snapshots are kept in. */
const DB_NAME = 'livedesk-snapshots';
const STORE_NAME = 'snapshots';
/**
 * Segments put per task of a write (a page of about 0.27 MB: its structured clone takes 18–21 ms
 * on 2 loaded cores); the next is put from the last put's success callback, a task of its own,
 * which keeps the transaction alive.
 */
const SEGMENTS_PER_TASK = 1;

/** Where the key of the last snapshot written is remembered, for the next visit to read it early. */
const LAST_KEY = 'livedesk:snapshot-key';

let db: UseStore | null = null;
/** Set by {@link clearSnapshots} (sign-out): writes are refused until a new desk opens. */
let blocked = false;

function store(): UseStore {
  return (db ??= createStore(DB_NAME, STORE_NAME));
}

/** The key of `key`'s first screen (a string after every segment's page number). */
function firstScreenOf(key: string): IDBValidKey {
  return [key, 'screen'];
}

/** The keys of `key`'s segments: `[key, chunk]` (arrays sort after every string key). */
function segmentsOf(key: string): IDBKeyRange {
  return IDBKeyRange.bound([key, 0], [key, Infinity]);
}

/** Puts `entries` in batches, a task each (all at once when `urgent`); resolves when all are put. */
function putAll(
  objects: IDBObjectStore,
  entries: readonly [IDBValidKey, unknown][],
  urgent: boolean,
): void {
  let next = 0;
  const batch = () => {
    const started = timelineNow();
    const end = urgent ? entries.length : Math.min(entries.length, next + SEGMENTS_PER_TASK);
    let last: IDBRequest | null = null;
    for (; next < end; next++) last = objects.put(entries[next]![1], entries[next]![0]);
    measureLatest('snapshot-clone', started);
    if (last && next < entries.length) last.onsuccess = batch;
  };
  batch();
}

/**
 * The persisted snapshots in IndexedDB (`idb-keyval`'s database, one object store): per snapshot
 * key (one per user and project) the header under the key, each segment under `[key, chunk]` and
 * the table's first screen under `[key, 'screen']`.
 * A write is one transaction; a read reads the header and the segments in one. Opening it allows
 * writes again after a sign-out.
 */
export function idbSnapshots(): SnapshotStorage {
  blocked = false;
  return {
    get: (key) =>
      store()('readonly', async (objects): Promise<StoredSnapshot | undefined> => {
        const range = segmentsOf(key);
        const [header, keys, values] = await Promise.all([
          promisifyRequest(objects.get(key)),
          promisifyRequest(objects.getAllKeys(range)),
          promisifyRequest(objects.getAll(range)),
        ]);
        if (header === undefined) return undefined;
        const segments = new Map<number, unknown>();
        keys.forEach((k, i) => segments.set((k as [string, number])[1], values[i]));
        return { header, segments };
      }),
    getFirstScreens: (key) =>
      store()('readonly', (objects) => promisifyRequest(objects.get(firstScreenOf(key)))),
    write: (key, write: SnapshotWrite) =>
      blocked
        ? Promise.resolve()
        : store()('readwrite', (objects) => {
            if (write.replace) objects.delete(segmentsOf(key));
            const entries: [IDBValidKey, unknown][] = [];
            for (const [chunk, segment] of write.segments) entries.push([[key, chunk], segment]);
            if (write.firstScreens?.length) entries.push([firstScreenOf(key), write.firstScreens]);
            else objects.delete(firstScreenOf(key));
            entries.push([key, write.header]);
            putAll(objects, entries, write.urgent);
            return promisifyRequest(objects.transaction).then(() => remember(key));
          }),
    del: (key) =>
      store()('readwrite', (objects) => {
        objects.delete(key);
        objects.delete(segmentsOf(key));
        objects.delete(firstScreenOf(key));
        return promisifyRequest(objects.transaction);
      }),
  };
}

/**
 * Deletes every persisted snapshot of this browser (sign-out: the next person on this device
 * sees nothing of the last one's orders), and refuses writes still in flight.
 */
export async function clearSnapshots(): Promise<void> {
  blocked = true;
  remember(null);
  await clear(store());
}

function remember(key: string | null): void {
  try {
    if (key === null) localStorage.removeItem(LAST_KEY);
    else if (localStorage.getItem(LAST_KEY) !== key) localStorage.setItem(LAST_KEY, key);
  } catch {
    // No localStorage (tests, a locked-down browser): nothing is read early.
  }
}

/** The key of the last snapshot this browser wrote (to read it early on the next visit), or null. */
export function lastSnapshotKey(): string | null {
  try {
    return localStorage.getItem(LAST_KEY);
  } catch {
    return null;
  }
}
