import type { FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ioBuffers, type BufferPool } from '../core/buffer-pool.ts';

/** Reads of a file body ahead of the socket: one being written while the next is read. */
const IN_FLIGHT = 2;

/**
 * The bytes `start … start + length - 1` of an open file, as the body of an answer (a download, a
 * view, a range of either): sent by {@link writeTo} in reads of the pool's size (1 MiB) into
 * buffers that are reused — each goes back to the pool only once the socket has written it (its
 * write callback), never while the kernel may still read it. A read stream would allocate a
 * fresh buffer per read (3.65 ms of CPU per MiB served, against 0.6 with the pool).
 */
export class FileBody {
  readonly handle: FileHandle;
  readonly start: number;
  readonly length: number;
  private readonly pool: BufferPool;
  private closing: Promise<void> | null = null;

  constructor(handle: FileHandle, start: number, length: number, pool: BufferPool = ioBuffers) {
    this.handle = handle;
    this.start = start;
    this.length = length;
    this.pool = pool;
  }

  /**
   * Writes the bytes to `out` and ends it, then closes the file. Rejects (the file closed too)
   * when a read fails, the file is shorter than the body, or `out` closes or fails before all is
   * written — the caller then cuts the connection: the client sees a short body, never a wrong one.
   */
  async writeTo(out: Writable): Promise<void> {
    try {
      await writeRange(out, this.handle, this.start, this.length, this.pool);
    } finally {
      await this.close();
    }
  }

  /** Closes the file (once; an answer never sent must still close it). */
  close(): Promise<void> {
    this.closing ??= this.handle.close().catch(() => {});
    return this.closing;
  }
}

/** Writes `length` bytes of `handle` from `start` to `out` through pooled buffers, then ends `out`. */
async function writeRange(
  out: Writable,
  handle: FileHandle,
  start: number,
  length: number,
  pool: BufferPool,
): Promise<void> {
  const end = start + length;
  let position = start;
  /** Buffers handed to `out` whose write callback has not come yet. */
  let writing = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const settle = () => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  const waitFor = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      if (done()) return resolve();
      wake = resolve;
    });
  // A closed connection may never call back the writes it holds: their buffers are left to the GC.
  const onClose = () => {
    failure ??= new Error('the connection closed before the body was written');
    settle();
  };
  out.on('close', onClose);
  try {
    while (position < end) {
      await waitFor(() => writing < IN_FLIGHT || failure !== null);
      if (failure) throw failure;
      if (out.destroyed) throw new Error('the answer was destroyed before its body was written');
      const buffer = pool.take();
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(
          buffer,
          0,
          Math.min(buffer.length, end - position),
          position,
        ));
      } catch (error) {
        pool.give(buffer);
        throw error;
      }
      if (bytesRead === 0 || failure) {
        pool.give(buffer);
        throw failure ?? new Error('the file is shorter than the body it should give');
      }
      position += bytesRead;
      writing++;
      out.write(buffer.subarray(0, bytesRead), (error) => {
        writing--;
        // after a failed write the socket may not be done with the bytes: the buffer is not reused
        if (error) failure ??= error;
        else pool.give(buffer);
        settle();
      });
    }
    await waitFor(() => writing === 0 || failure !== null);
    if (failure) throw failure;
    out.end();
  } finally {
    out.off('close', onClose);
  }
}
