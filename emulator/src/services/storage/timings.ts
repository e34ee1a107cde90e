/** How the last chunk of an upload was finished, in ms: each wait in turn, and the whole. */
export interface FinishTimings {
  /** Waiting for chunks still being written. */
  writers: number;
  /** Cutting bytes past the file's size. */
  truncate: number;
  /** Waiting for the MD5 (the worker's read-back of the chunks it was not done with). */
  md5: number;
  /** Waiting for the file's flush to the disk (`fdatasync`), beside the MD5. */
  flush: number;
  /** From the last chunk's record to the file recorded complete. */
  total: number;
}

/** A list of durations summed up (ms). */
export interface Spread {
  count: number;
  median: number;
  p90: number;
  max: number;
}

/** What {@link UploadTimings.take} answers. */
export interface TimingsReport {
  /** Per chunk answered: from the last byte of its body read to its answer being ready. */
  chunkAnswer: Spread;
  /** Per upload finished by its last chunk. */
  finishes: FinishTimings[];
}

/** Samples kept at most between two reports (the oldest dropped first). */
const MAX_SAMPLES = 10_000;

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  return { count: sorted.length, median: at(0.5), p90: at(0.9), max: sorted.at(-1) ?? 0 };
}

/**
 * Where an upload's time goes on the backend, for bench:storage (the test switch
 * `GET /_emulator/storage/timings`): each chunk's wait between its body's last byte and its
 * answer, and each upload's finish (writers, truncate, MD5, flush). Kept in memory, a few numbers
 * per chunk; {@link take} answers them and starts again.
 */
export class UploadTimings {
  private chunks: number[] = [];
  private finishes: FinishTimings[] = [];

  /** A chunk was answered `ms` after the last byte of its body was read. */
  chunk(ms: number): void {
    if (this.chunks.length >= MAX_SAMPLES) this.chunks.shift();
    this.chunks.push(ms);
  }

  /** An upload was finished by its last chunk. */
  finish(timings: FinishTimings): void {
    if (this.finishes.length >= MAX_SAMPLES) this.finishes.shift();
    this.finishes.push(timings);
  }

  /** The timings since the last call. */
  take(): TimingsReport {
    const report = { chunkAnswer: spread(this.chunks), finishes: this.finishes };
    this.chunks = [];
    this.finishes = [];
    return report;
  }
}
