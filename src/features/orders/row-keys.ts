/**
 * Row keys that reuse a row's DOM for another order: an order keeps its key while it stays among
 * the rendered rows, and an order coming in takes the key of one that went out (the last rows of
 * the previous render first: those an order arriving at the top pushes out). A sort or a filter
 * then changes the text of the rows on screen instead of unmounting them all and mounting as
 * many (their elements made, styled and each given a compositing layer: `will-change`).
 *
 * `keyOf` is called for the rendered rows in order, once per render of the list: an index not
 * after the previous one, or another `pass` object, starts a render. A key is given at most once
 * in a render, so two rows never share one.
 */
export class RecycledRowKeys {
  #previous = new Map<string, number>();
  #current = new Map<string, number>();
  #used = new Set<number>();
  #free: number[] = [];
  #lastIndex = Infinity;
  #pass: unknown = null;
  #next = 0;

  keyOf(index: number, id: string, pass: unknown): number {
    if (index <= this.#lastIndex || pass !== this.#pass) this.#start(pass);
    this.#lastIndex = index;
    const held = this.#current.get(id);
    if (held !== undefined) return held;
    let key = this.#previous.get(id);
    if (key === undefined || this.#used.has(key)) {
      key = undefined;
      while (key === undefined && this.#free.length > 0) {
        const free = this.#free.pop()!;
        if (!this.#used.has(free)) key = free;
      }
      key ??= this.#next++;
    }
    this.#used.add(key);
    this.#current.set(id, key);
    return key;
  }

  #start(pass: unknown): void {
    this.#pass = pass;
    if (this.#current.size > 0) this.#previous = this.#current;
    this.#current = new Map();
    this.#used = new Set();
    this.#free = [...this.#previous.values()];
    this.#lastIndex = Infinity;
  }
}
