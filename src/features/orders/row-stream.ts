import type { RowIds } from './row-slots.ts';

/**
 * Rows of a new list rendered in one frame when most of the table changes at once (a sort, a
 * filter, a search): the other rows follow a frame later. A frame then lays out and paints about
 * half of the table's new text instead of all of it.
 */
export const NEW_ROWS_PER_FRAME = 10;

/** What {@link streamRows} decided. */
export interface StreamedRows {
  /** The order each row shows now. */
  rows: RowIds;
  /** Rows left showing their previous order until a later frame (0: `rows` is the new list). */
  heldBack: number;
}

/** The table as the page shows it now. */
export interface ShownRows {
  /** The order each row showed in the latest render. */
  rows: RowIds;
  /** The orders on the page (the latest render's rows). */
  onPage: { has(id: string): boolean };
}

/**
 * The rows to render for the list `next` over the row range `from`–`to` (inclusive): an order
 * already on the page is rendered at once (its row is moved, not written again), and so are the
 * first `budget` orders new to the page; each further new order's row keeps showing what it
 * showed (`shown`) until a later render, provided that order is on the page, still `exists` and is
 * not one of `next`'s rows in the range (it would be shown twice). Rows outside the range are
 * `next`'s.
 */
export function streamRows(
  next: RowIds,
  shown: ShownRows | null,
  exists: (id: string) => boolean,
  from: number,
  to: number,
  budget = NEW_ROWS_PER_FRAME,
): StreamedRows {
  if (shown === null || shown.rows === next || to < from) return { rows: next, heldBack: 0 };
  const range = next.slice(from, to + 1);
  const inRange = new Set(range);
  const held = new Map<number, string>();
  let admitted = 0;
  range.forEach((id, offset) => {
    if (shown.onPage.has(id)) return;
    if (admitted < budget) {
      admitted++;
      return;
    }
    const kept = shown.rows.at(from + offset);
    if (kept !== undefined && shown.onPage.has(kept) && !inRange.has(kept) && exists(kept))
      held.set(from + offset, kept);
  });
  if (held.size === 0) return { rows: next, heldBack: 0 };
  return {
    rows: {
      at: (index) => held.get(index) ?? next.at(index),
      slice: (start, end) => {
        const first = Math.max(0, start);
        return next.slice(first, end).map((id, offset) => held.get(first + offset) ?? id);
      },
    },
    heldBack: held.size,
  };
}

/** What {@link RowStream.rowsFor} decided, and which list its rows are of. */
export interface StreamedList extends StreamedRows {
  /** The list the rows are of (its query), once they are shown. */
  of: unknown;
}

/**
 * What the table remembers between renders for {@link streamRows}: the rows it showed, the list
 * they are of and the range of rows the list rendered. Only a change of list (another sort,
 * filter or search) is streamed: live changes to the list shown are rendered whole.
 */
export class RowStream {
  readonly #onPage: ShownRows['onPage'];
  #rows: RowIds | null = null;
  #of: unknown = undefined;
  #from = 0;
  #to = -1;

  constructor(onPage: ShownRows['onPage']) {
    this.#onPage = onPage;
  }

  /**
   * The rows to render for `next`, the rows of the list `of` (the previous list's rows while
   * `of` is null: the new one is not made yet); `whole` renders every row of it now.
   */
  rowsFor(next: RowIds, exists: (id: string) => boolean, of: unknown, whole = false): StreamedList {
    const list = of ?? this.#of;
    if (whole || list === this.#of || this.#rows === null)
      return { rows: next, heldBack: 0, of: list };
    const shown = { rows: this.#rows, onPage: this.#onPage };
    return { ...streamRows(next, shown, exists, this.#from, this.#to), of: list };
  }

  /** The rows a render committed. */
  shown({ rows, of }: StreamedList): void {
    this.#rows = rows;
    this.#of = of;
  }

  /** The rows the list rendered, with its overscan (inclusive). */
  rendered(from: number, to: number): void {
    this.#from = from;
    this.#to = to;
  }
}
