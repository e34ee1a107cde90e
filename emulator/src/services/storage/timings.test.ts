import { describe, expect, it } from 'vitest';
import { UploadTimings } from './timings.ts';

describe('UploadTimings', () => {
  it('sums up the chunks answered and lists the finishes since the last report', () => {
    const timings = new UploadTimings();
    for (const ms of [5, 1, 9, 3, 7, 2, 8, 4, 6, 10]) timings.chunk(ms);
    const finish = { writers: 0, truncate: 1, md5: 12, flush: 20, total: 22 };
    timings.finish(finish);
    expect(timings.take()).toEqual({
      chunkAnswer: { count: 10, median: 6, p90: 10, max: 10 },
      finishes: [finish],
    });
    expect(timings.take()).toEqual({
      chunkAnswer: { count: 0, median: 0, p90: 0, max: 0 },
      finishes: [],
    });
  });
});
