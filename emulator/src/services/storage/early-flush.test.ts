import { describe, expect, it } from 'vitest';
import { EarlyFlushes } from './early-flush.ts';

const turn = () => new Promise((done) => setImmediate(done));

describe('EarlyFlushes', () => {
  it('starts a flush every `every` bytes recorded, one at a time per upload', async () => {
    const started: string[] = [];
    const finish: ((fail?: boolean) => void)[] = [];
    const flushes = new EarlyFlushes((path) => {
      started.push(path);
      return new Promise((resolve, reject) =>
        finish.push((fail) => (fail ? reject(new Error('EIO')) : resolve())),
      );
    }, 10);
    flushes.recorded('b/f', '/f', 5);
    expect(started).toEqual([]);
    flushes.recorded('b/f', '/f', 5);
    expect(started).toEqual(['/f']);
    expect(flushes.running('b/f')).toBe(true);
    // due again, but one is running: none more
    flushes.recorded('b/f', '/f', 20);
    expect(started).toEqual(['/f']);
    flushes.recorded('b/g', '/g', 10);
    expect(started).toEqual(['/f', '/g']);
    finish[0]!(true); // a failed flush is ignored
    await turn();
    expect(flushes.running('b/f')).toBe(false);
    flushes.recorded('b/f', '/f', 10);
    expect(started).toEqual(['/f', '/g', '/f']);
    flushes.forget('b/f');
    expect(flushes.running('b/f')).toBe(false);
    finish[1]!();
    finish[2]!();
    await turn();
  });
});
