/** Whose tasks a {@link Limiter} runs first: those of an urgent lane, then the others, each in order. */
export interface Lane {
  urgent: boolean;
}

/**
 * Runs asynchronous tasks at most `limit` at a time, the others waiting their turn: the first
 * waiting task of an urgent {@link Lane} goes first, else the first that came. Used where more at
 * once only queues up elsewhere: writes to one file, which the kernel serializes (ext4 holds the
 * file's lock through each buffered write), would otherwise fill libuv's thread pool (4 threads)
 * with writers waiting on each other while opens, closes and reads of every other request wait
 * behind them. A lane turned urgent (a chunk whose body has all arrived, and whose answer now
 * waits for its last writes) gets its waiting tasks run before those still arriving.
 */
export class Limiter {
  /** How many tasks may run at once. */
  readonly limit: number;
  private running = 0;
  private readonly waiting: { lane: Lane; start: () => void }[] = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`bad limit ${limit}`);
    this.limit = limit;
  }

  /** Runs `task` once its turn comes (see the class); resolves or rejects as it does. */
  async run<T>(task: () => Promise<T>, lane: Lane = { urgent: false }): Promise<T> {
    if (this.running >= this.limit)
      await new Promise<void>((start) => this.waiting.push({ lane, start }));
    else this.running++;
    try {
      return await task();
    } finally {
      const index = Math.max(
        0,
        this.waiting.findIndex((entry) => entry.lane.urgent),
      );
      const next = this.waiting.splice(index, 1)[0];
      // the slot passes straight to the next task, so none can overtake it
      if (next) next.start();
      else this.running--;
    }
  }

  /** Tasks running now and tasks waiting. */
  get pending(): number {
    return this.running + this.waiting.length;
  }
}
