import type { Order } from '../../domain/order.ts';

/**
 * The orders snapshot kept between visits: the confirmed orders the table shows and the sync
 * watermark they are complete up to. A returning visit paints from it, then catches up with the
 * delta read by `$updatedAt` a reconnect uses (from `watermark` less the margin).
 */

/**
 * The version of the persisted snapshot's layout (the order record's fields included). Raise it
 * whenever the `Order` record or this envelope changes: a snapshot of another version is
 * discarded and the desk loads cold.
 */
export const SNAPSHOT_VERSION = 1;

/** What is kept, per user and project. */
export interface PersistedOrders {
  version: number;
  /** When it was written (epoch ms, client clock; informative). */
  savedAt: number;
  /**
   * The latest `$updatedAt` (epoch ms, server time) of the orders seen when it was written, with
   * every change up to it applied: a delta read from here (less the margin) misses nothing.
   */
  watermark: number;
  orders: Order[];
}

/**
 * Where snapshots are kept: IndexedDB in the browser (`appwrite/idb-snapshots.ts`), a `Map` in
 * tests ({@link memorySnapshots}). Values are structured-cloned, not serialized to JSON.
 */
export interface SnapshotStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: PersistedOrders): Promise<void>;
  del(key: string): Promise<void>;
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

/** A stored value as a snapshot of `version`, or null (absent, another version or unreadable). */
export function readPersisted(value: unknown, version: number): PersistedOrders | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<PersistedOrders>;
  if (v.version !== version) return null;
  if (typeof v.watermark !== 'number' || !Number.isFinite(v.watermark)) return null;
  if (typeof v.savedAt !== 'number' || !Array.isArray(v.orders)) return null;
  for (const order of v.orders as unknown[]) {
    const o = order as Partial<Order> | null;
    if (
      typeof o !== 'object' ||
      o === null ||
      typeof o.id !== 'string' ||
      typeof o.updatedAt !== 'number' ||
      typeof o.createdAt !== 'number' ||
      typeof o.status !== 'string'
    )
      return null;
    // Records are frozen once, like those converted from documents.
    Object.freeze(order);
  }
  return v as PersistedOrders;
}

/** Snapshots in a `Map` (tests; the engine logic does not depend on IndexedDB). */
export function memorySnapshots(): SnapshotStorage & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: (key) => Promise.resolve(structuredClone(data.get(key))),
    set: (key, value) => {
      data.set(key, structuredClone(value));
      return Promise.resolve();
    },
    del: (key) => {
      data.delete(key);
      return Promise.resolve();
    },
  };
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
