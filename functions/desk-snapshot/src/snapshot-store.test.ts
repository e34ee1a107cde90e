import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { holdsBytes, snapshotFileName, watermarkOfStored } from './snapshot-store.ts';

const bytes = new TextEncoder().encode('LDS snapshot bytes');
const md5 = createHash('md5').update(bytes).digest('hex');
const stored = { sizeOriginal: bytes.length, chunksTotal: 1, chunksUploaded: 1, signature: md5 };

describe('holdsBytes', () => {
  it('knows a complete file of these bytes by its size and MD5', () => {
    expect(holdsBytes(stored, bytes)).toBe(true);
  });

  it("tells an unfinished upload, another size or another file's bytes", () => {
    expect(holdsBytes({ ...stored, chunksTotal: 2 }, bytes)).toBe(false);
    expect(holdsBytes({ ...stored, sizeOriginal: bytes.length + 1 }, bytes)).toBe(false);
    const other = createHash('md5').update('other bytes').digest('hex');
    expect(holdsBytes({ ...stored, signature: other }, bytes)).toBe(false);
  });
});

describe("the stored file's watermark", () => {
  it('is in its name, read back from a whole file only', () => {
    const name = snapshotFileName(1_764_495_180_123);
    expect(name).toBe('orders.1764495180123.snapshot');
    expect(watermarkOfStored({ name, chunksTotal: 4, chunksUploaded: 4 })).toBe(1_764_495_180_123);
    expect(watermarkOfStored({ name, chunksTotal: 4, chunksUploaded: 3 })).toBeNull();
    expect(
      watermarkOfStored({ name: 'orders.snapshot', chunksTotal: 1, chunksUploaded: 1 }),
    ).toBeNull();
  });
});
