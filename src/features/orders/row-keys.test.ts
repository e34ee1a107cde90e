import { describe, expect, it } from 'vitest';
import { RecycledRowKeys, type RowIds } from './row-keys.ts';

/** A list's rows, as the table has them (its `SortedIndex`). */
function rows(ids: string[]): RowIds {
  return { at: (i) => ids[i], slice: (start, end) => ids.slice(start, end) };
}

/** One render of the list: the keys of `shown` (rows `start`… of `all`), as react-window asks. */
function render(
  keys: RecycledRowKeys,
  shown: string[],
  start = 0,
  pass: unknown = shown,
): number[] {
  const all = rows([...new Array<string>(start).fill('?'), ...shown]);
  return shown.map((_, i) => keys.keyOf(start + i, all, pass));
}

/** How many kept rows React moves going from `before` to `after` keys (its `lastPlacedIndex`). */
function moves(before: number[], after: number[]): number {
  let lastPlaced = -1;
  let moved = 0;
  for (const key of after) {
    const old = before.indexOf(key);
    if (old < 0) continue;
    if (old < lastPlaced) moved++;
    else lastPlaced = old;
  }
  return moved;
}

describe('RecycledRowKeys', () => {
  it('keeps an order’s key while it stays on screen, and moves no row for orders arriving on top', () => {
    const keys = new RecycledRowKeys();
    const first = render(keys, ['a', 'b', 'c', 'd']);
    expect(new Set(first).size).toBe(4);
    // Again (a scroll render with the same rows, or React rendering twice): the same keys.
    expect(render(keys, ['a', 'b', 'c', 'd'])).toEqual(first);
    // Two orders arriving at the top push `c` and `d` out: the newcomers are mounted (new keys),
    // the others keep theirs and stay where they are.
    const shifted = render(keys, ['n', 'm', 'a', 'b']);
    expect(shifted.slice(2)).toEqual([first[0], first[1]]);
    expect(first).not.toContain(shifted[0]);
    expect(first).not.toContain(shifted[1]);
    expect(moves(first, shifted)).toBe(0);
    // Scrolled down by two: `c` and `d` come back at the bottom with the keys `n` and `m` left
    // (only they move).
    const scrolled = render(keys, ['a', 'b', 'c', 'd'], 2);
    expect(scrolled.slice(0, 2)).toEqual([first[0], first[1]]);
    expect(new Set(scrolled.slice(2))).toEqual(new Set(shifted.slice(0, 2)));
    expect(moves(shifted, scrolled)).toBe(2);
  });

  it('reuses every row for a sort or a filter, in their order (no row moved)', () => {
    const keys = new RecycledRowKeys();
    const first = render(keys, ['a', 'b', 'c', 'd']);
    const sorted = render(keys, ['w', 'x', 'y', 'z']);
    expect(sorted).toEqual(first);
    // More rows than before: new keys for the rest, never one twice.
    const more = render(keys, ['w', 'x', 'y', 'z', 'p', 'q']);
    expect(more.slice(0, 4)).toEqual(sorted);
    expect(new Set(more).size).toBe(6);
    // A filter keeping `x` and `z` among others: the others take the gone rows' keys in between.
    const filtered = render(keys, ['e', 'x', 'f', 'z', 'g', 'h']);
    expect(filtered[1]).toBe(more[1]);
    expect(filtered[3]).toBe(more[3]);
    expect(moves(more, filtered)).toBe(0);
    expect(filtered.filter((key) => more.includes(key))).toHaveLength(6);
  });

  it('never gives one key to two rows, and keeps moves to the rows that changed places', () => {
    const keys = new RecycledRowKeys();
    const pool = 'abcdefghijklmnopqrstuvwxyz'.split('');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let before: string[] = [];
    let beforeKeys: number[] = [];
    for (let round = 0; round < 300; round++) {
      const shown = [...pool].sort(() => (next() % 3) - 1).slice(0, 5 + (next() % 10));
      const start = next() % 3;
      const rendered = render(keys, shown, start, round % 4 === 0 ? shown : keys);
      expect(new Set(rendered).size).toBe(shown.length);
      // Kept orders keep their keys; React moves at most the rows whose relative order changed
      // (kept ones) and the newcomers given a gone row's key.
      const kept = shown.filter((id) => before.includes(id));
      for (const id of kept)
        expect(rendered[shown.indexOf(id)]).toBe(beforeKeys[before.indexOf(id)]);
      expect(moves(beforeKeys, rendered)).toBeLessThanOrEqual(shown.length);
      before = shown;
      beforeKeys = rendered;
    }
  });

  it('moves no row when orders keep arriving at the top of a long list', () => {
    const keys = new RecycledRowKeys();
    let list = Array.from({ length: 40 }, (_, i) => `o${i}`);
    let previous = render(keys, list.slice(0, 20));
    for (let batch = 0; batch < 50; batch++) {
      list = [...Array.from({ length: 1 + (batch % 7) }, (_, i) => `n${batch}-${i}`), ...list];
      const keysNow = render(keys, list.slice(0, 20));
      expect(moves(previous, keysNow)).toBe(0);
      expect(new Set(keysNow).size).toBe(20);
      previous = keysNow;
    }
  });
});
