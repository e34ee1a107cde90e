import { describe, expect, it } from 'vitest';
import { anchorWorkload, describeCpuAnchor, measureCpuAnchor } from './cpu-anchor.ts';

describe('the CPU anchor', () => {
  it('runs the same workload every time: one checksum', () => {
    expect(anchorWorkload()).toBe(anchorWorkload());
  });

  it('gives the median of its timed runs', () => {
    let clock = 0;
    const durations = [30, 10, 50, 20, 40];
    let call = 0;
    // Each run reads the clock twice: before and after.
    const now = () => (call++ % 2 === 0 ? clock : (clock += durations[(call - 2) / 2]!));
    const anchor = measureCpuAnchor(5, now);
    expect(anchor).toMatchObject({ medianMs: 30, runs: 5, checksum: anchorWorkload() });
    expect(describeCpuAnchor(anchor)).toBe(
      'CPU anchor 30.0 ms (median of 5 runs of a fixed JS workload; lower is faster)',
    );
  });
});
