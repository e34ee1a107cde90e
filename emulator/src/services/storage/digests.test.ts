import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE, chunkOf, emptyChunkSet, withChunk, type ChunkSet } from './chunks.ts';
import { digestFile, RunningDigests } from './digests.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A file of 3 chunks and a half on disk, and its MD5. */
function upload(): { path: string; bytes: Buffer; md5: string } {
  const dir = mkdtempSync(join(tmpdir(), 'livedesk-digests-test-'));
  dirs.push(dir);
  const bytes = randomBytes(3 * CHUNK_SIZE + CHUNK_SIZE / 2);
  const path = join(dir, 'file');
  writeFileSync(path, bytes);
  return { path, bytes, md5: createHash('md5').update(bytes).digest('hex') };
}

/** Feeds chunks (from 1) to `digests` in `order`, as the store does after writing each. */
function feed(digests: RunningDigests, path: string, bytes: Buffer, order: number[]): void {
  let chunks: ChunkSet = emptyChunkSet(Math.ceil(bytes.length / CHUNK_SIZE));
  for (const index of order) {
    const start = (index - 1) * CHUNK_SIZE;
    const end = Math.min(start + CHUNK_SIZE, bytes.length) - 1;
    const position = chunkOf({ start, end, size: bytes.length });
    chunks = withChunk(chunks, index);
    digests.advance('b/f', path, chunks, position, bytes.subarray(start, end + 1));
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
    ]) {
      const { path, bytes, md5 } = upload();
      const digests = new RunningDigests();
      feed(digests, path, bytes, order);
      const digest = await digests.finish('b/f', path);
      expect(digest.md5, `order ${order.join(',')}`).toBe(md5);
      expect(digest.size).toBe(bytes.length);
      expect(digest.sample.equals(bytes.subarray(0, digest.sample.length))).toBe(true);
    }
  });

  it('reads the whole file when nothing was kept (after a restart, or dropped)', async () => {
    const { path, bytes, md5 } = upload();
    const digests = new RunningDigests();
    feed(digests, path, bytes, [1, 2]);
    digests.drop('b/f');
    expect((await digests.finish('b/f', path)).md5).toBe(md5);
    expect(await digestFile(path)).toMatchObject({ md5, size: bytes.length });
  });
});
