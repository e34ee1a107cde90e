/** What `bench:ui` records in the page during its steady phase (times on the page's clock, ms). */
export interface SteadyRecord {
  /** Each frame's start (`requestAnimationFrame` time). */
  frames: readonly number[];
  /** Long animation frames: start and duration. */
  loaf: readonly { start: number; duration: number }[];
  /** Each painted event: when the frame showing it was painted, and receive → paint. */
  latency: readonly { paintedAt: number; receiveToPaint: number }[];
}

/** One window of the steady phase: its frame intervals, long frames and event → paint times. */
export interface SteadyWindow {
  intervals: number[];
  /** Durations of the long animation frames over 50 ms that began in the window. */
  longFrames: number[];
  receiveToPaint: number[];
}

/**
 * Splits the steady phase at `at`: the desk watched under the traffic (before: no input) and
 * the desk in use (from then on: the interactions, under the same traffic). A frame interval
 * belongs to the window its second frame is in, a long frame to the one it began in, an event to
 * the one its paint is in.
 */
export function splitSteadyPhase(
  record: SteadyRecord,
  at: number,
): { watched: SteadyWindow; inUse: SteadyWindow } {
  const empty = (): SteadyWindow => ({ intervals: [], longFrames: [], receiveToPaint: [] });
  const watched = empty();
  const inUse = empty();
  const windowOf = (time: number) => (time < at ? watched : inUse);
  for (let i = 1; i < record.frames.length; i++)
    windowOf(record.frames[i]!).intervals.push(record.frames[i]! - record.frames[i - 1]!);
  for (const frame of record.loaf)
    if (frame.duration > 50) windowOf(frame.start).longFrames.push(frame.duration);
  for (const event of record.latency)
    windowOf(event.paintedAt).receiveToPaint.push(event.receiveToPaint);
  return { watched, inUse };
}
