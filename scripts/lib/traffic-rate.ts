/** One progress report of the simulator: when it was made (epoch ms) and the changes made by then. */
export interface TrafficSample {
  at: number;
  events: number;
}

/** The traffic's rate over a window: changes made in it, its length, and their ratio. */
export interface TrafficRate {
  events: number;
  seconds: number;
  perSecond: number;
}

const PROGRESS_LINE = /^progress at=(\d+) events=(\d+)$/;

/** The line `npm run simulate -- --progress` prints for a progress report. */
export function progressLine(sample: TrafficSample): string {
  return `progress at=${sample.at} events=${sample.events}`;
}

/** The progress reports in the simulator's output, in order (other lines are ignored). */
export function parseProgress(output: string): TrafficSample[] {
  const samples: TrafficSample[] = [];
  for (const line of output.split('\n')) {
    const match = PROGRESS_LINE.exec(line.trim());
    if (match) samples.push({ at: Number(match[1]), events: Number(match[2]) });
  }
  return samples;
}

/**
 * The rate between the first report made at or after `from` and the last one (the traffic's
 * end: the simulator reports while it issues changes, not while it waits for the last to land).
 * Null when fewer than two reports fall in that window.
 */
export function rateSince(samples: readonly TrafficSample[], from: number): TrafficRate | null {
  const first = samples.find((sample) => sample.at >= from);
  const last = samples.at(-1);
  if (!first || !last || last.at <= first.at) return null;
  const events = last.events - first.events;
  const seconds = (last.at - first.at) / 1000;
  return { events, seconds, perSecond: events / seconds };
}
