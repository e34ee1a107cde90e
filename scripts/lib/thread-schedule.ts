import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { ProcessInfo } from './process-cpu.ts';

/** A thread's scheduler counters at one moment (Linux `/proc/<pid>/task/<tid>/schedstat`). */
export interface ScheduleSample {
  /** When it was read (ms since the epoch, fractional). */
  at: number;
  /** Time the thread has run on a CPU so far (ms). */
  runMs: number;
  /** Time the thread has been ready to run but waited for a CPU so far (ms). */
  waitMs: number;
}

/** A thread's time in a span: running on a CPU, and ready but waiting for one (ms). */
export interface ScheduleSpan {
  runMs: number;
  waitMs: number;
}

/** Run and wait times (ms) from the text of a `schedstat` file (nanoseconds, then a count). */
export function parseSchedstat(text: string): ScheduleSpan {
  const [run, wait] = text.trim().split(/\s+/).map(Number);
  if (!Number.isFinite(run) || !Number.isFinite(wait))
    throw new Error(`not a schedstat line: ${JSON.stringify(text)}`);
  return { runMs: run! / 1e6, waitMs: wait! / 1e6 };
}

/**
 * The run and wait time of the thread sampled in `samples` (in time order) between `from` and
 * `to` (epoch ms), each counter taken as growing evenly between two readings; null when the
 * samples do not cover the span.
 */
export function scheduleBetween(
  samples: readonly ScheduleSample[],
  from: number,
  to: number,
): ScheduleSpan | null {
  const start = counterAt(samples, from);
  const end = counterAt(samples, to);
  if (!start || !end) return null;
  return { runMs: end.runMs - start.runMs, waitMs: end.waitMs - start.waitMs };
}

function counterAt(samples: readonly ScheduleSample[], at: number): ScheduleSpan | null {
  const hi = samples.findIndex((s) => s.at >= at);
  if (hi < 0) return null;
  if (samples[hi]!.at === at) return samples[hi]!;
  if (hi === 0) return null;
  const a = samples[hi - 1]!;
  const b = samples[hi]!;
  const share = (at - a.at) / (b.at - a.at);
  return {
    runMs: a.runMs + share * (b.runMs - a.runMs),
    waitMs: a.waitMs + share * (b.waitMs - a.waitMs),
  };
}

/** A running {@link sampleThread}: `stop` ends it and returns its readings. */
export interface ThreadSampler {
  stop(): ScheduleSample[];
}

/**
 * Reads the scheduler counters of thread `tid` of process `pid` every `everyMs` until stopped
 * (a thread that has ended stops the readings). Linux only.
 */
export function sampleThread(pid: number, tid: number, everyMs = 4): ThreadSampler {
  const path = `/proc/${pid}/task/${tid}/schedstat`;
  const samples: ScheduleSample[] = [];
  const read = () => {
    try {
      samples.push({
        at: performance.timeOrigin + performance.now(),
        ...parseSchedstat(readFileSync(path, 'utf8')),
      });
    } catch {
      clearInterval(timer);
    }
  };
  const timer = setInterval(read, everyMs);
  read();
  return {
    stop() {
      clearInterval(timer);
      read();
      return samples;
    },
  };
}

/**
 * The process id of the renderer that has used the most CPU so far in a Chromium's
 * `SystemInfo.getProcessInfo` answer (after a page has loaded, that page's renderer); its main
 * thread's id is the same number. Null without renderers.
 */
export function busiestRenderer(info: ProcessInfo): number | null {
  const renderers = info.processInfo.filter((p) => p.type === 'renderer');
  if (renderers.length === 0) return null;
  return renderers.reduce((a, b) => (b.cpuTime > a.cpuTime ? b : a)).id;
}
