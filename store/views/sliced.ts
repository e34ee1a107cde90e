/**
 * Work too long for one frame, done in slices: a job is a generator that yields every few
 * hundred items; a runner steps it for at most {@link SLICE_MS} at a time and gives the event
 * loop a turn in between (input, paint, realtime batches), so no slice is a long task.
 */

/**
 * What a job may yield instead of nothing: {@link AFTER_FRAME}, to go on only after the browser
 * has painted a frame (where the scheduler can tell).
 */
export const AFTER_FRAME = 'after-frame';

/** A job: yields between steps; its result is what it returns. */
export type Job<T = void> = Generator<void | typeof AFTER_FRAME, T, void>;

/** How long one slice may run (ms): half a frame, leaving the rest to input and paint. */
export const SLICE_MS = 8;

/** Items a job handles between two yields (a time check each: cheap next to the work). */
export const STEP = 1024;

/** Where slices run: `later` runs a function after the event loop has had a turn. */
export interface SliceScheduler {
  later(run: () => void): void;
  /**
   * Runs a function in a task after the next frame has been painted ({@link AFTER_FRAME});
   * `later` where absent.
   */
  afterFrame?(run: () => void): void;
  /** A monotonic clock in ms (`performance.now`). */
  now(): number;
}

/**
 * The browser's scheduler: a `MessageChannel` message per slice (a task after input and paint,
 * without the 4 ms clamp of nested timers), `performance.now` as the clock.
 */
export function browserSlices(): SliceScheduler {
  const queue: (() => void)[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => queue.shift()?.();
  const later = (run: () => void) => {
    queue.push(run);
    channel.port2.postMessage(null);
  };
  return {
    later,
    // A frame callback runs before the frame's style, layout and paint; the task it posts, after.
    afterFrame: (run) => requestAnimationFrame(() => later(run)),
    now: () => performance.now(),
  };
}

/**
 * The browser's scheduler for background work (snapshot writes, the id sweep): a slice runs in an
 * idle period (`requestIdleCallback`, at the latest after `timeoutMs`), after the frames and the
 * input waiting; {@link browserSlices} where there are no idle callbacks.
 */
export function browserIdleSlices(timeoutMs = 1000): SliceScheduler {
  if (typeof requestIdleCallback !== 'function') return browserSlices();
  return {
    later(run) {
      requestIdleCallback(() => run(), { timeout: timeoutMs });
    },
    now: () => performance.now(),
  };
}

/** Runs a job to its end now, in one go. */
export function drain<T>(job: Job<T>): T {
  for (;;) {
    const step = job.next();
    if (step.done) return step.value;
  }
}

/** A job started by {@link runSliced}. */
export interface SlicedRun {
  /** Stops it: no further slice runs, `done` is never called (idempotent). */
  cancel(): void;
  /** Whether it ended (done or canceled). */
  readonly finished: boolean;
}

/**
 * Runs `job` in slices of at most `sliceMs` (the first one now, synchronously: a job that fits
 * in it is done before this returns), then calls `done` with its result. Without a scheduler
 * the job runs to its end at once (tests, Node). A job that yields {@link AFTER_FRAME} goes on
 * in a task after the next painted frame (where the scheduler has `afterFrame`, even from the
 * first slice): the work before and after it are not in the same frame.
 */
export function runSliced<T>(
  job: Job<T>,
  done: (result: T) => void,
  scheduler: SliceScheduler | null,
  sliceMs = SLICE_MS,
): SlicedRun {
  let finished = false;
  const run: SlicedRun = {
    cancel() {
      finished = true;
    },
    get finished() {
      return finished;
    },
  };
  const slice = () => {
    if (finished) return;
    const deadline = scheduler === null ? Infinity : scheduler.now() + sliceMs;
    for (;;) {
      const step = job.next();
      if (step.done) {
        finished = true;
        done(step.value);
        return;
      }
      if (step.value === AFTER_FRAME && scheduler?.afterFrame) {
        scheduler.afterFrame(slice);
        return;
      }
      if (scheduler !== null && scheduler.now() >= deadline) break;
    }
    scheduler!.later(slice);
  };
  slice();
  return run;
}

/**
 * Sorts `items` in place in slices: runs of {@link STEP} items sorted natively, then merged
 * bottom-up (stable), yielding every {@link STEP} items moved. (The loops are in plain
 * functions: a generator's own loops are not optimized while it runs.)
 */
export function* sortInSlices<T>(items: T[], compare: (a: T, b: T) => number): Job {
  const n = items.length;
  for (let lo = 0; lo < n; lo += STEP) {
    sortRun(items, lo, Math.min(n, lo + STEP), compare);
    yield;
  }
  if (n <= STEP) return;
  let from = items;
  let to = new Array<T>(n);
  for (let width = STEP; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const merge: Merge = { i: lo, mid: Math.min(lo + width, n), j: 0, hi: 0, k: lo };
      merge.j = merge.mid;
      merge.hi = Math.min(lo + 2 * width, n);
      while (merge.k < merge.hi) {
        mergeSome(from, to, merge, compare);
        yield;
      }
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from !== items)
    for (let i = 0; i < n; i += STEP) copyRange(from, items, i, Math.min(n, i + STEP));
}

/** A merge of `[i, mid)` and `[j, hi)` into `[k, hi)` under way. */
interface Merge {
  i: number;
  mid: number;
  j: number;
  hi: number;
  k: number;
}

function sortRun<T>(items: T[], lo: number, hi: number, compare: (a: T, b: T) => number): void {
  const run = items.slice(lo, hi).sort(compare);
  for (let i = 0; i < run.length; i++) items[lo + i] = run[i]!;
}

/** Moves up to {@link STEP} items of a merge. */
function mergeSome<T>(from: T[], to: T[], m: Merge, compare: (a: T, b: T) => number): void {
  let { i, j, k } = m;
  const { mid, hi } = m;
  const until = Math.min(hi, k + STEP);
  while (k < until)
    to[k++] = j >= hi || (i < mid && compare(from[i]!, from[j]!) <= 0) ? from[i++]! : from[j++]!;
  m.i = i;
  m.j = j;
  m.k = k;
}

function copyRange<T>(from: readonly T[], to: T[], start: number, end: number): void {
  for (let i = start; i < end; i++) to[i] = from[i]!;
}

/**
 * A scheduler for tests and benchmarks: slices run when told (`runNext`, `runAll`); its clock
 * advances `tick` ms per reading, so a slice ends after a few steps (many slices, many points
 * where other changes can come in between). `clock` overrides it (a benchmark's real clock).
 */
export class ManualSlices implements SliceScheduler {
  readonly #queue: (() => void)[] = [];
  #time = 0;
  readonly #tick: number;
  readonly #clock: (() => number) | null;

  constructor(options: { tick?: number; clock?: () => number } = {}) {
    this.#tick = options.tick ?? 1;
    this.#clock = options.clock ?? null;
  }

  later(run: () => void): void {
    this.#queue.push(run);
  }

  now(): number {
    if (this.#clock !== null) return this.#clock();
    this.#time += this.#tick;
    return this.#time;
  }

  /** Slices waiting to run. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Runs the next waiting slice; false when none waits. */
  runNext(): boolean {
    const run = this.#queue.shift();
    run?.();
    return run !== undefined;
  }

  /** Runs slices until none waits (including the ones they schedule); returns how many ran. */
  runAll(): number {
    let count = 0;
    while (this.runNext()) count++;
    return count;
  }
}
