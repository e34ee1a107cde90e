/** A sort key: numbers and strings compare natively; `null` sorts last in either direction. */
export type SortValue = number | string | null;

/** One id in a {@link SortedIndex} with the values it is sorted by. */
export interface IndexEntry {
  readonly id: string;
  /** The sort column's value. One index holds keys of one type (plus nulls). */
  readonly key: SortValue;
  /** Tie-break in the key's direction (the order number: newest first in a descending index). */
  readonly tie: number;
}

// Objects made by literals with the same keys share one shape in V8, which also tracks what
// each field has held (small integers, doubles, anything). Keys are integers in some indexes,
// doubles (times) or texts in others: the shapes of entries (`{id, key, tie}`, and the sort
// columns' `{id, key, tie, slot}`) take every kind of key once, here, so that a first index
// with another kind of key does not change the shape, which would make every entry of the
// other indexes be rewritten when next read.
for (const entry of [
  { id: '', key: 0 as SortValue, tie: 0 },
  { id: '', key: 0 as SortValue, tie: 0, slot: 0 },
])
  for (const key of [0.5, '', null]) entry.key = key;

/** Sort direction of an index's key. */
export type Direction = 'asc' | 'desc';

/** Entries per chunk after a build or a split. */
const CHUNK = 256;
/** Entries per chunk of an index built in order (see {@link SortedIndex.fromChunks}). */
export const INDEX_CHUNK = CHUNK;
/** A chunk longer than this splits in two. */
const MAX_CHUNK = 512;
/** A chunk shorter than this merges with its neighbour when they fit in one. */
const MIN_CHUNK = 64;

const NO_CHUNKS: readonly (readonly IndexEntry[])[] = Object.freeze([]);

/**
 * The total order of an index: key (nulls last), then `tie`, then id — all three in the index's
 * direction, so a descending index is exactly an ascending one read backwards with its nulls
 * moved to the end (what lets a view in either direction come from one sort column).
 */
export function compareEntries(a: IndexEntry, b: IndexEntry, sign: 1 | -1): number {
  const x = a.key;
  const y = b.key;
  if (x !== y) {
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -sign : sign;
  }
  if (a.tie !== b.tie) return a.tie < b.tie ? -sign : sign;
  return a.id < b.id ? -sign : a.id > b.id ? sign : 0;
}

/** Whether two entries sort the same (same id, key and tie-break). */
export function sameEntry(a: IndexEntry, b: IndexEntry): boolean {
  return a.id === b.id && a.key === b.key && a.tie === b.tie;
}

/** First position in `chunk` whose entry sorts at or after `entry`. */
function lowerBound(chunk: readonly IndexEntry[], entry: IndexEntry, sign: 1 | -1): number {
  let lo = 0;
  let hi = chunk.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareEntries(chunk[mid]!, entry, sign) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The chunk that holds (or would hold) `entry`: the first whose last entry is not before it. */
function chunkFor(chunks: readonly (readonly IndexEntry[])[], entry: IndexEntry, sign: 1 | -1) {
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const chunk = chunks[mid]!;
    if (compareEntries(chunk[chunk.length - 1]!, entry, sign) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const opposite = (direction: Direction): Direction => (direction === 'asc' ? 'desc' : 'asc');

/**
 * An immutable sorted list of ids, the backing of a virtualized view: `size` rows, `at(i)` the
 * id in row `i`. It is kept in chunks of a few hundred entries; an edit copies the chunk list
 * once and only the chunks it touches, and every insert or removal is a binary search plus a
 * splice inside one chunk. So keeping a 100,000-row view up to date costs O(log n) per changed
 * row, and each commit yields a new value (a new reference for React) while untouched chunks
 * are shared with the previous one.
 *
 * The chunks may hold the entries in the opposite direction (`chunkOrder`): an index and its
 * {@link reversed} share them, so a view sorted the other way is made without a pass.
 */
export class SortedIndex {
  /** Number of ids. */
  readonly size: number;
  /** Increases with every commit that changed the list. */
  readonly version: number;
  /** Key direction: the order of the rows. */
  readonly direction: Direction;
  /**
   * The order the chunks hold the entries in ({@link chunkAt}, the edits' binary searches):
   * `direction`, or the opposite one for an index read backwards (rows with a null key last in
   * both).
   */
  readonly chunkOrder: Direction;
  readonly #chunks: readonly (readonly IndexEntry[])[];
  #starts: Int32Array | null = null;
  #lastChunk = 0;
  /** Entries with a key (before the null keys at the chunks' end), when read backwards. */
  #keyed = -1;

  private constructor(
    chunks: readonly (readonly IndexEntry[])[],
    size: number,
    direction: Direction,
    version: number,
    chunkOrder: Direction,
  ) {
    this.#chunks = chunks;
    this.size = size;
    this.direction = direction;
    this.version = version;
    this.chunkOrder = chunkOrder;
  }

  /** An empty index. */
  static empty(direction: Direction): SortedIndex {
    return new SortedIndex(NO_CHUNKS, 0, direction, 0, direction);
  }

  /** An index of `entries` (sorted here; the array is reordered in place). */
  static build(entries: IndexEntry[], direction: Direction, version = 1): SortedIndex {
    const sign = direction === 'asc' ? 1 : -1;
    entries.sort((a, b) => compareEntries(a, b, sign));
    const chunks: IndexEntry[][] = [];
    for (let i = 0; i < entries.length; i += CHUNK) chunks.push(entries.slice(i, i + CHUNK));
    return new SortedIndex(chunks, entries.length, direction, version, direction);
  }

  /**
   * An index of `entries` that are already in the index's order (no sort: O(n)); the entry
   * objects are shared, not copied.
   */
  static fromSorted(
    entries: readonly IndexEntry[],
    direction: Direction,
    version = 1,
  ): SortedIndex {
    const chunks: IndexEntry[][] = [];
    for (let i = 0; i < entries.length; i += CHUNK) chunks.push(entries.slice(i, i + CHUNK));
    return new SortedIndex(chunks, entries.length, direction, version, direction);
  }

  /**
   * An index of chunks of entries already in `chunkOrder` (the index's direction unless given;
   * each chunk of about {@link INDEX_CHUNK}, none empty), shared, not copied: built a chunk at a
   * time, without an array of every entry.
   */
  static fromChunks(
    chunks: readonly (readonly IndexEntry[])[],
    size: number,
    direction: Direction,
    version: number,
    chunkOrder: Direction = direction,
  ): SortedIndex {
    return new SortedIndex(chunks, size, direction, version, chunkOrder);
  }

  /**
   * The same entries sorted the other way (nulls still last), in O(1): the chunks are shared
   * and read backwards.
   */
  reversed(): SortedIndex {
    return new SortedIndex(
      this.#chunks,
      this.size,
      opposite(this.direction),
      this.version,
      this.chunkOrder,
    );
  }

  /**
   * The place in the chunks of row `at`, or the row of place `at` (the same mapping both ways):
   * read backwards, the keyed entries are reversed and the null keys after them too.
   */
  #flip(at: number): number {
    if (this.chunkOrder === this.direction) return at;
    const keyed = this.#keyedCount();
    return at < keyed ? keyed - 1 - at : keyed + this.size - 1 - at;
  }

  /** Entries with a non-null key: the null keys are at the chunks' end (binary searches). */
  #keyedCount(): number {
    if (this.#keyed >= 0) return this.#keyed;
    const chunks = this.#chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (chunks[mid]![chunks[mid]!.length - 1]!.key === null) hi = mid;
      else lo = mid + 1;
    }
    let keyed = this.#chunkStarts()[lo]!;
    const chunk = chunks[lo];
    if (chunk !== undefined) {
      let a = 0;
      let b = chunk.length;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if (chunk[mid]!.key === null) b = mid;
        else a = mid + 1;
      }
      keyed += a;
    }
    this.#keyed = keyed;
    return keyed;
  }

  #chunkStarts(): Int32Array {
    if (this.#starts) return this.#starts;
    const starts = new Int32Array(this.#chunks.length + 1);
    for (let i = 0; i < this.#chunks.length; i++)
      starts[i + 1] = starts[i]! + this.#chunks[i]!.length;
    this.#starts = starts;
    return starts;
  }

  /** The entry in row `index`, or undefined when out of range. */
  entryAt(index: number): IndexEntry | undefined {
    if (index < 0 || index >= this.size || !Number.isInteger(index)) return undefined;
    return this.#entryAtPlace(this.#flip(index));
  }

  #entryAtPlace(index: number): IndexEntry {
    const starts = this.#chunkStarts();
    let c = this.#lastChunk;
    if (!(starts[c]! <= index && index < starts[c + 1]!)) {
      let lo = 0;
      let hi = this.#chunks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (starts[mid]! <= index) lo = mid;
        else hi = mid - 1;
      }
      c = lo;
      this.#lastChunk = c;
    }
    return this.#chunks[c]![index - starts[c]!]!;
  }

  /** The id in row `index`, or undefined when out of range. */
  at(index: number): string | undefined {
    return this.entryAt(index)?.id;
  }

  /** Ids of rows `start` (inclusive) to `end` (exclusive). */
  slice(start = 0, end = this.size): string[] {
    const out: string[] = [];
    const from = Math.max(0, start);
    const to = Math.min(this.size, end);
    if (from >= to) return out;
    if (this.chunkOrder !== this.direction) {
      for (let row = from; row < to; row++) out.push(this.#entryAtPlace(this.#flip(row)).id);
      return out;
    }
    const starts = this.#chunkStarts();
    for (let c = 0; c < this.#chunks.length && starts[c]! < to; c++) {
      const chunk = this.#chunks[c]!;
      const base = starts[c]!;
      if (base + chunk.length <= from) continue;
      for (let i = Math.max(0, from - base); i < chunk.length && base + i < to; i++)
        out.push(chunk[i]!.id);
    }
    return out;
  }

  /** Every id in order. */
  toArray(): string[] {
    const out: string[] = new Array<string>(this.size);
    let i = 0;
    this.forEachEntry((entry) => {
      out[i++] = entry.id;
    });
    return out;
  }

  /**
   * Calls `visit` with every entry, in order or (with `reverse`) backwards; stops early when it
   * returns false. A plain loop over the chunks: no iterator per entry.
   */
  forEachEntry(visit: (entry: IndexEntry) => boolean | void, reverse = false): void {
    if (this.chunkOrder !== this.direction) {
      for (let k = 0; k < this.size; k++)
        if (visit(this.#entryAtPlace(this.#flip(reverse ? this.size - 1 - k : k))) === false)
          return;
      return;
    }
    const chunks = this.#chunks;
    if (!reverse) {
      for (const chunk of chunks)
        for (let i = 0; i < chunk.length; i++) if (visit(chunk[i]!) === false) return;
      return;
    }
    for (let c = chunks.length - 1; c >= 0; c--) {
      const chunk = chunks[c]!;
      for (let i = chunk.length - 1; i >= 0; i--) if (visit(chunk[i]!) === false) return;
    }
  }

  /** Number of chunks (for a pass in slices, with {@link chunkAt}; in {@link chunkOrder}). */
  get chunkCount(): number {
    return this.#chunks.length;
  }

  /** The entries of chunk `c`, in {@link chunkOrder} (read-only: shared with other versions). */
  chunkAt(c: number): readonly IndexEntry[] {
    return this.#chunks[c] ?? [];
  }

  /** Every entry in order. */
  *entries(): IterableIterator<IndexEntry> {
    if (this.chunkOrder !== this.direction) {
      for (let row = 0; row < this.size; row++) yield this.#entryAtPlace(this.#flip(row));
      return;
    }
    for (const chunk of this.#chunks) yield* chunk;
  }

  /** The row of `entry` (matched by its id, key and tie-break), or -1 when absent. */
  indexOf(entry: IndexEntry): number {
    if (this.size === 0) return -1;
    const sign = this.chunkOrder === 'asc' ? 1 : -1;
    const c = chunkFor(this.#chunks, entry, sign);
    const chunk = this.#chunks[c]!;
    const at = lowerBound(chunk, entry, sign);
    if (at >= chunk.length || chunk[at]!.id !== entry.id) return -1;
    return this.#flip(this.#chunkStarts()[c]! + at);
  }

  /** Number of leading entries for which `test` holds (`test` must hold for a prefix only). */
  countWhile(test: (entry: IndexEntry) => boolean): number {
    let count = 0;
    if (this.chunkOrder !== this.direction) {
      this.forEachEntry((entry) => {
        if (!test(entry)) return false;
        count++;
      });
      return count;
    }
    for (const chunk of this.#chunks) {
      if (chunk.length && test(chunk[chunk.length - 1]!)) {
        count += chunk.length;
        continue;
      }
      for (const entry of chunk) {
        if (!test(entry)) return count;
        count++;
      }
      return count;
    }
    return count;
  }

  /** Starts a batch of inserts and removals; {@link IndexDraft.commit} returns the next index. */
  edit(): IndexDraft {
    return new IndexDraft(this, this.#chunks);
  }
}

/** A batch of changes to a {@link SortedIndex}; the source index is never modified. */
export class IndexDraft {
  readonly #source: SortedIndex;
  readonly #sign: 1 | -1;
  #chunks: (readonly IndexEntry[])[] | null = null;
  readonly #view: readonly (readonly IndexEntry[])[];
  readonly #owned = new Set<readonly IndexEntry[]>();
  #size: number;

  constructor(source: SortedIndex, chunks: readonly (readonly IndexEntry[])[]) {
    this.#source = source;
    this.#view = chunks;
    this.#sign = source.chunkOrder === 'asc' ? 1 : -1;
    this.#size = source.size;
  }

  #list(): readonly (readonly IndexEntry[])[] {
    return this.#chunks ?? this.#view;
  }

  /**
   * Chunk `c` with `remove` entries taken out at `at` and `entry` (if any) put there, as
   * `Array.splice` would: edited in place when this draft made it, else copied once with the edit
   * at its exact size (a copy spliced afterwards would allocate its backing store a second time).
   */
  #spliced(c: number, at: number, remove: 0 | 1, entry?: IndexEntry): IndexEntry[] {
    const chunks = (this.#chunks ??= this.#view.slice());
    const chunk = chunks[c]!;
    if (this.#owned.has(chunk)) {
      const owned = chunk as IndexEntry[];
      if (entry === undefined) owned.splice(at, remove);
      else owned.splice(at, remove, entry);
      return owned;
    }
    const copy = new Array<IndexEntry>(chunk.length - remove + (entry === undefined ? 0 : 1));
    for (let i = 0; i < at; i++) copy[i] = chunk[i]!;
    let to = at;
    if (entry !== undefined) copy[to++] = entry;
    for (let i = at + remove; i < chunk.length; i++) copy[to++] = chunk[i]!;
    this.#owned.add(copy);
    chunks[c] = copy;
    return copy;
  }

  /** Removes `entry` (found by its id, key and tie-break); returns whether it was present. */
  remove(entry: IndexEntry): boolean {
    const list = this.#list();
    if (list.length === 0) return false;
    const c = chunkFor(list, entry, this.#sign);
    const at = lowerBound(list[c]!, entry, this.#sign);
    if (at >= list[c]!.length || list[c]![at]!.id !== entry.id) return false;
    const chunk = this.#spliced(c, at, 1);
    this.#size--;
    const chunks = this.#chunks!;
    if (chunk.length === 0) chunks.splice(c, 1);
    else if (chunk.length < MIN_CHUNK) {
      const next = chunks[c + 1];
      if (next && chunk.length + next.length <= CHUNK) {
        const merged = chunk.concat(next);
        this.#owned.add(merged);
        chunks.splice(c, 2, merged);
      }
    }
    return true;
  }

  /** Inserts `entry` at its place (an entry with the same id must not be present). */
  insert(entry: IndexEntry): void {
    this.#size++;
    if (this.#list().length === 0) {
      const chunk = [entry];
      this.#owned.add(chunk);
      this.#chunks = [chunk];
      return;
    }
    const list = this.#list();
    const c = chunkFor(list, entry, this.#sign);
    const chunk = this.#spliced(c, lowerBound(list[c]!, entry, this.#sign), 0, entry);
    if (chunk.length > MAX_CHUNK) {
      const half = chunk.length >>> 1;
      const tail = chunk.slice(half);
      chunk.length = half;
      this.#owned.add(tail);
      this.#chunks!.splice(c + 1, 0, tail);
    }
  }

  /** Moves an entry from its old place to its new one (either may be null: not a member). */
  move(before: IndexEntry | null, after: IndexEntry | null): void {
    if (before !== null && after !== null && sameEntry(before, after)) return;
    if (before !== null) this.remove(before);
    if (after !== null) this.insert(after);
  }

  /** The resulting index: the source itself when nothing changed. */
  commit(): SortedIndex {
    if (this.#chunks === null) return this.#source;
    return SortedIndex.fromChunks(
      this.#chunks,
      this.#size,
      this.#source.direction,
      this.#source.version + 1,
      this.#source.chunkOrder,
    );
  }
}
