/**
 * A pool of equally sized buffers for file I/O: a read or a write of 1 MiB takes one and gives it
 * back once nothing refers to its bytes any more (a socket has written them, `write(2)` has
 * copied them), so a download or an upload does not allocate — and the kernel does not fault in
 * and zero — a fresh MiB for every MiB it moves. A buffer given back too early would have its
 * bytes overwritten while still in use: whoever gives one back must know it is free.
 */
export class BufferPool {
  /** The length of every buffer of the pool, in bytes. */
  readonly size: number;
  /** How many free buffers are kept at most (more given back are left to the GC). */
  readonly keep: number;
  private readonly free: Buffer[] = [];
  /** Every buffer this pool made (so a stranger, or a view into one, is refused). */
  private readonly made = new WeakSet<Buffer>();

  constructor(size: number, keep: number) {
    if (!Number.isInteger(size) || size <= 0) throw new RangeError(`bad buffer size ${size}`);
    if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`bad pool size ${keep}`);
    this.size = size;
    this.keep = keep;
  }

  /** A buffer of {@link size} bytes (its content is whatever it last held). */
  take(): Buffer {
    const reused = this.free.pop();
    if (reused) return reused;
    const buffer = Buffer.allocUnsafeSlow(this.size);
    this.made.add(buffer);
    return buffer;
  }

  /**
   * Gives back a buffer that {@link take} gave and that nothing refers to any more. Any other
   * buffer (a view into one of the pool's too) is refused with an error, as is one already given
   * back.
   */
  give(buffer: Buffer): void {
    if (!this.made.has(buffer)) throw new RangeError('not a buffer of this pool');
    if (this.free.includes(buffer)) throw new Error('buffer given back twice');
    if (this.free.length < this.keep) this.free.push(buffer);
  }

  /** How many free buffers the pool holds now. */
  get available(): number {
    return this.free.length;
  }
}

/** Bytes moved at a time between files and sockets: 1 MiB (fewer reads, writes and wake-ups than Node's 64 KiB). */
export const IO_BUFFER_SIZE = 1024 * 1024;

/**
 * The backend's pool of 1 MiB buffers for file bytes (downloads, upload writes, MD5 read-backs):
 * keeps up to 32 free (32 MiB at most, only after that many were in use at once).
 */
export const ioBuffers = new BufferPool(IO_BUFFER_SIZE, 32);
