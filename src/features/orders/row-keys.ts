/** The rows of a list, by index (a `SortedIndex` is one). */
export interface RowIds {
  at(index: number): string | undefined;
  slice(start: number, end: number): string[];
}

/** Rows looked at past the previous render's count when a render starts (it may show more). */
const LOOKAHEAD = 8;

/**
 * Row keys that reuse a row's DOM for another order without making React move the rows around it.
 *
 * An order keeps its key while it stays among the rendered rows. An order coming in takes the
 * key of one that went out only where React keeps every other row in place: React moves a row
 * whose previous position is before that of a row already placed, so a gone row's key is given
 * to a newcomer when its previous position lies between those of the rows kept around it (a sort
 * or a filter, where every row is new: all of them, in order), or when only the newcomer itself
 * moves (a scroll: the row gone at the top comes back at the bottom). Else the newcomer gets a
 * new key: orders arriving at the top of the list are mounted there, and the rows below them are
 * not all taken out and put back (a full restyle and layout of the table at every batch).
 *
 * `keyOf` is called for the rendered rows in order, once per render of the list: an index not
 * after the previous one, or another `pass` object, starts a render. A key is given at most once
 * in a render, so two rows never share one.
 */
export class RecycledRowKeys {
  #previous = new Map<string, { key: number; position: number }>();
  #current = new Map<string, { key: number; position: number }>();
  #used = new Set<number>();
  /** Keys of rows gone since the previous render, by their previous position (ascending). */
  #gone: { key: number; position: number }[] = [];
  #goneNext = 0;
  /** For each row of the render's window, the previous position of the next row kept. */
  #keptAfter: number[] = [];
  #start = 0;
  #lastPlaced = -1;
  #lastIndex = Infinity;
  #pass: unknown = null;
  #next = 0;

  keyOf(index: number, rows: RowIds, pass: unknown): number {
    if (index <= this.#lastIndex || pass !== this.#pass) this.#begin(index, rows, pass);
    this.#lastIndex = index;
    const id = rows.at(index)!;
    const held = this.#current.get(id);
    if (held !== undefined) return held.key;
    const previous = this.#previous.get(id);
    let key: number;
    if (previous !== undefined && !this.#used.has(previous.key)) {
      key = previous.key;
      this.#lastPlaced = Math.max(this.#lastPlaced, previous.position);
    } else {
      key = this.#reused(index) ?? this.#next++;
    }
    this.#used.add(key);
    this.#current.set(id, { key, position: this.#current.size });
    return key;
  }

  /**
   * A gone row's key for the newcomer at `index`, if React would move no row but the newcomer:
   * one whose previous position is before a row already placed (only it moves), or before the
   * next row kept (nothing moves).
   */
  #reused(index: number): number | undefined {
    const bound = this.#keptAfter[index - this.#start] ?? Infinity;
    for (; this.#goneNext < this.#gone.length; this.#goneNext++) {
      const gone = this.#gone[this.#goneNext]!;
      if (this.#used.has(gone.key)) continue;
      if (gone.position > this.#lastPlaced && gone.position > bound) return undefined;
      this.#goneNext++;
      this.#lastPlaced = Math.max(this.#lastPlaced, gone.position);
      return gone.key;
    }
    return undefined;
  }

  #begin(start: number, rows: RowIds, pass: unknown): void {
    this.#pass = pass;
    if (this.#current.size > 0) this.#previous = this.#current;
    this.#current = new Map();
    this.#used = new Set();
    this.#start = start;
    this.#lastPlaced = -1;
    this.#lastIndex = Infinity;
    const window = rows.slice(start, start + this.#previous.size + LOOKAHEAD);
    const shown = new Set(window);
    // The previous render's rows were held in their order: the gone ones come out by position.
    this.#gone = [...this.#previous].filter(([id]) => !shown.has(id)).map(([, held]) => held);
    this.#goneNext = 0;
    this.#keptAfter = new Array<number>(window.length);
    let next = Infinity;
    for (let i = window.length - 1; i >= 0; i--) {
      this.#keptAfter[i] = next;
      const kept = this.#previous.get(window[i]!);
      if (kept !== undefined) next = kept.position;
    }
  }
}
