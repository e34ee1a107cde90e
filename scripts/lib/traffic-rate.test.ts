import { describe, expect, it } from 'vitest';
import { parseProgress, progressLine, rateSince } from './traffic-rate.ts';

describe('traffic rate', () => {
  it('reads the progress reports among the simulator’s other lines', () => {
    const output = [
      'Simulating 1000 events/s for 28 s against http://127.0.0.1:1/v1',
      progressLine({ at: 1_000, events: 250 }),
      '  t=2s events=900 (450/s) in-flight=512 errors=0',
      progressLine({ at: 2_005, events: 900 }),
      'Done: 900 events in 2.1 s',
    ].join('\n');
    expect(parseProgress(output)).toEqual([
      { at: 1_000, events: 250 },
      { at: 2_005, events: 900 },
    ]);
  });

  it('measures the window from the first report at or after its start to the last report', () => {
    const samples = [
      { at: 1_000, events: 250 },
      { at: 2_000, events: 900 },
      { at: 3_000, events: 1_900 },
      { at: 5_000, events: 3_900 },
    ];
    expect(rateSince(samples, 1_500)).toEqual({ events: 3_000, seconds: 3, perSecond: 1_000 });
    expect(rateSince(samples, 0)).toEqual({ events: 3_650, seconds: 4, perSecond: 912.5 });
  });

  it('has no rate without two reports in the window', () => {
    expect(rateSince([], 0)).toBeNull();
    expect(rateSince([{ at: 1_000, events: 10 }], 0)).toBeNull();
    expect(
      rateSince(
        [
          { at: 1_000, events: 10 },
          { at: 2_000, events: 20 },
        ],
        1_500,
      ),
    ).toBeNull();
  });
});
