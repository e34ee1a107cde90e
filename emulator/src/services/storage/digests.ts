import { createHash, type Hash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { CHUNK_SIZE, hasChunk, type ChunkPosition, type ChunkSet } from './chunks.ts';
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
}

/** Chunks hashed from disk in one go at most (each ≤ 5 MiB, read synchronously from the page cache). */
const CATCH_UP_CHUNKS = 4;

/** MD5, first bytes and size of a file, read as a stream. */
export async function digestFile(path: string): Promise<FileDigest> {
  const hash = createHash('md5');
  const head: Buffer[] = [];
  let headSize = 0;
  let size = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    size += bytes.length;
    if (headSize < MIME_SAMPLE_BYTES) {
      head.push(bytes.subarray(0, MIME_SAMPLE_BYTES - headSize));
      headSize += Math.min(bytes.length, MIME_SAMPLE_BYTES - headSize);
    }
  }
  return { md5: hash.digest('hex'), sample: Buffer.concat(head), size };
}

/**
 * The running MD5s of uploads in progress, by upload key, over their first chunks in order (kept
 * in memory: lost on restart, when finishing reads the whole file instead).
 */
export class RunningDigests {
  private readonly digests = new Map<string, RunningDigest>();

  /**
   * Adds the chunks now contiguous from the start to the upload's running MD5: this one from
   * memory when it is next, and up to {@link CATCH_UP_CHUNKS} already written ones after it from
   * `path`. A chunk written again after it was hashed drops the running MD5 (the final check then
   * reads the whole file).
   */
  advance(
    key: string,
    path: string,
    chunks: ChunkSet,
    position: ChunkPosition,
    data: Buffer,
  ): void {
    let digest = this.digests.get(key);
    if (digest && position.index < digest.next) {
      this.digests.delete(key);
      return;
    }
    if (!digest) {
      if (position.index !== 1) return;
      digest = { hash: createHash('md5'), next: 1 };
      this.digests.set(key, digest);
    }
    if (position.index === digest.next) {
      digest.hash.update(data);
      digest.next++;
    }
    if (digest.next > chunks.length || !hasChunk(chunks, digest.next)) return;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_SIZE);
      let caughtUp = 0;
      while (
        caughtUp < CATCH_UP_CHUNKS &&
        digest.next <= chunks.length &&
        hasChunk(chunks, digest.next)
      ) {
        const start = (digest.next - 1) * CHUNK_SIZE;
        const length = Math.min(CHUNK_SIZE, position.size - start);
        let read = 0;
        while (read < length) read += readSync(fd, buffer, read, length - read, start + read);
        digest.hash.update(buffer.subarray(0, length));
        digest.next++;
        caughtUp++;
      }
    } finally {
      closeSync(fd);
    }
  }

  /** The digest of a finished upload at `path`: its running MD5 completed from disk, or the whole file read. */
  async finish(key: string, path: string): Promise<FileDigest> {
    const digest = this.digests.get(key);
    this.digests.delete(key);
    if (!digest) return digestFile(path);
    const size = statSync(path).size;
    const from = (digest.next - 1) * CHUNK_SIZE;
    if (from < size) {
      for await (const piece of createReadStream(path, { start: from, highWaterMark: 1024 * 1024 }))
        digest.hash.update(piece as Buffer);
    }
    const sample = Buffer.alloc(Math.min(MIME_SAMPLE_BYTES, size));
    const fd = openSync(path, 'r');
    try {
      readSync(fd, sample, 0, sample.length, 0);
    } finally {
      closeSync(fd);
    }
    return { md5: digest.hash.digest('hex'), sample, size };
  }

  /** Forgets an upload's running MD5 (the upload was deleted). */
  drop(key: string): void {
    this.digests.delete(key);
  }
}
