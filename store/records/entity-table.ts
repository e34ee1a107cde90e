import { IdSlots } from './id-slots.ts';

/** A record a table can hold: anything with a string `id`. */
export interface Keyed {
  readonly id: string;
}

const BITS = 7;
/** Slots per chunk. */
const CHUNK = 1 << BITS;
/** Slots per chunk of an {@link EntityTable} (see {@link EntityTable.chunkAt}). */
export const CHUNK_SLOTS = CHUNK;
const MASK = CHUNK - 1;

/** The records of 128 slots, by slot (`undefined`: empty). */
export type Chunk<T> = readonly (T | undefined)[];

const NO_RECORDS: Chunk<never> = Object.freeze([]);

function emptyChunk<T>(): (T | undefined)[] {
  return new Array<T | undefined>(CHUNK).fill(undefined);
}

/**
 * An immutable, normalized table of records by id: a value that can sit in the zustand state
 * without immer ever drafting or freezing it (it is a class instance, not a plain object).
 *
 * Each id has a fixed slot; records sit in chunks of 128 slots. An edit copies the chunk list
 * once and only the chunks it touches, so committing a few changes to 100,000 records copies a
 * few small arrays, not 100,000 entries, and every version stays a consistent snapshot.
 * Unchanged records keep their identity across versions, so a selector `table.get(id)` returns
 * the same reference until that record is replaced.
 *
 * @example
 * const draft = EntityTable.empty<Order>().edit();
 * draft.set(order);
 * const table = draft.commit(); // table.get(order.id) === order
 */
export class EntityTable<T extends Keyed> {
  /** Number of records. */
  readonly size: number;
  /** Increases by one with every commit that changed something. */
  readonly version: number;
  /** Shared by every version of the table (append-only, so older versions are unaffected). */
  readonly #slots: IdSlots;
  readonly #chunks: readonly Chunk<T>[];

  private constructor(slots: IdSlots, chunks: readonly Chunk<T>[], size: number, version: number) {
    this.#slots = slots;
    this.#chunks = chunks;
    this.size = size;
    this.version = version;
  }

  /** An empty table. */
  static empty<T extends Keyed>(): EntityTable<T> {
    return new EntityTable<T>(new IdSlots(), [], 0, 0);
  }

  /** A table of `records` (a later record with the same id replaces an earlier one). */
  static from<T extends Keyed>(records: readonly T[], version = 1): EntityTable<T> {
    const slots = new IdSlots();
    const chunks: (T | undefined)[][] = [];
    let size = 0;
    for (const record of records) {
      const slot = slots.ensure(record.id);
      const c = slot >>> BITS;
      if (c === chunks.length) chunks.push(emptyChunk<T>());
      const chunk = chunks[c]!;
      if (chunk[slot & MASK] === undefined) size++;
      chunk[slot & MASK] = record;
    }
    return new EntityTable(slots, chunks, size, version);
  }

  /**
   * A table holding `chunks` as they are (each record in the slot it has there, empty slots kept
   * empty), e.g. chunks written to storage by an earlier table; null when an id is in two slots.
   */
  static fromChunks<T extends Keyed>(chunks: readonly Chunk<T>[]): EntityTable<T> | null {
    const slots = new IdSlots();
    const out: Chunk<T>[] = [];
    let size = 0;
    let pending = 0;
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c]!;
      if (chunk.length !== CHUNK) return null;
      for (let i = 0; i < CHUNK; i++) {
        const record = chunk[i];
        if (record === undefined) {
          pending++;
          continue;
        }
        for (; pending > 0; pending--) slots.skip();
        if (slots.ensure(record.id) !== (c << BITS) + i) return null;
        size++;
      }
      out.push(chunk);
    }
    return new EntityTable(slots, out, size, 1);
  }

  /** @internal Used by {@link TableDraft.commit}. */
  static fromDraft<T extends Keyed>(
    source: EntityTable<T>,
    chunks: readonly Chunk<T>[],
    size: number,
  ): EntityTable<T> {
    return new EntityTable(source.#slots, chunks, size, source.version + 1);
  }

  /** The record with this id. */
  get(id: string): T | undefined {
    const slot = this.#slots.get(id);
    if (slot === undefined) return undefined;
    return this.#chunks[slot >>> BITS]?.[slot & MASK];
  }

  /** Whether a record with this id is present. */
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The record in a slot of {@link TableDraft.slotOf} (saves hashing the id again). */
  atSlot(slot: number): T | undefined {
    return this.#chunks[slot >>> BITS]?.[slot & MASK];
  }

  /**
   * An object shared by every version of this table and by no other table: what a cache by slot
   * (the same slot is the same id in every version) is kept by.
   */
  get lineage(): object {
    return this.#slots;
  }

  /**
   * The slot of an id (undefined when it has none): fixed for the id in every version of this
   * table, so a view can keep it and read the current record with {@link atSlot}.
   */
  slotOf(id: string): number | undefined {
    return this.#slots.get(id);
  }

  /** Calls `visit` for every record, in no particular order. */
  forEach(visit: (record: T) => void): void {
    this.forEachInChunks(0, this.#chunks.length, visit);
  }

  /** Number of chunks of slots (for a pass in slices: {@link forEachInChunks}). */
  get chunkCount(): number {
    return this.#chunks.length;
  }

  /**
   * Calls `visit` for every record of chunks `from` (inclusive) to `to` (exclusive), with its
   * slot.
   */
  forEachInChunks(from: number, to: number, visit: (record: T, slot: number) => void): void {
    const end = Math.min(to, this.#chunks.length);
    for (let c = Math.max(0, from); c < end; c++) {
      const chunk = this.#chunks[c]!;
      for (let i = 0; i < CHUNK; i++) {
        const record = chunk[i];
        if (record !== undefined) visit(record, (c << BITS) | i);
      }
    }
  }

  /**
   * The records of chunk `c` by slot (`CHUNK_SLOTS` of them, `undefined`: an empty slot; chunk
   * `c` holds slots `c × CHUNK_SLOTS` on; a chunk past the end has none). A chunk is never
   * modified: a commit that changes one of its records makes a new array, and a version of the
   * table shares every chunk it did not change with the version before, so a value derived from
   * a chunk can be kept by the chunk (a `WeakMap`: the search text, the snapshot encoder's pages)
   * and stays right for as long as the chunk is in use.
   */
  chunkAt(c: number): Chunk<T> {
    return this.#chunks[c] ?? NO_RECORDS;
  }

  /**
   * What changed from `older` to this table, one `{before, after}` per changed record (absent
   * before: added; absent after: removed), found by comparing chunks (an unchanged chunk is the
   * same array): O(chunks + changed chunks × 128). Null when `older` is not an earlier version
   * of this table (another table's slots: e.g. a snapshot loaded since).
   */
  changesSince(older: EntityTable<T>): { before: T | undefined; after: T | undefined }[] | null {
    if (older.#slots !== this.#slots) return null;
    const out: { before: T | undefined; after: T | undefined }[] = [];
    const chunks = Math.max(this.#chunks.length, older.#chunks.length);
    for (let c = 0; c < chunks; c++) {
      const now = this.#chunks[c];
      const then = older.#chunks[c];
      if (now === then) continue;
      for (let i = 0; i < CHUNK; i++) {
        const after = now?.[i];
        const before = then?.[i];
        if (after !== before) out.push({ before, after });
      }
    }
    return out;
  }

  /** Every record, in no particular order. */
  *values(): IterableIterator<T> {
    for (const chunk of this.#chunks)
      for (let i = 0; i < CHUNK; i++) {
        const record = chunk[i];
        if (record !== undefined) yield record;
      }
  }

  /** Every record as a new array, in no particular order. */
  toArray(): T[] {
    const out: T[] = [];
    this.forEach((record) => out.push(record));
    return out;
  }

  /** Starts a batch of changes; {@link TableDraft.commit} returns the next table. */
  edit(): TableDraft<T> {
    return new TableDraft(this, this.#slots, this.#chunks);
  }
}

/**
 * A batch of changes to an {@link EntityTable}: reads see the batch's own writes; the source
 * table is never modified.
 */
export class TableDraft<T extends Keyed> {
  readonly #source: EntityTable<T>;
  readonly #slots: IdSlots;
  #chunks: readonly Chunk<T>[];
  #copied: Chunk<T>[] | null = null;
  readonly #owned = new Set<Chunk<T>>();
  #size: number;

  /** @internal Use {@link EntityTable.edit}. */
  constructor(source: EntityTable<T>, slots: IdSlots, chunks: readonly Chunk<T>[]) {
    this.#source = source;
    this.#slots = slots;
    this.#chunks = chunks;
    this.#size = source.size;
  }

  /** Number of records including this batch's changes. */
  get size(): number {
    return this.#size;
  }

  get(id: string): T | undefined {
    const slot = this.#slots.get(id);
    if (slot === undefined) return undefined;
    return this.#chunks[slot >>> BITS]?.[slot & MASK];
  }

  /**
   * The slot of an id (assigned now if it has none). With {@link atSlot} and {@link setAt} a
   * batch looks an id up once however often it reads and writes its record.
   */
  slotOf(id: string): number {
    return this.#slots.ensure(id);
  }

  /** The record in a slot. */
  atSlot(slot: number): T | undefined {
    return this.#chunks[slot >>> BITS]?.[slot & MASK];
  }

  /** Sets (or with `undefined` removes) the record in a slot, which must be `record.id`'s. */
  setAt(slot: number, record: T | undefined): void {
    const current = this.#chunks[slot >>> BITS]?.[slot & MASK];
    if (current === record) return;
    this.#writable(slot >>> BITS)[slot & MASK] = record;
    if (current === undefined) this.#size++;
    else if (record === undefined) this.#size--;
  }

  #writable(c: number): (T | undefined)[] {
    if (this.#copied === null) {
      this.#copied = this.#chunks.slice();
      this.#chunks = this.#copied;
    }
    while (this.#copied.length <= c) {
      const chunk = emptyChunk<T>();
      this.#owned.add(chunk);
      this.#copied.push(chunk);
    }
    const chunk = this.#copied[c]!;
    if (this.#owned.has(chunk)) return chunk as (T | undefined)[];
    const copy = chunk.slice();
    this.#owned.add(copy);
    this.#copied[c] = copy;
    return copy;
  }

  /** Inserts or replaces the record with `record.id`. */
  set(record: T): void {
    const slot = this.#slots.ensure(record.id);
    const current = this.#chunks[slot >>> BITS]?.[slot & MASK];
    if (current === record) return;
    this.#writable(slot >>> BITS)[slot & MASK] = record;
    if (current === undefined) this.#size++;
  }

  /** Removes the record with this id; returns whether there was one. */
  delete(id: string): boolean {
    const slot = this.#slots.get(id);
    if (slot === undefined || this.#chunks[slot >>> BITS]?.[slot & MASK] === undefined)
      return false;
    this.#writable(slot >>> BITS)[slot & MASK] = undefined;
    this.#size--;
    return true;
  }

  /** The resulting table: the source itself when nothing changed. */
  commit(): EntityTable<T> {
    if (this.#copied === null) return this.#source;
    return EntityTable.fromDraft(this.#source, this.#copied, this.#size);
  }
}
