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
 * order ids that was 3–8 ms of each mark-compact pause. Instead a `Map` from the id's hash to
 * its slot (or, for the rare hashes several ids share, to their slots), checked against the id
 * the slot holds.
 */
export class IdSlots {
  readonly #byHash = new Map<number, number | number[]>();
  readonly #ids: string[] = [];

  /** Number of ids with a slot. */
  get size(): number {
    return this.#ids.length;
  }

  /** The slot of `id`, or undefined when it has none. */
  get(id: string): number | undefined {
    return this.#find(hashId(id), id);
  }

  /** The slot of `id`, given the next free one if it has none. */
  ensure(id: string): number {
    const hash = hashId(id);
    const existing = this.#find(hash, id);
    if (existing !== undefined) return existing;
    const slot = this.#ids.push(id) - 1;
    const shared = this.#byHash.get(hash);
    if (shared === undefined) this.#byHash.set(hash, slot);
    else if (typeof shared === 'number') this.#byHash.set(hash, [shared, slot]);
    else shared.push(slot);
    return slot;
  }

  #find(hash: number, id: string): number | undefined {
    const found = this.#byHash.get(hash);
    if (found === undefined) return undefined;
    if (typeof found === 'number') return this.#ids[found] === id ? found : undefined;
    for (const slot of found) if (this.#ids[slot] === id) return slot;
    return undefined;
  }
}
