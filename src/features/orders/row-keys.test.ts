import { describe, expect, it } from 'vitest';
import { RecycledRowKeys } from './row-keys.ts';

/** One render of the list: the keys of `ids` from `start`, as react-window asks for them. */
function render(keys: RecycledRowKeys, ids: string[], start = 0, pass: unknown = ids): number[] {
  return ids.map((id, i) => keys.keyOf(start + i, id, pass));
}

describe('RecycledRowKeys', () => {
  it('keeps an order’s key while it stays on screen, and reuses the keys of those gone', () => {
    const keys = new RecycledRowKeys();
    const first = render(keys, ['a', 'b', 'c', 'd']);
    expect(new Set(first).size).toBe(4);
    // Again (a scroll render with the same rows, or React rendering twice): the same keys.
    expect(render(keys, ['a', 'b', 'c', 'd'])).toEqual(first);
    // An order arriving at the top pushes `d` out: `n` takes its key, the others keep theirs.
    const shifted = render(keys, ['n', 'a', 'b', 'c']);
    expect(shifted).toEqual([first[3], first[0], first[1], first[2]]);
    // Scrolled down by one: `d` comes back at the bottom with the key `n` left.
    expect(render(keys, ['a', 'b', 'c', 'd'], 1)).toEqual([first[0], first[1], first[2], first[3]]);
    // A sort: other orders, the same keys (the rows' DOM reused).
    const sorted = render(keys, ['w', 'x', 'y', 'z']);
    expect(new Set(sorted)).toEqual(new Set(first));
    // More rows than before: new keys for the rest, never one twice.
    const more = render(keys, ['w', 'x', 'y', 'z', 'p', 'q']);
    expect(more.slice(0, 4)).toEqual(sorted);
    expect(new Set(more).size).toBe(6);
  });

  it('never gives one key to two rows, whatever the order of the asks', () => {
    const keys = new RecycledRowKeys();
    const pool = 'abcdefghijklmnopqrstuvwxyz'.split('');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const ids = [...pool].sort(() => (next() % 3) - 1).slice(0, 5 + (next() % 10));
      const start = next() % 3;
      const rendered = render(keys, ids, start, round % 4 === 0 ? ids : keys);
      expect(new Set(rendered).size).toBe(ids.length);
    }
  });
});
