import { describe, expect, it } from 'vitest';
import type { RowIds } from './row-slots.ts';
import { RowStream, streamRows, type ShownRows } from './row-stream.ts';

const list = (ids: string[]): RowIds => ({
  at: (index) => ids[index],
  slice: (start, end) => ids.slice(Math.max(0, start), end),
});
const range = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`);
const shownAs = (ids: string[]): ShownRows => ({ rows: list(ids), onPage: new Set(ids) });
const everyOrder = () => true;
const rowsOf = (rows: RowIds, count: number) => Array.from({ length: count }, (_, i) => rows.at(i));

describe('streamRows', () => {
  it('renders every row of a new list when nothing is on the page yet', () => {
    const next = list(range('n', 20));
    expect(streamRows(next, null, everyOrder, 0, 19, 10)).toEqual({ rows: next, heldBack: 0 });
  });

  it('renders the first new orders and leaves the other rows as they were for a frame', () => {
    const before = range('o', 20);
    const streamed = streamRows(list(range('n', 20)), shownAs(before), everyOrder, 0, 19, 10);
    expect(streamed.heldBack).toBe(10);
    expect(rowsOf(streamed.rows, 20)).toEqual([...range('n', 10), ...before.slice(10)]);
    expect(streamed.rows.slice(8, 12)).toEqual(['n8', 'n9', 'o10', 'o11']);
  });

  it('does not count orders already on the page, which are only moved', () => {
    // Four new orders at the top push the others down: live traffic, nothing held back.
    const before = range('o', 20);
    const next = list([...range('n', 4), ...before.slice(0, 16)]);
    expect(streamRows(next, shownAs(before), everyOrder, 0, 19, 4)).toEqual({
      rows: next,
      heldBack: 0,
    });
    // Past the budget, a new order's row may not keep an order that is moved elsewhere.
    expect(streamRows(next, shownAs(before), everyOrder, 0, 19, 2).heldBack).toBe(0);
  });

  it('never shows an order twice, nor one that is gone or was not on the page', () => {
    const before = range('o', 6);
    // The new list holds o5 at row 0: row 5 may not keep showing it.
    const next = list(['o5', 'n1', 'n2', 'n3', 'n4', 'n5']);
    const gone = new Set(['o3']);
    const streamed = streamRows(next, shownAs(before), (id) => !gone.has(id), 0, 5, 1);
    expect(rowsOf(streamed.rows, 6)).toEqual(['o5', 'n1', 'o2', 'n3', 'o4', 'n5']);
    expect(streamed.heldBack).toBe(2);
    const rowsNotOnPage: ShownRows = { rows: list(before), onPage: new Set(['o0']) };
    expect(streamRows(next, rowsNotOnPage, everyOrder, 0, 5, 1).heldBack).toBe(0);
  });

  it('leaves rows outside the range to the new list, and renders a shorter list whole', () => {
    const before = range('o', 30);
    const streamed = streamRows(list(range('n', 30)), shownAs(before), everyOrder, 5, 14, 4);
    expect(rowsOf(streamed.rows, 30)).toEqual([
      ...range('n', 9),
      ...before.slice(9, 15),
      ...range('n', 30).slice(15),
    ]);
    const one = list(['n0']);
    expect(streamRows(one, shownAs(before), everyOrder, 0, 19, 1)).toEqual({
      rows: one,
      heldBack: 0,
    });
  });
});

describe('RowStream', () => {
  it('streams a new list against the rows last shown, over the range last rendered', () => {
    const onPage = new Set(range('o', 20));
    const stream = new RowStream(onPage);
    const next = list(range('n', 20));
    // Nothing shown yet: the whole list at once.
    expect(stream.rowsFor(next, everyOrder, 'sort by total').heldBack).toBe(0);
    stream.shown({ rows: list(range('o', 20)), heldBack: 0, of: 'newest first' });
    stream.rendered(0, 19);
    const streamed = stream.rowsFor(next, everyOrder, 'sort by total');
    expect(streamed).toMatchObject({ heldBack: 10, of: 'sort by total' });
    expect(streamed.rows.at(19)).toBe('o19');
    expect(stream.rowsFor(next, everyOrder, 'sort by total', true).heldBack).toBe(0);
    stream.rendered(0, 4);
    expect(stream.rowsFor(next, everyOrder, 'sort by total').heldBack).toBe(0);
  });

  it('renders live changes to the list shown whole, and waits for a list still being made', () => {
    const stream = new RowStream(new Set(range('o', 20)));
    stream.shown({ rows: list(range('o', 20)), heldBack: 0, of: 'newest first' });
    stream.rendered(0, 19);
    // Twenty orders changed at once in the list shown (sorted by when they were updated).
    const next = list(range('n', 20));
    expect(stream.rowsFor(next, everyOrder, 'newest first').heldBack).toBe(0);
    // Another sort asked for, its list not made yet (`of` null): the rows are still the old list's.
    expect(stream.rowsFor(next, everyOrder, null)).toMatchObject({
      heldBack: 0,
      of: 'newest first',
    });
  });
});
