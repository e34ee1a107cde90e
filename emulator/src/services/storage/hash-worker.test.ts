import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HashWorker } from './hash-worker.ts';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'hash-worker-'));
const worker = new HashWorker();
afterAll(async () => {
  await worker.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HashWorker', () => {
  it('hashes the ranges added to a key, in order, across files', async () => {
    const a = randomBytes(3 * 1024 * 1024 + 5);
    const b = randomBytes(1000);
    writeFileSync(join(dir, 'a'), a);
    writeFileSync(join(dir, 'b'), b);
    worker.add('k1', join(dir, 'a'), 0, 1024 * 1024 + 1);
    worker.add('k2', join(dir, 'b'), 0, 1000);
    worker.add('k1', join(dir, 'a'), 1024 * 1024 + 1, a.length);
    worker.add('k1', join(dir, 'b'), 10, 20);
    worker.add('k1', join(dir, 'b'), 5, 5); // nothing
    const [one, two] = await Promise.all([worker.digest('k1'), worker.digest('k2')]);
    expect(one).toBe(md5(Buffer.concat([a, b.subarray(10, 20)])));
    expect(two).toBe(md5(b));
    // forgotten once digested: a fresh MD5 of nothing
    expect(await worker.digest('k1')).toBe(md5(Buffer.alloc(0)));
  });

  it('fails a digest whose file went or is shorter than the range, and drops a key', async () => {
    writeFileSync(join(dir, 'short'), randomBytes(100));
    worker.add('gone', join(dir, 'missing'), 0, 10);
    await expect(worker.digest('gone')).rejects.toThrow(/ENOENT/);
    worker.add('short', join(dir, 'short'), 0, 200);
    await expect(worker.digest('short')).rejects.toThrow(/ends at 100/);
    worker.add('dropped', join(dir, 'short'), 0, 100);
    worker.drop('dropped');
    expect(await worker.digest('dropped')).toBe(md5(Buffer.alloc(0)));
  });

  it('fails a digest whose adds went to a worker that is gone', async () => {
    const bytes = randomBytes(64);
    writeFileSync(join(dir, 'c'), bytes);
    const own = new HashWorker();
    own.add('k', join(dir, 'c'), 0, 32);
    await own.close();
    await expect(own.digest('k')).rejects.toThrow(/restarted/);
    own.add('k2', join(dir, 'c'), 0, 32);
    await own.close();
    own.add('k2', join(dir, 'c'), 32, 64);
    await expect(own.digest('k2')).rejects.toThrow(/restarted/);
    own.add('k3', join(dir, 'c'), 0, 64);
    expect(await own.digest('k3')).toBe(md5(bytes));
    await own.close();
  });
});
