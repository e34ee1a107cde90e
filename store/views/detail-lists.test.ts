import { describe, expect, it } from 'vitest';
import { regroupByOrder } from './detail-lists.ts';

/** A note-like record of an order (`body: 'hidden'` is not shown). */
type Row = { id: string; orderId: string; updatedAt: number; body: string };
const row = (id: string, updatedAt: number, body = id, orderId = 'o1'): Row =>
  ({ id, orderId, updatedAt, body }) satisfies Row;

describe('regroupByOrder', () => {
  it('keeps per-order lists sorted, hides invisible records and shares untouched lists', () => {
    const other = [row('x', 1, 'x', 'o2')];
    const groups = { o2: other };
    const compare = (a: Row, b: Row) => a.updatedAt - b.updatedAt;
    const visible = (r: Row) => r.body !== 'hidden';
    const next = regroupByOrder(
      groups,
      [
        { before: undefined, after: row('b', 20) },
        { before: undefined, after: row('a', 10) },
        { before: undefined, after: row('c', 30, 'hidden') },
      ],
      { compare, visible },
    );
    expect(next.o1!.map((r) => r.id)).toEqual(['a', 'b']);
    expect(next.o2).toBe(other);
    const edited = regroupByOrder(next, [{ before: row('a', 10), after: row('a', 40) }], {
      compare,
      visible,
    });
    expect(edited.o1!.map((r) => r.id)).toEqual(['b', 'a']);
    expect(regroupByOrder(edited, [], { compare, visible })).toBe(edited);
    // An order with nothing left to show has no list.
    const emptied = regroupByOrder(
      edited,
      [
        { before: row('a', 40), after: undefined },
        { before: row('b', 20), after: undefined },
      ],
      { compare, visible },
    );
    expect(emptied.o1).toBeUndefined();
    expect(emptied.o2).toBe(other);
  });
});
