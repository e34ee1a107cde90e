/** The rows of a list, by index (a `SortedIndex` is one). */
export interface RowIds {
  at(index: number): string | undefined;
  slice(start: number, end: number): string[];
}

/**
 * The slots the table's rows are rendered into, as the list's row keys.
 *
 * An order keeps its slot while it stays among the rendered rows; an order coming in takes a
 * slot no kept order holds (the lowest), else a new one. Each slot is one element of the page,
 * and the page holds them in slot order whatever the rows' order on screen (a row is placed by
 * its transform): an order arriving at the top is written into the slot of the row that went
 * out at the bottom, and no row is taken out of the page and put back (a row put back is styled,
 * laid out and given a layer again).
 *
 * `keyOf` is called for the rendered rows in order, once per render of the list: an index not
 * after the previous one, or another `pass` object, starts a render. A slot is given at most
 * once in a render, so two rows never share one.
 */
export class RowSlots {
  #previous = new Map<string, number>();
  #current = new Map<string, number>();
  #byIndex = new Map<number, number>();
  #used = new Set<number>();
  #free: number[] = [];
  #freeNext = 0;
  #lastIndex = Infinity;
  #pass: unknown = null;
  #count = 0;

  /** The slot of the row at `index` of `rows` in the render `pass` (the list's row key). */
  keyOf(index: number, rows: RowIds, pass: unknown): number {
    if (index <= this.#lastIndex || pass !== this.#pass) this.#begin(index, rows, pass);
    this.#lastIndex = index;
    const id = rows.at(index)!;
    let slot = this.#current.get(id);
    if (slot === undefined) {
      const previous = this.#previous.get(id);
      slot = previous !== undefined && !this.#used.has(previous) ? previous : this.#freeSlot();
      this.#used.add(slot);
      this.#current.set(id, slot);
    }
    this.#byIndex.set(index, slot);
    return slot;
  }

  /** Whether the latest render has a row of the order `id`. */
  has(id: string): boolean {
    return this.#current.has(id);
  }

  /** The slot the latest render gave the row at `index` (undefined: not rendered). */
  slotAt(index: number): number | undefined {
    return this.#byIndex.get(index);
  }

  /** The slots of the latest render's rows, in the rows' order (the order `keyOf` was asked). */
  inOrder(): number[] {
    return [...this.#byIndex.values()];
  }

  /** How many slots there are (the most rows rendered at once). */
  get count(): number {
    return this.#count;
  }

  #freeSlot(): number {
    while (this.#freeNext < this.#free.length) {
      const slot = this.#free[this.#freeNext++]!;
      if (!this.#used.has(slot)) return slot;
    }
    return this.#count++;
  }

  #begin(start: number, rows: RowIds, pass: unknown): void {
    this.#pass = pass;
    if (this.#current.size > 0) this.#previous = this.#current;
    this.#current = new Map();
    this.#byIndex = new Map();
    this.#used = new Set();
    this.#lastIndex = Infinity;
    // The previous rows still among as many rows from `start` keep their slots. Newcomers take
    // the slots of the rows gone first (their elements are rewritten), then the empty ones.
    const shown = new Set(rows.slice(start, start + this.#previous.size));
    const gone: number[] = [];
    const taken = new Set<number>();
    for (const [id, slot] of this.#previous) {
      taken.add(slot);
      if (!shown.has(id)) gone.push(slot);
    }
    this.#free = gone.sort((a, b) => a - b);
    for (let slot = 0; slot < this.#count; slot++) if (!taken.has(slot)) this.#free.push(slot);
    this.#freeNext = 0;
  }
}

/**
 * One element per slot of {@link RowSlots}, kept under a host element in slot order: the table
 * renders each row into its slot's element (a portal). Made on first use, while the rows render
 * (a portal needs its element then), and put under the host at once: an empty element with no
 * box of its own (`display: contents`). A new host (the list mounted again) takes them all.
 */
export class RowSlotElements {
  readonly #elements: HTMLElement[] = [];
  #host: HTMLElement | null = null;

  /** The element of `slot`. */
  element(slot: number): HTMLElement {
    while (this.#elements.length <= slot) {
      const element = document.createElement('div');
      element.className = 'trow-slot';
      this.#elements.push(element);
      this.#host?.append(element);
    }
    return this.#elements[slot]!;
  }

  /** Ref callback of the element holding the slots. */
  readonly host = (host: HTMLElement | null): void => {
    this.#host = host;
    host?.append(...this.#elements);
  };
}
