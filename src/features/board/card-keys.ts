const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(high, value));

/** Where a key moves the focus on the board: within a column, or to the next one. */
export type BoardMove =
  { within: 'column'; index: number } | { within: 'board'; direction: -1 | 1 } | null;

/**
 * The move of `key` from the card at `index` of a column of `size` cards: ↑/↓ one card, Home/End
 * the first and last, PgUp/PgDn `page` cards (kept inside the column); ←/→ the neighbouring
 * column. Null for any other key, or when the focus would stay where it is.
 */
export function boardMove(key: string, index: number, size: number, page: number): BoardMove {
  const to = (target: number): BoardMove => {
    const clamped = clamp(target, 0, size - 1);
    return clamped === index ? null : { within: 'column', index: clamped };
  };
  switch (key) {
    case 'ArrowDown':
      return to(index + 1);
    case 'ArrowUp':
      return to(index - 1);
    case 'PageDown':
      return to(index + page);
    case 'PageUp':
      return to(index - page);
    case 'Home':
      return to(0);
    case 'End':
      return to(size - 1);
    case 'ArrowLeft':
      return { within: 'board', direction: -1 };
    case 'ArrowRight':
      return { within: 'board', direction: 1 };
    default:
      return null;
  }
}

/**
 * The one card of a column that Tab reaches (the others are reached with the arrow keys): the
 * card last focused there, or the visible card nearest it when it has scrolled out of view
 * (`visible`: the first and last index on screen). Null for an empty column.
 */
export function tabbableCard(
  focused: number,
  visible: { startIndex: number; stopIndex: number } | null,
  size: number,
): number | null {
  if (size === 0) return null;
  const index = clamp(focused, 0, size - 1);
  if (!visible || visible.stopIndex < visible.startIndex) return index;
  return clamp(index, visible.startIndex, Math.min(visible.stopIndex, size - 1));
}
