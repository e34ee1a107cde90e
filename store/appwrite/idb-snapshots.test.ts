import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { EntityTable } from '../records/entity-table.ts';
import { firstScreenOf, readFirstScreens } from '../sync/first-screen.ts';
import { encodeSnapshot, readPersisted, SNAPSHOT_VERSION } from '../sync/persist.ts';
import { viewDefOf } from '../views/order-derived.ts';
import { buildOrderIndex, DEFAULT_ORDER_VIEW, orderViewKey } from '../views/order-views.ts';
import { makeOrder } from '../sync/testing/orders.ts';
import { Prng } from '../sync/testing/prng.ts';
import { clearSnapshots, idbSnapshots, lastSnapshotKey } from './idb-snapshots.ts';

const rng = new Prng(3);
const orders = Array.from({ length: 9_000 }, (_, i) =>
  Object.freeze(makeOrder(rng, { number: i + 1, createdAt: 1_000_000 + i, status: 'paid' })),
);

/** A write of every chunk of a snapshot of `count` orders. */
function everything(watermark: number, count = orders.length) {
  const { header, segments } = encodeSnapshot({
    savedAt: watermark,
    watermark,
    orders: orders.slice(0, count),
  });
  return { header, segments, replace: true, urgent: false };
}

const idsOf = async (storage: ReturnType<typeof idbSnapshots>, key: string) =>
  readPersisted(await storage.get(key), SNAPSHOT_VERSION)
    ?.orders.toArray()
    .map((order) => order.id) ?? null;

describe('idbSnapshots (IndexedDB)', () => {
  it('keeps a header and a segment per page; a write puts only the segments it has', async () => {
    const storage = idbSnapshots();
    await storage.write('orders:p1:u1', everything(5));
    expect(await idsOf(storage, 'orders:p1:u1')).toEqual(orders.map((order) => order.id));
    // Only the last page again, under a newer watermark: the others are kept.
    const later = everything(6);
    await storage.write('orders:p1:u1', {
      ...later,
      segments: new Map([[2, later.segments.get(2)!]]),
      // (9,000 orders: more than two pages)
      replace: false,
      urgent: true,
    });
    const stored = await storage.get('orders:p1:u1');
    expect(stored!.segments.size).toBe(later.segments.size);
    expect(stored!.segments.size).toBeGreaterThan(2);
    expect(readPersisted(stored, SNAPSHOT_VERSION)!.watermark).toBe(6);
    // A write that replaces: the segments beyond the new table go.
    await storage.write('orders:p1:u1', everything(7, 100));
    expect((await storage.get('orders:p1:u1'))!.segments.size).toBe(1);
    expect(await idsOf(storage, 'orders:p1:u1')).toHaveLength(100);
    await storage.del('orders:p1:u1');
    expect(await storage.get('orders:p1:u1')).toBeUndefined();
  });

  it('keeps the first screens beside the header, read on their own; deleted with the snapshot', async () => {
    const storage = idbSnapshots();
    const key = 'orders:p1:u5';
    const table = EntityTable.from(orders.slice(0, 500));
    const view = orderViewKey(DEFAULT_ORDER_VIEW);
    const index = buildOrderIndex(viewDefOf(DEFAULT_ORDER_VIEW), table);
    const screen = firstScreenOf({
      version: SNAPSHOT_VERSION,
      savedAt: 5,
      watermark: 5,
      orders: table,
      view,
      index,
      total: 500,
    });
    await storage.write(key, { ...everything(5, 500), firstScreens: [screen] });
    const [read] = readFirstScreens(await storage.getFirstScreens(key), SNAPSHOT_VERSION);
    expect(read).toMatchObject({ view, rows: 500, total: 500 });
    // Newest first.
    expect(read!.orders[0]!.id).toBe(orders[499]!.id);
    // Not a segment: the snapshot reads as before.
    expect((await storage.get(key))!.segments.size).toBe(1);
    expect(await idsOf(storage, key)).toHaveLength(500);
    // A write without one leaves none (never a first screen older than the header).
    await storage.write(key, { ...everything(6, 500), replace: false });
    expect(await storage.getFirstScreens(key)).toBeUndefined();
    await storage.write(key, { ...everything(7, 500), firstScreens: [screen] });
    await storage.del(key);
    expect(await storage.getFirstScreens(key)).toBeUndefined();
    await storage.write(key, { ...everything(8, 500), firstScreens: [screen] });
    await clearSnapshots();
    expect(await storage.getFirstScreens(key)).toBeUndefined();
  });

  it('keeps a snapshot per key; sign-out clears them all and refuses late writes', async () => {
    const storage = idbSnapshots();
    await storage.write('orders:p1:u1', everything(1));
    await storage.write('orders:p1:u2', everything(2));
    await clearSnapshots();
    expect(await storage.get('orders:p1:u1')).toBeUndefined();
    expect(await storage.get('orders:p1:u2')).toBeUndefined();
    // A write still scheduled by the signed-out desk is dropped.
    await storage.write('orders:p1:u1', everything(3));
    expect(await storage.get('orders:p1:u1')).toBeUndefined();
    // The next desk writes again.
    const next = idbSnapshots();
    await next.write('orders:p1:u3', everything(4));
    expect(await idsOf(next, 'orders:p1:u3')).toHaveLength(orders.length);
  });

  it('remembers the key of the last snapshot written, for the next visit; sign-out forgets it', async () => {
    const kept = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => kept.set(k, v),
      removeItem: (k: string) => kept.delete(k),
    });
    try {
      const storage = idbSnapshots();
      expect(lastSnapshotKey()).toBeNull();
      await storage.write('orders:p1:u9', everything(1, 10));
      expect(lastSnapshotKey()).toBe('orders:p1:u9');
      await clearSnapshots();
      expect(lastSnapshotKey()).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('does writes one after another; refuses an urgent one while another is under way; clears after what came before', async () => {
    const storage = idbSnapshots();
    const first = storage.write('orders:p2:u1', everything(7));
    const urgent = storage.write('orders:p2:u1', { ...everything(8), urgent: true });
    await expect(urgent).rejects.toThrow(/under way/);
    await first;
    expect(readPersisted(await storage.get('orders:p2:u1'), SNAPSHOT_VERSION)?.watermark).toBe(7);
    // Nothing under way: the urgent write is put at once.
    await storage.write('orders:p2:u1', { ...everything(9), urgent: true });
    expect(readPersisted(await storage.get('orders:p2:u1'), SNAPSHOT_VERSION)?.watermark).toBe(9);
    // A write asked for before sign-out is done before the clear, never after it.
    const late = storage.write('orders:p2:u2', everything(10));
    await clearSnapshots();
    await late;
    expect(await storage.get('orders:p2:u1')).toBeUndefined();
    expect(await storage.get('orders:p2:u2')).toBeUndefined();
  });
});
