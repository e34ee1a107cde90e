import type { Order } from '../../domain/order.ts';
import { EntityTable, type Chunk } from '../records/entity-table.ts';
import { drain, runSliced, type Job, type SliceScheduler } from '../views/sliced.ts';
import { readFirstScreens, type FirstScreen, type StoredFirstScreen } from './first-screen.ts';
import { mark } from './marks.ts';
import {
  PAGE_CHUNKS,
  SnapshotDecoder,
  SnapshotEncoder,
  type Dictionaries,
  type Segment,
} from './snapshot-codec.ts';

/**
 * The orders snapshot kept between visits: the confirmed orders the table shows and the sync
 * watermark they are complete up to. A returning visit paints from it, then catches up with the
 * delta read by `$updatedAt` a reconnect uses (from `watermark` less the margin). It is kept as
 * the store's table is held: one segment per page of its chunks (`snapshot-codec.ts`), so a write
 * puts only the pages that changed since the last one, and a header.
 */

/**
 * The version of the persisted snapshot's layout (the order record's fields included). Raise it
 * whenever the `Order` record, the segments or the header change: a snapshot of another version
 * is discarded and the desk loads cold.
 */
export const SNAPSHOT_VERSION = 3;

/** What is kept besides the segments, per user and project. */
export interface SnapshotHeader {
  version: number;
  /** When it was written (epoch ms, client clock; informative). */
  savedAt: number;
  /**
   * The latest `$updatedAt` (epoch ms, server time) of the orders seen when it was written, with
   * every change up to it applied: a delta read from here (less the margin) misses nothing.
   */
  watermark: number;
  /** The table's chunks, in segments of {@link PAGE_CHUNKS} (segments beyond are left over). */
  chunks: number;
  /** The distinct values the segments' dictionary columns point into. */
  dictionaries: Dictionaries;
}

/** The kept snapshot as storage gives it back: the header and the segments by page index. */
export interface StoredSnapshot {
  header: unknown;
  segments: ReadonlyMap<number, unknown>;
}

/** A write: the header and the segments of the pages that changed (all, with `replace`). */
export interface SnapshotWrite {
  header: SnapshotHeader;
  segments: ReadonlyMap<number, Segment>;
  /** Delete every segment kept under the key first (the kept ones are not this table's). */
  replace: boolean;
  /** The page is being left: put everything at once, without giving the event loop a turn. */
  urgent: boolean;
  /**
   * The table's first screens (`first-screen.ts`): the default view's and the view shown now,
   * kept beside the header.
   */
  firstScreens?: readonly StoredFirstScreen[];
}

/**
 * Where snapshots are kept: IndexedDB in the browser (`appwrite/idb-snapshots.ts`), a `Map` in
 * tests ({@link memorySnapshots}). Values are structured-cloned, not serialized to JSON; a write
 * is one transaction (the header and its segments, or nothing).
 */
export interface SnapshotStorage {
  get(key: string): Promise<StoredSnapshot | undefined>;
  /** The first screens kept with the snapshot under `key` (undefined: none), read on their own. */
  getFirstScreens(key: string): Promise<unknown>;
  write(key: string, write: SnapshotWrite): Promise<void>;
  del(key: string): Promise<void>;
}

/** A snapshot read back: its table of orders, and an encoder that continues its dictionaries. */
export interface RestoredSnapshot {
  savedAt: number;
  watermark: number;
  orders: EntityTable<Order>;
  encoder: SnapshotEncoder;
}

/**
 * A snapshot read and decoded ahead of the desk (while the app starts and checks the session):
 * `take` gives it once, to an engine persisting under the same key and version.
 */
export interface PrefetchedSnapshot {
  readonly key: string;
  readonly version: number;
  take(): Promise<PrefetchedRead> | null;
  /** The first screens kept with it (of this version), read before the snapshot. */
  takeFirstScreens(): Promise<FirstScreen[]> | null;
}

/** What a prefetch read: whether anything was kept, and the snapshot when it is one to use. */
export interface PrefetchedRead {
  found: boolean;
  restored: RestoredSnapshot | null;
}

/** The first screens kept under `key`, those of `version` (none when they cannot be read). */
export function readKeptFirstScreens(
  storage: SnapshotStorage,
  key: string,
  version: number,
): Promise<FirstScreen[]> {
  return storage.getFirstScreens(key).then(
    (stored) => readFirstScreens(stored, version),
    () => [],
  );
}

/**
 * The snapshot kept under `key`: read, then decoded a page a step in `slices` (rejects when
 * storage cannot be read).
 */
export function readKeptSnapshot(
  storage: SnapshotStorage,
  key: string,
  version: number,
  slices: SliceScheduler | null,
): Promise<PrefetchedRead> {
  return storage.get(key).then(async (stored) => {
    mark('snapshot-read');
    const restored = await decodeInSlices(stored, version, slices);
    mark('snapshot-decoded');
    return { found: stored !== undefined, restored };
  });
}

/** {@link readPersistedJob} run a page a step in `slices` (at once without). */
function decodeInSlices(
  stored: StoredSnapshot | undefined,
  version: number,
  slices: SliceScheduler | null,
): Promise<RestoredSnapshot | null> {
  return new Promise((resolve) => runSliced(readPersistedJob(stored, version), resolve, slices));
}

/**
 * The server-kept snapshot `read` gives, decoded a page a step in `slices`; null when there is
 * none, it is of another version or unreadable, or the read fails.
 */
export function readServerSnapshot(
  read: () => Promise<StoredSnapshot | undefined>,
  version: number,
  slices: SliceScheduler | null,
): Promise<RestoredSnapshot | null> {
  return read().then(
    async (stored) => {
      mark('server-snapshot-read');
      const restored = await decodeInSlices(stored, version, slices);
      mark('server-snapshot-decoded');
      return restored;
    },
    () => null,
  );
}

/**
 * Starts reading the first screens kept under `key` now, so that a desk opening a moment later
 * (once the session is known) paints them without waiting for IndexedDB; the snapshot itself is
 * read and decoded after them when there are none, else once the desk takes it (after painting
 * a first screen: a large read's copies would hold up the page's start on the main thread).
 * Nothing of it is shown unless that desk is the same user's ({@link PersistOptions.prefetched}).
 */
export function prefetchSnapshot(
  storage: SnapshotStorage,
  key: string,
  version = SNAPSHOT_VERSION,
  slices: SliceScheduler | null = null,
): PrefetchedSnapshot {
  mark('snapshot-prefetch');
  let read: Promise<PrefetchedRead> | null = null;
  let taken = false;
  const startRead = () =>
    (read ??= readKeptSnapshot(storage, key, version, slices).catch(() => ({
      found: false,
      restored: null,
    })));
  let screens: Promise<FirstScreen[]> | null = readKeptFirstScreens(storage, key, version);
  void screens.then((kept) => {
    if (kept.length === 0 && !taken) startRead();
  });
  return {
    key,
    version,
    take() {
      if (taken) return null;
      taken = true;
      return startRead();
    },
    takeFirstScreens() {
      const given = screens;
      screens = null;
      return given;
    },
  };
}

/** How the engine persists its orders. */
export interface PersistOptions {
  storage: SnapshotStorage;
  /** Per user and project: {@link snapshotKey}. */
  key: string;
  /** The layout version written and accepted (default {@link SNAPSHOT_VERSION}). */
  version?: number;
  /** At most one write per this many ms (default 5,000). */
  throttleMs?: number;
  /** A read of this key started earlier ({@link prefetchSnapshot}), used instead of reading. */
  prefetched?: PrefetchedSnapshot | null;
  /**
   * The desk's server-kept snapshot (undefined: none to be had), read when nothing of this
   * version is kept here (a first visit on this device): the desk starts from it as from a kept
   * one and catches up from its watermark. It is not written here until the first write.
   */
  serverSnapshot?: () => Promise<StoredSnapshot | undefined>;
  /**
   * Calls back when the page is being hidden or left (a last write); returns the cleanup.
   * Default: `pagehide` and `visibilitychange` → hidden, in a browser.
   */
  onHide?: (callback: () => void) => () => void;
}

/** The key of one user's snapshot of one project. */
export function snapshotKey(projectId: string, userId: string): string {
  return `orders:${projectId}:${userId}`;
}

/**
 * A stored snapshot as a table of orders, when it is one of `version` (else null: absent, another
 * version, or unreadable — a segment that does not decode, an id in two slots).
 */
export function readPersisted(
  stored: StoredSnapshot | undefined,
  version: number,
): RestoredSnapshot | null {
  return drain(readPersistedJob(stored, version));
}

/**
 * {@link readPersisted} as a job yielding after each page decoded (a few ms each), so that a
 * returning visit decodes its snapshot in slices while the first screen is shown.
 */
export function* readPersistedJob(
  stored: StoredSnapshot | undefined,
  version: number,
): Job<RestoredSnapshot | null> {
  if (stored === undefined) return null;
  const h = stored.header as Partial<SnapshotHeader> | null;
  if (typeof h !== 'object' || h === null || h.version !== version) return null;
  if (typeof h.watermark !== 'number' || !Number.isFinite(h.watermark)) return null;
  if (typeof h.savedAt !== 'number') return null;
  if (typeof h.chunks !== 'number' || !Number.isInteger(h.chunks) || h.chunks < 0) return null;
  let decoder: SnapshotDecoder;
  try {
    decoder = new SnapshotDecoder(h.dictionaries);
  } catch {
    return null;
  }
  const chunks: Chunk<Order>[] = [];
  for (let p = 0; chunks.length < h.chunks; p++) {
    const segment = stored.segments.get(p);
    if (segment === undefined) return null;
    let page: Chunk<Order>[];
    try {
      page = decoder.decode(segment);
    } catch {
      return null;
    }
    if (page.length !== Math.min(PAGE_CHUNKS, h.chunks - chunks.length)) return null;
    for (const chunk of page) chunks.push(chunk);
    yield;
  }
  const orders = EntityTable.fromChunks(chunks);
  if (orders === null) return null;
  return {
    savedAt: h.savedAt,
    watermark: h.watermark,
    orders,
    encoder: new SnapshotEncoder(h.dictionaries),
  };
}

/** The chunks of page `p` of `table` ({@link PAGE_CHUNKS} of them, fewer in the last page). */
export function pageOf<T extends Order>(table: EntityTable<T>, p: number): Chunk<T>[] {
  const chunks: Chunk<T>[] = [];
  for (let c = p * PAGE_CHUNKS; c < Math.min(table.chunkCount, (p + 1) * PAGE_CHUNKS); c++)
    chunks.push(table.chunkAt(c));
  return chunks;
}

/** What {@link encodeSnapshot} makes: a stored snapshot of some orders. */
export interface SnapshotOf {
  version?: number;
  savedAt: number;
  watermark: number;
  orders: readonly Order[];
}

/**
 * A snapshot of `orders` as storage keeps it, every chunk of a table of them (tests, and a
 * snapshot written in one go).
 */
export function encodeSnapshot(snapshot: SnapshotOf): {
  header: SnapshotHeader;
  segments: Map<number, Segment>;
} {
  const table = EntityTable.from(snapshot.orders);
  const encoder = new SnapshotEncoder();
  const segments = new Map<number, Segment>();
  for (let p = 0; p * PAGE_CHUNKS < table.chunkCount; p++)
    segments.set(p, encoder.encode(pageOf(table, p)));
  return {
    header: {
      version: snapshot.version ?? SNAPSHOT_VERSION,
      savedAt: snapshot.savedAt,
      watermark: snapshot.watermark,
      chunks: table.chunkCount,
      dictionaries: encoder.dictionaries(),
    },
    segments,
  };
}

/** Snapshots in a `Map` (tests; the engine logic does not depend on IndexedDB). */
export function memorySnapshots(): SnapshotStorage & {
  data: Map<string, { header: unknown; segments: Map<number, unknown>; firstScreens?: unknown }>;
  /** Keeps `snapshot` under `key`, as a write of every chunk would. */
  keep(
    key: string,
    snapshot: SnapshotOf | { header: unknown; segments: Map<number, unknown> },
  ): void;
  /** The orders and watermark kept under `key` (of `version`), or null. */
  read(key: string, version?: number): { watermark: number; orders: Order[] } | null;
} {
  const data = new Map<
    string,
    { header: unknown; segments: Map<number, unknown>; firstScreens?: unknown }
  >();
  const storage = {
    data,
    getFirstScreens: (key: string) => {
      const kept = data.get(key)?.firstScreens;
      return Promise.resolve(kept === undefined ? undefined : structuredClone(kept));
    },
    get: (key: string) => {
      const kept = data.get(key);
      return Promise.resolve(
        kept === undefined
          ? undefined
          : { header: structuredClone(kept.header), segments: structuredClone(kept.segments) },
      );
    },
    write: (key: string, write: SnapshotWrite) => {
      const kept = (write.replace ? undefined : data.get(key)) ?? {
        header: null,
        segments: new Map<number, unknown>(),
      };
      const segments = new Map(kept.segments);
      for (const [c, segment] of write.segments) segments.set(c, structuredClone(segment));
      data.set(key, {
        header: structuredClone(write.header),
        segments,
        // A write without one leaves none: a first screen older than the header is never kept.
        ...(write.firstScreens?.length
          ? { firstScreens: structuredClone(write.firstScreens) }
          : {}),
      });
      return Promise.resolve();
    },
    del: (key: string) => {
      data.delete(key);
      return Promise.resolve();
    },
    keep: (
      key: string,
      snapshot: SnapshotOf | { header: unknown; segments: Map<number, unknown> },
    ) => {
      data.set(key, 'orders' in snapshot ? encodeSnapshot(snapshot) : snapshot);
    },
    read: (key: string, version = SNAPSHOT_VERSION) => {
      const kept = data.get(key);
      const restored = readPersisted(kept, version);
      return restored && { watermark: restored.watermark, orders: restored.orders.toArray() };
    },
  };
  return storage;
}

/** In a browser: the page is hidden or left. */
export function browserHide(callback: () => void): () => void {
  if (typeof window === 'undefined') return () => {};
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') callback();
  };
  window.addEventListener('pagehide', callback);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('pagehide', callback);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
