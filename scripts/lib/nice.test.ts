import { execFileSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { setOwnThreadsNice, withNice } from './nice.ts';

describe('withNice', () => {
  it('leaves the command as is at 0', () => {
    expect(withNice(0, ['node', 'main.ts'])).toEqual(['node', 'main.ts']);
  });

  it('runs the command through nice otherwise', () => {
    expect(withNice(15, ['node', 'main.ts'])).toEqual(['nice', '-n', '15', 'node', 'main.ts']);
  });

  it('refuses a priority nice does not take', () => {
    expect(() => withNice(20, ['node'])).toThrow(
      'nice must be a whole number from 0 to 19, not 20',
    );
    expect(() => withNice(-1, ['node'])).toThrow(RangeError);
    expect(() => withNice(1.5, ['node'])).toThrow(RangeError);
  });
});

describe('setOwnThreadsNice', () => {
  it('lowers the priority of every thread of the process, not its main thread alone', () => {
    // In a process of its own: the test's process keeps its priority.
    const module = fileURLToPath(new URL('./nice.ts', import.meta.url));
    const script = `
      import { readdirSync, readFileSync } from 'node:fs';
      const { setOwnThreadsNice } = await import(${JSON.stringify(module)});
      const before = setOwnThreadsNice(7);
      const nices = readdirSync('/proc/self/task').map((tid) =>
        Number(readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]));
      console.log(JSON.stringify({ before, nices }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const { before, nices } = JSON.parse(out) as { before: number; nices: number[] };
    expect(before).toBe(getPriority(0));
    expect(nices.length).toBeGreaterThan(1);
    expect(new Set(nices)).toEqual(new Set([7]));
  });

  it('refuses a priority the system does not have', () => {
    expect(() => setOwnThreadsNice(20)).toThrow(
      'nice must be a whole number from -20 to 19, not 20',
    );
  });
});
