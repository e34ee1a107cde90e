import { describe, expect, it } from 'vitest';
import { splitSteadyPhase } from './steady-windows.ts';

describe('splitSteadyPhase', () => {
  it('puts each frame interval, long frame and painted event in the window it ends, begins or is painted in', () => {
    const { watched, inUse } = splitSteadyPhase(
      {
        frames: [0, 16, 33, 50, 100, 117],
        loaf: [
          { start: 10, duration: 30 },
          { start: 40, duration: 60 },
          { start: 60, duration: 55 },
        ],
        latency: [
          { paintedAt: 16, receiveToPaint: 12 },
          { paintedAt: 50, receiveToPaint: 30 },
          { paintedAt: 100, receiveToPaint: 70 },
        ],
      },
      50,
    );
    expect(watched).toEqual({ intervals: [16, 17], longFrames: [60], receiveToPaint: [12] });
    expect(inUse).toEqual({ intervals: [17, 50, 17], longFrames: [55], receiveToPaint: [30, 70] });
  });

  it('leaves the desk in use empty when the split is after everything (no interactions)', () => {
    const { watched, inUse } = splitSteadyPhase(
      { frames: [0, 16, 33], loaf: [], latency: [{ paintedAt: 33, receiveToPaint: 20 }] },
      Infinity,
    );
    expect(watched.intervals).toEqual([16, 17]);
    expect(watched.receiveToPaint).toEqual([20]);
    expect(inUse).toEqual({ intervals: [], longFrames: [], receiveToPaint: [] });
  });
});
