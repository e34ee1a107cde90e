import { describe, expect, it } from 'vitest';
import { RowSlots, type RowIds } from './row-slots.ts';

/** A list's rows, as the table has them (its `SortedIndex`). */
function rows(ids: string[]): RowIds {
  return { at: (i) => ids[i], slice: (start, end) => ids.slice(start, end) };
}

/** One render of the list: the slots of `shown` (rows `start`… of `all`), as react-window asks. */
function render(slots: RowSlots, shown: string[], start = 0, pass: unknown = shown): number[] {
  const all = rows([...new Array<string>(start).fill('?'), ...shown]);
  return shown.map((_, i) => slots.keyOf(start + i, all, pass));
}

describe('RowSlots', () => {
  it('keeps an order’s slot while it stays on screen, and gives orders arriving on top the slots of those gone', () => {
    const slots = new RowSlots();
    const first = render(slots, ['a', 'b', 'c', 'd']);
    expect(first).toEqual([0, 1, 2, 3]);
    // Again (a scroll render with the same rows, or React rendering twice): the same slots.
    expect(render(slots, ['a', 'b', 'c', 'd'])).toEqual(first);
    // Two orders arriving at the top push `c` and `d` out: the newcomers take their slots.
    expect(render(slots, ['n', 'm', 'a', 'b'])).toEqual([2, 3, 0, 1]);
    expect(slots.inOrder()).toEqual([2, 3, 0, 1]);
    expect(slots.slotAt(0)).toBe(2);
    expect(slots.slotAt(4)).toBeUndefined();
    // Scrolled down by two: `c` and `d` come back at the bottom in the slots `n` and `m` left.
    expect(render(slots, ['a', 'b', 'c', 'd'], 2)).toEqual([0, 1, 2, 3]);
    expect(slots.count).toBe(4);
    // The orders on the page are the latest render's.
    expect(['a', 'd', 'n'].map((id) => slots.has(id))).toEqual([true, true, false]);
  });

  it('reuses every slot for a sort or a filter, and makes new ones only for more rows', () => {
    const slots = new RowSlots();
    const first = render(slots, ['a', 'b', 'c', 'd']);
    expect(render(slots, ['w', 'x', 'y', 'z'])).toEqual(first);
    const more = render(slots, ['w', 'x', 'y', 'z', 'p', 'q']);
    expect(more).toEqual([0, 1, 2, 3, 4, 5]);
    // A filter keeping `x` and `z` among others: they keep their slots, the others take the rest.
    const filtered = render(slots, ['e', 'x', 'f', 'z', 'g', 'h']);
    expect(filtered[1]).toBe(1);
    expect(filtered[3]).toBe(3);
    expect(new Set(filtered)).toEqual(new Set(more));
    // Fewer rows: the slots left over stay for later, and more rows again take them.
    expect(render(slots, ['x'])).toEqual([1]);
    const again = render(slots, ['k', 'l', 'x']);
    expect(new Set(again).size).toBe(3);
    expect(slots.count).toBe(6);
  });

  it('never gives one slot to two rows, keeps kept orders in theirs, and makes no more slots than rows', () => {
    // (Kept: among as many rows as the previous render had. A render of more rows may give an
    // order further down another slot.)
    const slots = new RowSlots();
    const pool = 'abcdefghijklmnopqrstuvwxyz'.split('');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    let before: string[] = [];
    let beforeSlots: number[] = [];
    let most = 0;
    for (let round = 0; round < 300; round++) {
      const shown = [...pool].sort(() => (next() % 3) - 1).slice(0, 5 + (next() % 10));
      const start = next() % 3;
      const rendered = render(slots, shown, start, round % 4 === 0 ? shown : slots);
      expect(new Set(rendered).size).toBe(shown.length);
      for (const id of shown.slice(0, before.length).filter((id) => before.includes(id)))
        expect(rendered[shown.indexOf(id)]).toBe(beforeSlots[before.indexOf(id)]);
      most = Math.max(most, shown.length);
      expect(slots.count).toBe(most);
      before = shown;
      beforeSlots = rendered;
    }
  });

  it('keeps the slots in use bounded while orders keep arriving at the top of a long list', () => {
    const slots = new RowSlots();
    let list = Array.from({ length: 40 }, (_, i) => `o${i}`);
    render(slots, list.slice(0, 20));
    for (let batch = 0; batch < 50; batch++) {
      const arriving = Array.from({ length: 1 + (batch % 7) }, (_, i) => `n${batch}-${i}`);
      const goneSlots = arriving.map((_, i) => slots.slotAt(20 - arriving.length + i));
      list = [...arriving, ...list];
      const now = render(slots, list.slice(0, 20));
      expect(new Set(now).size).toBe(20);
      expect(new Set(now.slice(0, arriving.length))).toEqual(new Set(goneSlots));
      expect(slots.count).toBe(20);
    }
  });
});
