/**
 * A 30-bit FNV-1a hash of a string: small enough to be a V8 small integer, so a `Map` keyed by
 * it stores no heap numbers.
 */
export function hashId(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash >>> 2) & 0x3fffffff;
}

/**
 * Which slot each id has: slots are numbered from 0 in the order ids first arrive and never
 * change (append-only).
 *
 * The ids are not `Map` keys: Chromium's V8 internalizes every string used as a `Map` or `Set`
 * key, and each internalized string is a root that every major GC walks again — with 100,000
 * order ids that was 3–8 ms of each mark-compact pause. Instead an open-addressing table of slots
 * in an `Int32Array`, probed by the id's hash and checked against the id the slot holds (also
 * several times faster to fill than a `Map` of 100,000 hashes, and nothing for the GC to trace).
 */
export class IdSlots {
  #ids: string[] = [];
  /** Each slot's id hash (−1: a slot given to nobody). */
  #hashes = new Int32Array(64);
  /** The table: a slot, or −1 for an empty place; at most half full. */
  #table = new Int32Array(128).fill(-1);

  /** Number of ids with a slot. */
  get size(): number {
    return this.#ids.length;
  }

  /** The slot of `id`, or undefined when it has none. */
  get(id: string): number | undefined {
    const found = this.#find(hashId(id), id);
    return found < 0 ? undefined : this.#table[found]!;
  }

  /** The slot of `id`, given the next free one if it has none. */
  ensure(id: string): number {
    const hash = hashId(id);
    const found = this.#find(hash, id);
    if (found >= 0) return this.#table[found]!;
    const slot = this.#add(id, hash);
    this.#table[~found] = slot;
    if (2 * this.#ids.length > this.#table.length) this.#grow();
    return slot;
  }

  /** Gives the next free slot to nobody (a slot a table keeps empty); returns it. */
  skip(): number {
    return this.#add('', -1);
  }

  #add(id: string, hash: number): number {
    const slot = this.#ids.push(id) - 1;
    if (slot === this.#hashes.length) {
      const hashes = new Int32Array(2 * slot);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    this.#hashes[slot] = hash;
    return slot;
  }

  /** The place of `id` in the table, or `~place` of the empty place where it would go. */
  #find(hash: number, id: string): number {
    const table = this.#table;
    const mask = table.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const slot = table[at]!;
      if (slot < 0) return ~at;
      if (this.#hashes[slot] === hash && this.#ids[slot] === id) return at;
    }
  }

  #grow(): void {
    const table = new Int32Array(2 * this.#table.length).fill(-1);
    const mask = table.length - 1;
    const hashes = this.#hashes;
    for (let slot = 0; slot < this.#ids.length; slot++) {
      const hash = hashes[slot]!;
      if (hash < 0) continue;
      let at = hash & mask;
      while (table[at]! >= 0) at = (at + 1) & mask;
      table[at] = slot;
    }
    this.#table = table;
  }
}
