import { describe, expect, it } from 'vitest';
import { boardMove } from './card-keys.ts';

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
