import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { TICKS_PER_SECOND, type ProcessInfo } from './process-cpu.ts';

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
  const runMs = counterBetween(samples, from, to, (s) => s.runMs);
  const waitMs = counterBetween(samples, from, to, (s) => s.waitMs);
  return runMs === null || waitMs === null ? null : { runMs, waitMs };
}

/**
 * How much the counter `read` of `samples` (in time order) grew between `from` and `to` (epoch
 * ms), taken as growing evenly between two readings; null when the samples do not cover the span.
 */
function counterBetween<T extends { at: number }>(
  samples: readonly T[],
  from: number,
  to: number,
  read: (sample: T) => number,
): number | null {
  const start = counterAt(samples, from, read);
  const end = counterAt(samples, to, read);
  return start === null || end === null ? null : end - start;
}

function counterAt<T extends { at: number }>(
  samples: readonly T[],
  at: number,
  read: (sample: T) => number,
): number | null {
  const hi = samples.findIndex((s) => s.at >= at);
  if (hi < 0) return null;
  if (samples[hi]!.at === at) return read(samples[hi]!);
  if (hi === 0) return null;
  const a = samples[hi - 1]!;
  const b = samples[hi]!;
  return read(a) + ((at - a.at) / (b.at - a.at)) * (read(b) - read(a));
}

/** Readings being taken ({@link sampleThread}, {@link sampleSteal}): `stop` ends them and returns them. */
export interface Sampler<T> {
  stop(): T[];
}

/** Takes a reading now and every `everyMs` until stopped, or until `read` returns null. */
function sampleEvery<T>(read: () => T | null, everyMs: number): Sampler<T> {
  const samples: T[] = [];
  const take = () => {
    const sample = read();
    if (sample === null) clearInterval(timer);
    else samples.push(sample);
  };
  const timer = setInterval(take, everyMs);
  take();
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

const now = () => performance.timeOrigin + performance.now();

/**
 * Reads the scheduler counters of thread `tid` of process `pid` every `everyMs` until stopped
 * (a thread that has ended stops the readings). Linux only.
 */
export function sampleThread(pid: number, tid: number, everyMs = 4): Sampler<ScheduleSample> {
  const path = `/proc/${pid}/task/${tid}/schedstat`;
  return sampleEvery(() => {
    try {
      return { at: now(), ...parseSchedstat(readFileSync(path, 'utf8')) };
    } catch {
      return null;
    }
  }, everyMs);
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

/** The machine's steal time at one moment: CPU time its hypervisor gave to others. */
export interface StealSample {
  /** When it was read (ms since the epoch, fractional). */
  at: number;
  /** Steal time so far, summed over the machine's CPUs (ms). */
  stealMs: number;
}

/**
 * The steal time (ms, all CPUs) in the text of `/proc/stat`: the eighth number of its `cpu`
 * line, the time the hypervisor ran something else while one of the machine's virtual CPUs had
 * work (0 on a machine that is not a virtual one).
 */
export function parseStealMs(procStat: string): number {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  const steal = Number(line?.trim().split(/\s+/)[8]);
  if (!Number.isFinite(steal))
    throw new Error(`no steal time in /proc/stat: ${line ?? '(no cpu line)'}`);
  return (steal * 1000) / TICKS_PER_SECOND;
}

/** The machine's steal time (ms, all CPUs) between `from` and `to` (epoch ms); null when not covered. */
export function stealBetween(
  samples: readonly StealSample[],
  from: number,
  to: number,
): number | null {
  return counterBetween(samples, from, to, (s) => s.stealMs);
}

/**
 * Reads the machine's steal time every `everyMs` until stopped (its counter moves in 10 ms
 * ticks, so a span's figure is good to about that). Linux only.
 */
export function sampleSteal(everyMs = 10): Sampler<StealSample> {
  return sampleEvery(
    () => ({ at: now(), stealMs: parseStealMs(readFileSync('/proc/stat', 'utf8')) }),
    everyMs,
  );
}
