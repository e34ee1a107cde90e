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

/**
 * Feeds chunks (from 1) to `digests` in `order`, as the store does: each begun as its bytes
 * arrive (hashed then when it is the next one), committed once written; `overlap` begins every
 * chunk before any is committed (all in flight at once).
 */
async function feed(
  digests: RunningDigests,
  path: string,
  bytes: Buffer,
  order: number[],
  overlap = false,
): Promise<void> {
  let chunks: ChunkSet = emptyChunkSet(Math.ceil(bytes.length / CHUNK_SIZE));
  const begun = (index: number) => {
    const position = chunkOf({
      start: (index - 1) * CHUNK_SIZE,
      end: Math.min(index * CHUNK_SIZE, bytes.length) - 1,
      size: bytes.length,
    });
    const hash = digests.begin('b/f', index);
    hash?.update(bytes.subarray(position.start, position.start + position.length));
    return hash;
  };
  const hashes = overlap ? order.map(begun) : [];
  const commits: Promise<void>[] = [];
  for (const [i, index] of order.entries()) {
    const hash = overlap ? hashes[i]! : begun(index);
    chunks = withChunk(chunks, index);
    const commit = digests.commit('b/f', index, hash, path, chunks, bytes.length);
    if (overlap) commits.push(commit);
    else await commit;
  }
  await Promise.all(commits);
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
      for (const overlap of [false, true]) {
        const digests = new RunningDigests();
        await feed(digests, path, bytes, order, overlap);
        const digest = await digests.finish('b/f', path, bytes.length);
        expect(digest.md5, `order ${order.join(',')}, overlap ${overlap}`).toBe(md5);
        expect(digest.size).toBe(bytes.length);
        expect(digest.sample.equals(bytes.subarray(0, digest.sample.length))).toBe(true);
      }
    }
  });

  it('hashes a chunk that is next as it streams, and only later ones from disk', async () => {
    const { path, bytes } = upload();
    const digests = new RunningDigests();
    expect(digests.begin('b/f', 2)).toBeNull();
    const first = digests.begin('b/f', 1);
    expect(first).not.toBeNull();
    // chunk 2 begins while chunk 1 is still streaming: it will be read back from disk
    expect(digests.begin('b/f', 2)).toBeNull();
    first!.update(bytes.subarray(0, CHUNK_SIZE));
    await digests.commit('b/f', 1, first, path, withChunk(emptyChunkSet(4), 1), bytes.length);
    expect(digests.begin('b/f', 2)).not.toBeNull();
    expect(digests.begin('b/f', 3)).toBeNull();
  });

  it('drops the running MD5 when a hashed chunk is written again (the file is then read whole)', async () => {
    const { path, bytes, md5 } = upload();
    const digests = new RunningDigests();
    await feed(digests, path, bytes, [1, 2]);
    // chunk 1 again, with other bytes: never part of the running MD5
    const again = digests.begin('b/f', 1);
    again?.update(Buffer.alloc(CHUNK_SIZE));
    await digests.commit('b/f', 1, again, path, '1100', bytes.length);
    expect(digests.begin('b/f', 3)).toBeNull();
    expect((await digests.finish('b/f', path, bytes.length)).md5).toBe(md5);
  });

  it('reads the whole file when nothing was kept (after a restart, or dropped)', async () => {
    const { path, bytes, md5 } = upload();
    const digests = new RunningDigests();
    await feed(digests, path, bytes, [1, 2]);
    digests.drop('b/f');
    expect((await digests.finish('b/f', path, bytes.length)).md5).toBe(md5);
    expect(await digestFile(path)).toMatchObject({ md5, size: bytes.length });
  });
});
