import { describe, expect, it } from 'vitest';
import { Prng } from '../sync/testing/prng.ts';
import { radixSortRows, sortRowsByText } from './key-sort.ts';
import { drain, STEP } from './sliced.ts';

/** Row numbers sorted by `compare` with a stable native sort: the reference. */
function stable(n: number, compare: (a: number, b: number) => number): number[] {
  return Array.from({ length: n }, (_, i) => i).sort(compare);
}

/** Rows compared by their texts in code unit order, nulls last: the reference's order. */
function byText(keys: readonly (string | null)[]) {
  return (a: number, b: number): number => {
    const x = keys[a]!;
    const y = keys[b]!;
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  };
}

function rows(n: number): Uint32Array {
  return Uint32Array.from({ length: n }, (_, i) => i);
}

describe('radixSortRows', () => {
  it('sorts rows by any numbers like a stable sort, yielding between blocks', () => {
    const rng = new Prng(11);
    const specials = [
      0,
      -0,
      1,
      -1,
      0.5,
      -0.5,
      1e-300,
      -1e300,
      Infinity,
      -Infinity,
      2 ** 53,
      1.7e12,
    ];
    for (const n of [0, 1, 2, 100, 3 * STEP + 5, 40_000]) {
      for (const kind of ['small', 'wide', 'special', 'sorted'] as const) {
        const keys = Float64Array.from({ length: n }, (_, i) =>
          kind === 'small'
            ? rng.int(0, 9)
            : kind === 'wide'
              ? (rng.next() - 0.5) * 10 ** rng.int(-5, 15)
              : kind === 'special'
                ? rng.pick(specials)
                : i,
        );
        const job = radixSortRows(rows(n), keys);
        let yields = 0;
        let step = job.next();
        while (!step.done) {
          yields++;
          step = job.next();
        }
        expect([...step.value], `${kind} ${n}`).toEqual(
          stable(n, (a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0)),
        );
        if (n > 8 * STEP && kind !== 'sorted') expect(yields).toBeGreaterThan(4);
      }
    }
  });
});

describe('sortRowsByText', () => {
  it('sorts rows by text (nulls last) like a stable sort, with few or many distinct texts', () => {
    const rng = new Prng(12);
    const words = ['ana', 'an', 'b', '', 'Ana', 'émile', 'zoë', '\u0000', 'ab', 'a\uffff'];
    for (const n of [0, 1, 300, 5000]) {
      for (const distinct of ['few', 'many'] as const) {
        const keys = Array.from({ length: n }, () =>
          rng.chance(0.1)
            ? null
            : distinct === 'few'
              ? rng.pick(words)
              : rng.pick(words) + rng.id().slice(0, rng.int(0, 6)),
        );
        expect([...drain(sortRowsByText(rows(n), keys))], `${distinct} ${n}`).toEqual(
          stable(n, byText(keys)),
        );
      }
    }
  });

  it('sorts texts sharing long prefixes, short ones and any code units, in runs beyond a slice', () => {
    const rng = new Prng(29);
    const stems = ['customer-0000', 'a', '', '\u0000\u0000', 'ab\u0000', '\uffff\uffff', '😀', 'é'];
    const n = 4 * STEP + 17;
    const keys = Array.from({ length: n }, (_, i) =>
      i % 97 === 0
        ? null
        : // One stem for a long run (more than a slice of rows share its first six code units).
          (i % 3 === 0 ? stems[0]! : rng.pick(stems)) +
          String.fromCharCode(rng.int(0, 3)) +
          rng.id().slice(0, rng.int(0, 4)),
    );
    expect([...drain(sortRowsByText(rows(n), keys))]).toEqual(stable(n, byText(keys)));
  });
});
