import { readFileSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  busiestRenderer,
  parseSchedstat,
  parseStealMs,
  sampleSteal,
  sampleThread,
  scheduleBetween,
  stealBetween,
} from './thread-schedule.ts';

describe('parseSchedstat', () => {
  it('reads run and wait nanoseconds as ms', () => {
    expect(parseSchedstat('2500000000 125000000 4180\n')).toEqual({ runMs: 2500, waitMs: 125 });
  });

  it('refuses text that is not a schedstat line', () => {
    expect(() => parseSchedstat('')).toThrow(/not a schedstat line/);
    expect(() => parseSchedstat('ran 5')).toThrow(/not a schedstat line/);
  });
});

describe('scheduleBetween', () => {
  const samples = [
    { at: 1000, runMs: 100, waitMs: 10 },
    { at: 1010, runMs: 104, waitMs: 16 },
    { at: 1020, runMs: 114, waitMs: 16 },
  ];

  it('takes the counters between two readings, interpolated inside an interval', () => {
    expect(scheduleBetween(samples, 1000, 1020)).toEqual({ runMs: 14, waitMs: 6 });
    expect(scheduleBetween(samples, 1005, 1015)).toEqual({ runMs: 7, waitMs: 3 });
  });

  it('is null for a span the readings do not cover', () => {
    expect(scheduleBetween(samples, 990, 1010)).toBeNull();
    expect(scheduleBetween(samples, 1010, 1030)).toBeNull();
    expect(scheduleBetween([], 0, 1)).toBeNull();
  });
});

describe('sampleThread', () => {
  it('reads how long the thread running this test ran while it worked', async () => {
    const [pid, , tid] = readlinkSync('/proc/thread-self').split('/');
    const sampler = sampleThread(Number(pid), Number(tid), 2);
    await new Promise((done) => setTimeout(done, 10));
    const ownRunMs = () =>
      parseSchedstat(readFileSync('/proc/thread-self/schedstat', 'utf8')).runMs;
    const spinFrom = ownRunMs();
    while (ownRunMs() - spinFrom < 30);
    await new Promise((done) => setTimeout(done, 10));
    const samples = sampler.stop();
    expect(samples.length).toBeGreaterThan(2);
    const span = scheduleBetween(samples, samples[0]!.at, samples.at(-1)!.at)!;
    expect(span.runMs).toBeGreaterThanOrEqual(30);
    expect(span.waitMs).toBeGreaterThanOrEqual(0);
  });
});

describe('busiestRenderer', () => {
  it('picks the renderer that has used the most CPU', () => {
    const processInfo = [
      { type: 'browser', id: 10, cpuTime: 9 },
      { type: 'renderer', id: 11, cpuTime: 0.2 },
      { type: 'renderer', id: 12, cpuTime: 4.5 },
      { type: 'GPU', id: 13, cpuTime: 6 },
    ];
    expect(busiestRenderer({ processInfo })).toBe(12);
    expect(
      busiestRenderer({ processInfo: processInfo.filter((p) => p.type !== 'renderer') }),
    ).toBeNull();
  });
});

describe('parseStealMs', () => {
  const procStat = [
    'cpu  880923 190150 225284 1036609 11367 0 12799 1660 0 0',
    'cpu0 454407 66735 104842 545966 2946 0 4116 815 0 0',
    'intr 1 2 3',
  ].join('\n');

  it('reads the steal ticks of the cpu line as ms', () => {
    expect(parseStealMs(procStat)).toBe(16_600);
  });

  it('refuses text without a cpu line or its steal column', () => {
    expect(() => parseStealMs('intr 1 2 3')).toThrow(/no steal time/);
    expect(() => parseStealMs('cpu  1 2 3 4')).toThrow(/no steal time/);
  });

  it("reads this machine's /proc/stat", () => {
    expect(parseStealMs(readFileSync('/proc/stat', 'utf8'))).toBeGreaterThanOrEqual(0);
  });
});

describe('stealBetween', () => {
  it('takes the steal between two moments, interpolated inside an interval', () => {
    const samples = [
      { at: 1000, stealMs: 50 },
      { at: 1020, stealMs: 70 },
    ];
    expect(stealBetween(samples, 1005, 1015)).toBe(10);
    expect(stealBetween(samples, 990, 1015)).toBeNull();
  });
});

describe('sampleSteal', () => {
  it('reads a counter that never goes back', async () => {
    const sampler = sampleSteal(2);
    await new Promise((done) => setTimeout(done, 20));
    const samples = sampler.stop();
    expect(samples.length).toBeGreaterThan(2);
    for (let i = 1; i < samples.length; i++) {
      expect(samples[i]!.at).toBeGreaterThanOrEqual(samples[i - 1]!.at);
      expect(samples[i]!.stealMs).toBeGreaterThanOrEqual(samples[i - 1]!.stealMs);
    }
  });
});
