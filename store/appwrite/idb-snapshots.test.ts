import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_VERSION, type PersistedOrders } from '../sync/persist.ts';
import { clearSnapshots, idbSnapshots } from './idb-snapshots.ts';

const snapshot = (watermark: number): PersistedOrders => ({
  version: SNAPSHOT_VERSION,
  savedAt: watermark,
  watermark,
  orders: [],
});

describe('idbSnapshots (IndexedDB)', () => {
  it('keeps a snapshot per key; sign-out clears them all and refuses late writes', async () => {
    const storage = idbSnapshots();
    await storage.set('orders:p1:u1', snapshot(1));
    await storage.set('orders:p1:u2', snapshot(2));
    expect(await storage.get('orders:p1:u1')).toEqual(snapshot(1));
    await clearSnapshots();
    expect(await storage.get('orders:p1:u1')).toBeUndefined();
    expect(await storage.get('orders:p1:u2')).toBeUndefined();
    // A write still scheduled by the signed-out desk is dropped.
    await storage.set('orders:p1:u1', snapshot(3));
    expect(await storage.get('orders:p1:u1')).toBeUndefined();
    // The next desk writes again.
    const next = idbSnapshots();
    await next.set('orders:p1:u3', snapshot(4));
    expect(await next.get('orders:p1:u3')).toEqual(snapshot(4));
    await next.del('orders:p1:u3');
    expect(await next.get('orders:p1:u3')).toBeUndefined();
  });
});
