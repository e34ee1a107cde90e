import { describe, expect, it } from 'vitest';
import { encodeSnapshot, readPersisted, SNAPSHOT_VERSION } from './persist.ts';
import { decodeSnapshotFile, encodeSnapshotFile } from './snapshot-file.ts';
import { makeOrder } from './testing/orders.ts';
import { Prng } from './testing/prng.ts';

const rng = new Prng(11);
const orders = Array.from({ length: 5_000 }, (_, i) =>
  Object.freeze({
    ...makeOrder(rng, { number: i + 1, createdAt: 1_000_000 + i, status: 'paid' }),
    customerName: i % 7 === 0 ? `Zoë Ñúñez ${i} — 田中` : `Customer ${i}`,
  }),
);

describe('snapshot files', () => {
  it('carry a snapshot whole: read back, it restores the same orders', () => {
    const written = encodeSnapshot({ savedAt: 7, watermark: 1_004_999, orders });
    expect(written.segments.size).toBeGreaterThan(1);
    const stored = decodeSnapshotFile(encodeSnapshotFile(written).buffer);
    expect(stored.header).toEqual(written.header);
    const restored = readPersisted(stored, SNAPSHOT_VERSION);
    expect(restored?.watermark).toBe(1_004_999);
    expect(restored?.orders.toArray()).toEqual(orders);
  });

  it('refuse bytes that are not a whole snapshot file', () => {
    const file = encodeSnapshotFile(encodeSnapshot({ savedAt: 1, watermark: 1, orders }));
    expect(() => decodeSnapshotFile(new TextEncoder().encode('{"orders":[]}').buffer)).toThrow(
      /Not a snapshot file/,
    );
    expect(() => decodeSnapshotFile(file.slice(0, file.length - 10).buffer)).toThrow(/cut short/);
    const longer = new Uint8Array(file.length + 1);
    longer.set(file);
    expect(() => decodeSnapshotFile(longer.buffer)).toThrow(/bytes after/);
  });
});
