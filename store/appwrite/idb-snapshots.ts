import { promisifyRequest } from 'idb-keyval';
import { measureLatest } from '../sync/marks.ts';
import type { SnapshotStorage, SnapshotWrite, StoredSnapshot } from '../sync/persist.ts';
import {
  deleteAllSnapshots,
  deleteSnapshot,
  firstScreenOf,
  segmentsOf,
  snapshotStore,
  writeSnapshot,
  type WriterReply,
  type WriterRequest,
} from './idb-writes.ts';

/** Where the key of the last snapshot written is remembered, for the next visit to read it early. */
const LAST_KEY = 'livedesk:snapshot-key';

/** Set by {@link clearSnapshots} (sign-out): writes are refused until a new desk opens. */
let blocked = false;

/**
 * The snapshot writes and deletes of this page, one after another in the order asked: through
 * the writer worker (`idb-writer.worker.ts`) where the page can start one, else on the page (a
 * context without workers, or after the worker failed). An urgent write (the page is being left,
 * when a worker may be stopped before it commits) is put on the page at once, and only when
 * nothing else is under way: it is refused otherwise, and what is kept stays the last write that
 * committed (its watermark tells the next visit where to catch up from).
 */
class SnapshotWriter {
  /** undefined: not started yet; null: none (no workers here, or it failed). */
  #worker: Worker | null | undefined = undefined;
  #nextId = 1;
  readonly #replies = new Map<number, (error: string | null) => void>();
  #queue: Promise<unknown> = Promise.resolve();
  #pending = 0;

  write(key: string, write: SnapshotWrite): Promise<void> {
    if (!write.urgent) return this.#enqueue(() => this.#write(key, write));
    if (this.#pending > 0) return Promise.reject(new Error('A snapshot write is under way.'));
    return writeSnapshot(key, write, markPut);
  }

  delete(key: string): Promise<void> {
    return this.#enqueue(() => this.#ask({ id: 0, op: 'delete', key }, () => deleteSnapshot(key)));
  }

  clear(): Promise<void> {
    return this.#enqueue(() => this.#ask({ id: 0, op: 'clear' }, deleteAllSnapshots));
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    this.#pending++;
    const done = this.#queue.then(task).finally(() => this.#pending--);
    this.#queue = done.catch(() => {});
    return done;
  }

  async #write(key: string, write: SnapshotWrite): Promise<void> {
    if (blocked) return;
    const worker = this.#started();
    if (worker === null) return writeSnapshot(key, write, markPut);
    const id = this.#nextId++;
    const { segments, ...rest } = write;
    const reply = this.#reply(id);
    worker.postMessage({ id, op: 'begin', key, write: rest } satisfies WriterRequest);
    for (const [chunk, segment] of segments) {
      // One segment a task: each copy is 1–2 ms of the page's main thread.
      await nextTask();
      const started = performance.now();
      worker.postMessage({ id, op: 'segment', chunk, segment } satisfies WriterRequest);
      markPut(started);
    }
    worker.postMessage({ id, op: 'commit' } satisfies WriterRequest);
    return reply;
  }

  /** `request` through the worker; `here` on the page without one, or when the worker failed it. */
  #ask(request: WriterRequest, here: () => Promise<void>): Promise<void> {
    const worker = this.#started();
    if (worker === null) return here();
    const id = this.#nextId++;
    const reply = this.#reply(id);
    worker.postMessage({ ...request, id });
    return reply.catch(here);
  }

  #reply(id: number): Promise<void> {
    return new Promise((resolve, reject) =>
      this.#replies.set(id, (error) => (error === null ? resolve() : reject(new Error(error)))),
    );
  }

  #started(): Worker | null {
    if (this.#worker !== undefined) return this.#worker;
    if (typeof Worker !== 'function') return (this.#worker = null);
    try {
      const worker = new Worker(new URL('./idb-writer.worker.ts', import.meta.url), {
        type: 'module',
      });
      worker.onmessage = ({ data }: MessageEvent<WriterReply>) => {
        this.#replies.get(data.id)?.(data.error);
        this.#replies.delete(data.id);
      };
      worker.onerror = worker.onmessageerror = () => this.#failed(worker);
      return (this.#worker = worker);
    } catch {
      return (this.#worker = null);
    }
  }

  /** The worker failed: what it had is refused (kept as it was), and the page writes from now on. */
  #failed(worker: Worker): void {
    worker.terminate();
    this.#worker = null;
    for (const reply of this.#replies.values()) reply('The snapshot writer stopped.');
    this.#replies.clear();
  }
}

const writer = new SnapshotWriter();

/** A put (or a hand-over to the worker) on the page, in its timeline for `bench:ui`. */
function markPut(started: number): void {
  measureLatest('snapshot-clone', started);
}

/** Resolves in a task of its own (a message: not throttled like timers in a hidden tab). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
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
      snapshotStore()('readonly', async (objects): Promise<StoredSnapshot | undefined> => {
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
      snapshotStore()('readonly', (objects) => promisifyRequest(objects.get(firstScreenOf(key)))),
    write: (key, write: SnapshotWrite) =>
      blocked
        ? Promise.resolve()
        : writer.write(key, write).then(() => {
            if (!blocked) remember(key);
          }),
    del: (key) => writer.delete(key),
  };
}

/**
 * Deletes every persisted snapshot of this browser (sign-out: the next person on this device
 * sees nothing of the last one's orders), and refuses writes still in flight.
 */
export async function clearSnapshots(): Promise<void> {
  blocked = true;
  remember(null);
  await writer.clear();
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
