import { describe, expect, it } from 'vitest';
import { activeIndex, moveActive, type RowIds } from './active-row.ts';

const list = (...ids: string[]): RowIds => ({
  size: ids.length,
  at: (index) => ids[index],
  toArray: () => [...ids],
});

describe('active row by order id', () => {
  it('stays on the same order when new orders arrive above it', () => {
    const before = list('o3', 'o2', 'o1');
    expect(activeIndex(before, 'o2')).toBe(1);
    // Two new orders at the top: position 1 is now another order; the id still finds o2.
    const after = list('o5', 'o4', 'o3', 'o2', 'o1');
    expect(after.at(1)).toBe('o4');
    expect(activeIndex(after, 'o2', 1)).toBe(3);
    expect(moveActive(after, 'o2', 'ArrowDown', 10, 1)).toEqual({ id: 'o1', index: 4 });
    expect(moveActive(after, 'o2', 'ArrowUp', 10)).toEqual({ id: 'o3', index: 2 });
  });

  it('is −1 when nothing is active or the order left the list', () => {
    expect(activeIndex(list('a'), null)).toBe(-1);
    expect(activeIndex(list('a'), 'gone', 0)).toBe(-1);
  });

  it('moves by pages and to the ends, clamped; starts from the top when none is active', () => {
    const ids = list('a', 'b', 'c', 'd', 'e');
    expect(moveActive(ids, null, 'ArrowDown', 2)).toEqual({ id: 'a', index: 0 });
    expect(moveActive(ids, 'b', 'PageDown', 2)).toEqual({ id: 'd', index: 3 });
    expect(moveActive(ids, 'd', 'PageDown', 2)).toEqual({ id: 'e', index: 4 });
    expect(moveActive(ids, 'b', 'PageUp', 2)).toEqual({ id: 'a', index: 0 });
    expect(moveActive(ids, 'c', 'Home', 2)).toEqual({ id: 'a', index: 0 });
    expect(moveActive(ids, 'c', 'End', 2)).toEqual({ id: 'e', index: 4 });
    expect(moveActive(list(), 'a', 'End', 2)).toBeNull();
  });
});
