import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE, emptyChunkSet, withChunk, type ChunkSet } from './chunks.ts';
import { digestFile, RunningDigests } from './digests.ts';
import { HashWorker } from './hash-worker.ts';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const worker = new HashWorker();
afterAll(() => worker.close());

/** A file of 3 chunks and a half on disk, and its MD5. */
function upload(): { path: string; bytes: Buffer; md5: string } {
  const dir = mkdtempSync(join(tmpdir(), 'livedesk-digests-test-'));
  dirs.push(dir);
  const bytes = randomBytes(3 * CHUNK_SIZE + CHUNK_SIZE / 2);
  const path = join(dir, 'file');
  writeFileSync(path, bytes);
  return { path, bytes, md5: md5(bytes) };
}

/** Records chunks (from 1) in `order`, as the store does once each chunk's bytes are written. */
function record(digests: RunningDigests, path: string, size: number, order: number[]): void {
  let chunks: ChunkSet = emptyChunkSet(Math.ceil(size / CHUNK_SIZE));
  for (const index of order) {
    chunks = withChunk(chunks, index);
    digests.commit('b/f', index, path, chunks, size);
  }
}

describe('RunningDigests', () => {
  it('gives the MD5 of the whole file whatever the order of the chunks', async () => {
    for (const order of [
      [1, 2, 3, 4],
      [4, 3, 2, 1],
      [2, 1, 4, 3],
      [1, 2, 2, 3, 4],
      [1, 3, 2, 1, 4],
      [2, 3],
    ]) {
      const { path, bytes, md5: expected } = upload();
      const digests = new RunningDigests(worker);
      record(digests, path, bytes.length, order);
      const digest = await digests.finish('b/f', path, bytes.length);
      expect(digest.md5, `order ${order.join(',')}`).toBe(expected);
      expect(digest.size).toBe(bytes.length);
      expect(digest.sample.equals(bytes.subarray(0, digest.sample.length))).toBe(true);
    }
  });

  it('hands a chunk to the worker only once those before it are in', async () => {
    const { path, bytes } = upload();
    const digests = new RunningDigests(worker);
    record(digests, path, bytes.length, [1, 3]);
    // chunk 3 waits for chunk 2: bytes written to it meanwhile are the ones hashed
    const now = Buffer.from(bytes).fill(7, 2 * CHUNK_SIZE, 3 * CHUNK_SIZE);
    writeFileSync(path, now);
    record(digests, path, bytes.length, [2, 4]);
    expect((await digests.finish('b/f', path, bytes.length)).md5).toBe(md5(now));
  });

  it('drops the running MD5 when a hashed chunk is recorded again (the file is then read whole)', async () => {
    const { path, bytes, md5: expected } = upload();
    const digests = new RunningDigests(worker);
    record(digests, path, bytes.length, [1, 2]);
    // chunk 1 again: its bytes may have changed since the worker read them
    digests.commit('b/f', 1, path, '1100', bytes.length);
    record(digests, path, bytes.length, [3, 4]);
    expect((await digests.finish('b/f', path, bytes.length)).md5).toBe(expected);
  });

  it('reads the whole file when nothing was kept (after a restart, or dropped), or the worker failed', async () => {
    const { path, bytes, md5: expected } = upload();
    const digests = new RunningDigests(worker);
    record(digests, path, bytes.length, [1, 2]);
    digests.drop('b/f');
    expect((await digests.finish('b/f', path, bytes.length)).md5).toBe(expected);
    expect(await digestFile(path)).toMatchObject({ md5: expected, size: bytes.length });
    const dying = new HashWorker();
    const failing = new RunningDigests(dying);
    record(failing, path, bytes.length, [1, 2]);
    await dying.close();
    expect(await failing.finish('b/f', path, bytes.length)).toMatchObject({
      md5: expected,
      size: bytes.length,
    });
    await failing.close();
  });
});
