import { describe, expect, it } from 'vitest';
import { snapshotWriteSummary } from './snapshot-writes.ts';

describe('snapshotWriteSummary', () => {
  it('adds up the copies inside each write and keeps the long frames that overlapped one', () => {
    const summary = snapshotWriteSummary(
      [
        { name: 'encode', start: 996, duration: 3 },
        { name: 'clone', start: 1000, duration: 8 },
        { name: 'clone', start: 1020, duration: 12 },
        { name: 'write', start: 995, duration: 60 },
        { name: 'clone', start: 6000, duration: 90 },
        { name: 'write', start: 5990, duration: 140 },
      ],
      [
        { start: 500, duration: 70 },
        { start: 6010, duration: 95 },
        { start: 1010, duration: 30 },
      ],
    );
    expect(summary).toEqual({
      writes: 2,
      writeMs: [60, 140],
      cloneMs: [20, 90],
      encodeMs: [3, 0],
      longestCopy: 90,
      longestEncode: 3,
      longFrames: [95],
    });
  });

  it('answers no writes for a phase without any', () => {
    expect(snapshotWriteSummary([], [{ start: 0, duration: 80 }])).toEqual({
      writes: 0,
      writeMs: [],
      cloneMs: [],
      encodeMs: [],
      longestCopy: 0,
      longestEncode: 0,
      longFrames: [],
    });
  });
});
