import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { ioBuffers } from '../../core/buffer-pool.ts';
import { CHUNK_SIZE, hasChunk, type ChunkSet } from './chunks.ts';
import { HashWorker } from './hash-worker.ts';
import { MIME_SAMPLE_BYTES } from './mime.ts';

/** What finishing an upload needs of its bytes: MD5 (hex), the first bytes and the size. */
export interface FileDigest {
  md5: string;
  sample: Buffer;
  size: number;
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

/** How far an upload's chunks were handed to the MD5: chunks 1 … `next - 1`, in order. */
interface RunningDigest {
  /** The next chunk (from 1) to add. */
  next: number;
}

/**
 * The running MD5s of uploads in progress, by upload key (kept in memory: lost on restart, when
 * finishing reads the whole file instead). Once a chunk is recorded, it and the recorded chunks
 * after it are handed, in order, to a {@link HashWorker}, which reads them back from disk (the
 * page cache) and hashes them on its own thread — the event loop receiving the chunks does no
 * hashing, and the chunk that completes an upload finds the others hashed. A chunk recorded
 * again after it was handed over drops the running MD5 (the final check then reads the whole
 * file).
 */
export class RunningDigests {
  private readonly digests = new Map<string, RunningDigest>();
  private readonly worker: HashWorker;

  constructor(worker: HashWorker = new HashWorker()) {
    this.worker = worker;
  }

  /**
   * Takes chunk `index` as recorded (its bytes written at `path`; `chunks` the chunks recorded
   * now), and hands every recorded chunk whose turn has come to the worker, in order.
   */
  commit(key: string, index: number, path: string, chunks: ChunkSet, size: number): void {
    let digest = this.digests.get(key);
    if (!digest) {
      digest = { next: 1 };
      this.digests.set(key, digest);
    }
    if (index < digest.next) {
      // written again after it was hashed: its bytes may differ
      this.drop(key);
      return;
    }
    while (digest.next <= chunks.length && hasChunk(chunks, digest.next)) {
      const start = (digest.next - 1) * CHUNK_SIZE;
      this.worker.add(key, path, start, Math.min(start + CHUNK_SIZE, size));
      digest.next++;
    }
  }

  /**
   * The digest of a finished upload of `size` bytes at `path`: its running MD5 completed (the
   * worker reads what it was not handed yet), or the whole file read.
   */
  async finish(key: string, path: string, size: number): Promise<FileDigest> {
    const digest = this.digests.get(key);
    this.digests.delete(key);
    if (!digest) this.worker.drop(key);
    const from = digest ? (digest.next - 1) * CHUNK_SIZE : 0;
    this.worker.add(key, path, from, size);
    const sample = readSample(path);
    try {
      const md5 = await this.worker.digest(key);
      return { md5, sample: await sample, size };
    } catch {
      // the worker failed (restarted, or the file changed size): read the file here
      await sample.catch(() => {});
      return digestFile(path);
    }
  }

  /** Forgets an upload's running MD5 (the upload was deleted). */
  drop(key: string): void {
    this.digests.delete(key);
    this.worker.drop(key);
  }

  /** Stops the worker (the backend closes). */
  close(): Promise<void> {
    return this.worker.close();
  }
}
