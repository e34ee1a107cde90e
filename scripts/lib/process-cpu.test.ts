import { describe, expect, it } from 'vitest';
import { chromiumCpuMs, ownCpuMs, processCpuMs, statCpuMs } from './process-cpu.ts';

describe('process CPU time', () => {
  it('reads utime + stime of /proc/<pid>/stat, whatever the command name holds', () => {
    const rest = 'S 1 2 3 4 5 6 7 8 9 10 250 75 0 0 20 0 1 0 100 2000 300';
    expect(statCpuMs(`1234 (node) ${rest}`)).toBe(3250);
    expect(statCpuMs(`1234 (a) (b c) ${rest}`)).toBe(3250);
  });

  it('reads this process from /proc, and its own count, both growing with work', () => {
    const before = processCpuMs(process.pid);
    const own = ownCpuMs();
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += Math.sqrt(i);
    expect(x).toBeGreaterThan(0);
    expect(processCpuMs(process.pid)).toBeGreaterThanOrEqual(before);
    expect(ownCpuMs()).toBeGreaterThan(own);
  });

  it("sums a Chromium's processes (seconds) into ms", async () => {
    const info = {
      processInfo: [
        { type: 'browser', id: 1, cpuTime: 1.5 },
        { type: 'renderer', id: 2, cpuTime: 0.25 },
        { type: 'network.mojom.NetworkService', id: 3, cpuTime: 0.125 },
      ],
    };
    expect(await chromiumCpuMs(() => Promise.resolve(info))).toBe(1875);
  });
});
