/**
 * Runs asynchronous tasks at most `limit` at a time, the others waiting their turn in the order
 * they came. Used where more at once only queues up elsewhere: writes to one file, which the
 * kernel serializes (ext4 holds the file's lock through each buffered write), would otherwise
 * fill libuv's thread pool (4 threads) with writers waiting on each other while opens, closes and
 * reads of every other request wait behind them.
 */
export class Limiter {
  /** How many tasks may run at once. */
  readonly limit: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`bad limit ${limit}`);
    this.limit = limit;
  }

  /** Runs `task` once fewer than `limit` others run; resolves or rejects as it does. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((turn) => this.waiting.push(turn));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // the slot passes straight to the next task, so none can overtake it
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks running now and tasks waiting. */
  get pending(): number {
    return this.running + this.waiting.length;
  }
}
