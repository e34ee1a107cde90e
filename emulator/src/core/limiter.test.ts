import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.ts';

/** A task that resolves (or rejects) when told to, recording when it started. */
function gate(started: number[], id: number) {
  let open: (fail: boolean) => void = () => {};
  const task = () =>
    new Promise<number>((resolve, reject) => {
      started.push(id);
      open = (fail) => (fail ? reject(new Error(`task ${id} failed`)) : resolve(id));
    });
  return { task, open: (fail = false) => open(fail) };
}

const turn = () => new Promise((done) => setImmediate(done));

describe('Limiter', () => {
  it('runs at most `limit` tasks at once, the others in the order they came', async () => {
    const limiter = new Limiter(2);
    const started: number[] = [];
    const gates = [1, 2, 3, 4].map((id) => gate(started, id));
    const results = gates.map((g) =>
      limiter.run(g.task).catch((error: unknown) => (error as Error).message),
    );
    await turn();
    expect(started).toEqual([1, 2]);
    expect(limiter.pending).toBe(4);
    gates[1]!.open();
    await turn();
    expect(started).toEqual([1, 2, 3]);
    gates[0]!.open(true);
    await turn();
    expect(started).toEqual([1, 2, 3, 4]);
    gates[2]!.open();
    gates[3]!.open();
    expect(await Promise.all(results)).toEqual(['task 1 failed', 2, 3, 4]);
    expect(limiter.pending).toBe(0);
  });

  it('runs the waiting tasks of an urgent lane first, in their order', async () => {
    const limiter = new Limiter(1);
    const started: number[] = [];
    const gates = [1, 2, 3, 4, 5].map((id) => gate(started, id));
    const slow = { urgent: false };
    const finishing = { urgent: false };
    const lanes = [slow, slow, finishing, slow, finishing];
    const results = gates.map((g, i) => limiter.run(g.task, lanes[i]));
    await turn();
    expect(started).toEqual([1]);
    finishing.urgent = true; // e.g. its body has all arrived: its writes now hold up an answer
    for (let done = 0; done < gates.length; done++) {
      gates[started[done]! - 1]!.open(); // the task running ends, the next starts
      await turn();
    }
    expect(started).toEqual([1, 3, 5, 2, 4]);
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5]);
  });

  it('lets a task in at once while under its limit', async () => {
    const limiter = new Limiter(1);
    expect(await limiter.run(() => Promise.resolve('a'))).toBe('a');
    expect(await limiter.run(() => Promise.resolve('b'))).toBe('b');
    expect(() => new Limiter(0)).toThrow(RangeError);
  });
});
