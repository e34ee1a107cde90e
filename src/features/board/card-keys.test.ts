import { describe, expect, it } from 'vitest';
import { boardMove, tabbableCard } from './card-keys.ts';

describe('boardMove', () => {
  it('moves one card up or down, a page, or to either end, inside the column', () => {
    expect(boardMove('ArrowDown', 3, 10, 4)).toEqual({ within: 'column', index: 4 });
    expect(boardMove('ArrowUp', 3, 10, 4)).toEqual({ within: 'column', index: 2 });
    expect(boardMove('PageDown', 8, 10, 4)).toEqual({ within: 'column', index: 9 });
    expect(boardMove('PageUp', 2, 10, 4)).toEqual({ within: 'column', index: 0 });
    expect(boardMove('Home', 3, 10, 4)).toEqual({ within: 'column', index: 0 });
    expect(boardMove('End', 3, 10, 4)).toEqual({ within: 'column', index: 9 });
  });

  it('stays put at the ends of a column', () => {
    expect(boardMove('ArrowUp', 0, 10, 4)).toBeNull();
    expect(boardMove('ArrowDown', 9, 10, 4)).toBeNull();
  });

  it('goes to the neighbouring column with ← and →, and ignores other keys', () => {
    expect(boardMove('ArrowLeft', 3, 10, 4)).toEqual({ within: 'board', direction: -1 });
    expect(boardMove('ArrowRight', 3, 10, 4)).toEqual({ within: 'board', direction: 1 });
    expect(boardMove('Enter', 3, 10, 4)).toBeNull();
    expect(boardMove('a', 3, 10, 4)).toBeNull();
  });
});

describe('tabbableCard', () => {
  it('is the card last focused while it is on screen', () => {
    expect(tabbableCard(3, { startIndex: 0, stopIndex: 6 }, 10)).toBe(3);
    expect(tabbableCard(0, null, 10)).toBe(0);
  });

  it('is the visible card nearest it once it has scrolled out of view', () => {
    expect(tabbableCard(1, { startIndex: 5, stopIndex: 9 }, 20)).toBe(5);
    expect(tabbableCard(15, { startIndex: 5, stopIndex: 9 }, 20)).toBe(9);
  });

  it('stays inside a column that shrank, and is none in an empty one', () => {
    expect(tabbableCard(8, { startIndex: 0, stopIndex: 6 }, 3)).toBe(2);
    expect(tabbableCard(8, null, 3)).toBe(2);
    expect(tabbableCard(0, null, 0)).toBeNull();
  });
});
