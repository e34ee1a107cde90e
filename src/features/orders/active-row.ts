/** The part of a sorted list of order ids the table's active row needs. */
export interface RowIds {
  readonly size: number;
  at(index: number): string | undefined;
  toArray(): string[];
}

/**
 * Where the order `activeId` is in `ids` now (−1 when none is active or it left the list).
 * `hint` — where it was last seen — is checked first, so a list that did not move costs nothing.
 */
export function activeIndex(ids: RowIds, activeId: string | null, hint = -1): number {
  if (activeId === null) return -1;
  if (hint >= 0 && ids.at(hint) === activeId) return hint;
  return ids.toArray().indexOf(activeId);
}

/** Keys that move the active row. */
export type RowKey = 'ArrowDown' | 'ArrowUp' | 'PageDown' | 'PageUp' | 'Home' | 'End';

/**
 * The order a key makes active: one row or a page from the active one (from the top when none
 * is), or the first or last; null for an empty list. The active row is an order id, not a
 * position, so orders arriving above it never move the highlight to another order.
 */
export function moveActive(
  ids: RowIds,
  activeId: string | null,
  key: RowKey,
  page: number,
  hint = -1,
): { id: string; index: number } | null {
  if (ids.size === 0) return null;
  const from = activeIndex(ids, activeId, hint);
  const steps: Record<RowKey, number> = {
    ArrowDown: from + 1,
    ArrowUp: from - 1,
    PageDown: from + page,
    PageUp: from - page,
    Home: 0,
    End: ids.size - 1,
  };
  const index = Math.max(0, Math.min(ids.size - 1, steps[key]));
  return { id: ids.at(index)!, index };
}
