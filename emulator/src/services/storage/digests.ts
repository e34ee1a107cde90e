import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { ioBuffers } from '../../core/buffer-pool.ts';
import { CHUNK_SIZE, hasChunk, type ChunkSet } from './chunks.ts';
import { MIME_SAMPLE_BYTES } from './mime.ts';

/** What finishing an upload needs of its bytes: MD5 (hex), the first bytes and the size. */
export interface FileDigest {
  md5: string;
  sample: Buffer;
  size: number;
}

/** An upload's MD5 over its chunks 1 … `next - 1`, so finishing it does not read it all again. */
interface RunningDigest {
  hash: Hash;
  /** The next chunk (from 1) to add. */
  next: number;
  /** The additions in progress (chunks committed, chunks read back from disk), one after another. */
  queue: Promise<void>;
}

/**
 * Adds the bytes `start … end` (inclusive; to the end of the file without `end`) of `path` to
 * `hash`, read 1 MiB at a time into one pooled buffer (hashing is synchronous: the buffer is free
 * again as soon as a read is hashed). Returns how many bytes were hashed.
 */
async function hashRange(hash: Hash, path: string, start: number, end?: number): Promise<number> {
  const handle = await open(path, 'r');
  const buffer = ioBuffers.take();
  try {
    let position = start;
    const stop = end === undefined ? Infinity : end + 1;
    while (position < stop) {
      const { bytesRead } = await handle.read(
        buffer,
        0,
        Math.min(buffer.length, stop - position),
        position,
      );
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
    return position - start;
  } finally {
    ioBuffers.give(buffer);
    await handle.close();
  }
}

/** The first {@link MIME_SAMPLE_BYTES} bytes of a file (fewer when it is shorter). */
async function readSample(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const sample = Buffer.alloc(MIME_SAMPLE_BYTES);
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    return sample.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** MD5, first bytes and size of a file, read 1 MiB at a time. */
export async function digestFile(path: string): Promise<FileDigest> {
  const hash = createHash('md5');
  const size = await hashRange(hash, path, 0);
  return { md5: hash.digest('hex'), sample: await readSample(path), size };
}

/**
 * The running MD5s of uploads in progress, by upload key (kept in memory: lost on restart, when
 * finishing reads the whole file instead). The chunk that is next in order is hashed while it
 * streams in ({@link begin}, on a copy of the running MD5 that {@link commit} keeps once the chunk
 * is recorded); a chunk that came early is read back from disk (the page cache) once the chunks
 * before it are in. Nothing here blocks the event loop: reads are asynchronous and queued per upload.
 */
export class RunningDigests {
  private readonly digests = new Map<string, RunningDigest>();

  /**
   * A hash to feed chunk `index`'s bytes into as they arrive: a copy of the running MD5 when
   * `index` is the next chunk (a fresh one for chunk 1 of a new upload), else null (the chunk is
   * read back from disk later). Only kept if the chunk is then {@link commit}ted.
   */
  begin(key: string, index: number): Hash | null {
    const digest = this.digests.get(key);
    if (!digest) return index === 1 ? createHash('md5') : null;
    return index === digest.next ? digest.hash.copy() : null;
  }

  /**
   * Takes chunk `index` as recorded (its bytes written at `path`): `hash` (from {@link begin},
   * fed exactly that chunk's bytes) becomes the running MD5, then the chunks recorded after it in
   * `chunks` are read back from disk and added, in order. A chunk written again after it was
   * hashed drops the running MD5 (the final check then reads the whole file). Resolves once done;
   * the caller need not wait — {@link finish} does.
   */
  commit(
    key: string,
    index: number,
    hash: Hash | null,
    path: string,
    chunks: ChunkSet,
    size: number,
  ): Promise<void> {
    let digest = this.digests.get(key);
    if (!digest) {
      if (index !== 1 || !hash) return Promise.resolve();
      digest = { hash, next: 1, queue: Promise.resolve() };
      this.digests.set(key, digest);
    }
    const current = digest;
    current.queue = current.queue.then(async () => {
      if (this.digests.get(key) !== current) return;
      if (index < current.next) {
        this.digests.delete(key);
        return;
      }
      if (index === current.next && hash) {
        current.hash = hash;
        current.next++;
      }
      try {
        while (current.next <= chunks.length && hasChunk(chunks, current.next)) {
          const start = (current.next - 1) * CHUNK_SIZE;
          const end = Math.min(start + CHUNK_SIZE, size) - 1;
          await hashRange(current.hash, path, start, end);
          if (this.digests.get(key) !== current) return;
          current.next++;
        }
      } catch {
        // the bytes went (the upload was deleted): nothing to keep
        if (this.digests.get(key) === current) this.digests.delete(key);
      }
    });
    return current.queue;
  }

  /**
   * The digest of a finished upload of `size` bytes at `path`: its running MD5 completed from
   * disk, or the whole file read.
   */
  async finish(key: string, path: string, size: number): Promise<FileDigest> {
    const digest = this.digests.get(key);
    if (digest) await digest.queue;
    const kept = this.digests.get(key) === digest ? digest : undefined;
    this.digests.delete(key);
    if (!kept) return digestFile(path);
    const from = (kept.next - 1) * CHUNK_SIZE;
    if (from < size) await hashRange(kept.hash, path, from);
    return { md5: kept.hash.digest('hex'), sample: await readSample(path), size };
  }

  /** Forgets an upload's running MD5 (the upload was deleted). */
  drop(key: string): void {
    this.digests.delete(key);
  }
}
