import { createStore, promisifyRequest, type UseStore } from 'idb-keyval';
import type { SnapshotWrite } from '../sync/persist.ts';

/**
 * The writes to the desk's IndexedDB database, the same on the page and in its writer worker
 * (`idb-writer.worker.ts`): per snapshot key (one per user and project) the header under the key,
 * each segment under `[key, chunk]` and the table's first screen under `[key, 'screen']`.
 */

/** The IndexedDB database and object store the desk's snapshots are kept in. */
const DB_NAME = 'livedesk-snapshots';
const STORE_NAME = 'snapshots';

let db: UseStore | null = null;

/** The object store, in idb-keyval's form (one database, one store, opened once per context). */
export function snapshotStore(): UseStore {
  return (db ??= createStore(DB_NAME, STORE_NAME));
}

/** The key of `key`'s first screen (a string after every segment's page number). */
export function firstScreenOf(key: string): IDBValidKey {
  return [key, 'screen'];
}

/** The keys of `key`'s segments: `[key, chunk]` (arrays sort after every string key). */
export function segmentsOf(key: string): IDBKeyRange {
  return IDBKeyRange.bound([key, 0], [key, Infinity]);
}

/**
 * Writes `write` under `key` in one transaction; resolves when it is committed. Unless
 * `write.urgent`, one segment is put a task (the next from the last put's success callback, which
 * keeps the transaction alive): on the page, a put of a 0.27 MB segment holds the main thread
 * 5–50 ms. `onPut` gets each task's start (`performance.now()`), for the page's marks.
 */
export function writeSnapshot(
  key: string,
  write: SnapshotWrite,
  onPut?: (started: number) => void,
): Promise<void> {
  return snapshotStore()('readwrite', (objects) => {
    if (write.replace) objects.delete(segmentsOf(key));
    const entries: [IDBValidKey, unknown][] = [];
    for (const [chunk, segment] of write.segments) entries.push([[key, chunk], segment]);
    if (write.firstScreens?.length) entries.push([firstScreenOf(key), write.firstScreens]);
    else objects.delete(firstScreenOf(key));
    entries.push([key, write.header]);
    let next = 0;
    const batch = () => {
      const started = performance.now();
      const end = write.urgent ? entries.length : next + 1;
      let last: IDBRequest | null = null;
      for (; next < end; next++) last = objects.put(entries[next]![1], entries[next]![0]);
      onPut?.(started);
      if (last && next < entries.length) last.onsuccess = batch;
    };
    batch();
    return promisifyRequest(objects.transaction);
  });
}

/** Deletes what is kept under `key`. */
export function deleteSnapshot(key: string): Promise<void> {
  return snapshotStore()('readwrite', (objects) => {
    objects.delete(key);
    objects.delete(segmentsOf(key));
    objects.delete(firstScreenOf(key));
    return promisifyRequest(objects.transaction);
  });
}

/** Deletes every snapshot kept in this browser. */
export function deleteAllSnapshots(): Promise<void> {
  return snapshotStore()('readwrite', (objects) => {
    objects.clear();
    return promisifyRequest(objects.transaction);
  });
}

/** A request to the writer worker: one a message, answered with {@link WriterReply}. */
export type WriterRequest =
  | { id: number; op: 'begin'; key: string; write: Omit<SnapshotWrite, 'segments'> }
  | { id: number; op: 'segment'; chunk: number; segment: unknown }
  | { id: number; op: 'commit' }
  | { id: number; op: 'delete'; key: string }
  | { id: number; op: 'clear' };

/** The worker's answer to a `commit`, `delete` or `clear`: done, or the error's message. */
export interface WriterReply {
  id: number;
  error: string | null;
}
