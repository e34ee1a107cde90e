import type { Order } from '../../domain/order.ts';
import type { EntityTable } from '../records/entity-table.ts';
import {
  entryOf,
  normalizeViewSpec,
  sortValueOf,
  viewNeedle,
  type OrderDiff,
  type OrderIndexDef,
  type OrderSortKey,
  type OrderViewDef,
  type OrderViewSpec,
} from './order-views.ts';
import { matchingSlots } from './search-index.ts';
import { drain, sortInSlices, STEP, type Job } from './sliced.ts';
import { radixSortRows, rowNumbers, sortRowsByText } from './key-sort.ts';
import {
  compareEntries,
  INDEX_CHUNK,
  SortedIndex,
  type IndexDraft,
  type IndexEntry,
} from './sorted-index.ts';

/**
 * Every order sorted (ascending) by one sortable column, as of one version of the orders (`at`):
 * built once with one sort, then brought up to date from the orders' changes when a view is made
 * from it or when the desk is idle ({@link catchUpSortColumn}), never in a realtime batch. A table
 * view in either direction, with any filter or search, is one ordered pass over its column (no
 * sort) caught up from `at`, so switching the sort or typing a search never sorts 100,000 orders
 * again, and a burst of traffic does not edit nine columns in every frame.
 */
export interface SortColumn {
  /** The orders of `at`, ascending by the column. */
  readonly index: SortedIndex;
  /** The version of the orders the index is of. */
  readonly at: EntityTable<Order>;
}

/** The sort columns the desk has asked for, by column. */
export type SortColumns = Readonly<Partial<Record<OrderSortKey, SortColumn>>>;

/**
 * A sort column's entry: with the order's slot in the orders table, so a pass reads the order
 * (`atSlot`: no lookup by id) and the search's matches by slot. An order that changes without
 * moving keeps its entry (its id, key, number and slot are the same), shared by the views made
 * from the column.
 */
interface ColumnEntry extends IndexEntry {
  readonly slot: number;
}

/** Builds the sort column of `key` over every order (one sort). */
export function buildSortColumn(key: OrderSortKey, orders: EntityTable<Order>): SortedIndex {
  return drain(sortColumnJob(key, orders));
}

/** Chunks of the orders table read between two yields (128 slots each). */
const TABLE_CHUNKS_PER_STEP = STEP >>> 7;

/**
 * {@link buildSortColumn} as a job (see `sliced.ts`). The entries are made a few chunks of the
 * table at a time, their numbers and keys copied into flat arrays; row numbers are sorted by
 * number, then id (a radix sort), then stably by key (a radix sort of numbers, or of the ranks of
 * texts: `key-sort.ts`), and the entries taken in that order. The column is of `orders` as
 * given; the caller brings it up to date with what changed meanwhile
 * ({@link catchUpSortColumn}).
 */
export function* sortColumnJob(key: OrderSortKey, orders: EntityTable<Order>): Job<SortedIndex> {
  const read = new ColumnRead(key, orders.size);
  for (let c = 0; c < orders.chunkCount; c += TABLE_CHUNKS_PER_STEP) {
    orders.forEachInChunks(c, c + TABLE_CHUNKS_PER_STEP, read.add);
    yield;
  }
  const { entries, ties, numbers, texts } = read;
  if (read.mixed) {
    yield* sortInSlices(entries, (a, b) => compareEntries(a, b, 1));
    return SortedIndex.fromSorted(entries, 'asc');
  }
  let rows = rowNumbers(entries.length);
  rows = yield* radixSortRows(rows, ties);
  byIdWhereEqual(rows, ties, entries);
  yield;
  rows = texts === null ? yield* radixSortRows(rows, numbers) : yield* sortRowsByText(rows, texts);
  const chunks: IndexEntry[][] = [];
  for (let r = 0; r < rows.length; r += INDEX_CHUNK) {
    chunks.push(takeRows(entries, rows, r, Math.min(rows.length, r + INDEX_CHUNK)));
    if (chunks.length % 4 === 0) yield;
  }
  return SortedIndex.fromChunks(chunks, rows.length, 'asc', 1);
}

/**
 * What a column's build reads of the orders (`add`: one order), by row (the order of the
 * table's slots): the entries, their numbers, and their keys — numbers, or texts (null: none).
 * `mixed` when the keys are neither all numbers nor all texts (or a number is NaN): the entries
 * are then sorted by comparing them.
 */
class ColumnRead {
  readonly entries: IndexEntry[] = [];
  readonly ties: Float64Array;
  readonly numbers: Float64Array;
  texts: (string | null)[] | null = null;
  mixed = false;
  readonly #key: OrderSortKey;

  constructor(key: OrderSortKey, size: number) {
    this.#key = key;
    this.ties = new Float64Array(size);
    this.numbers = new Float64Array(size);
  }

  readonly add = (order: Order, slot: number): void => {
    const value = sortValueOf(order, this.#key);
    const row = this.entries.length;
    const entry: ColumnEntry = { id: order.id, key: value, tie: order.number, slot };
    this.entries.push(entry);
    this.ties[row] = order.number;
    if (Number.isNaN(order.number)) this.mixed = true;
    if (typeof value === 'number') {
      this.numbers[row] = value;
      if (this.texts !== null || Number.isNaN(value)) this.mixed = true;
    } else {
      if (row > 0 && this.texts === null) this.mixed = true;
      (this.texts ??= []).push(value);
    }
  };
}

/** The entries of `rows[start..end)`, in that order. */
function takeRows(
  entries: readonly IndexEntry[],
  rows: Uint32Array,
  start: number,
  end: number,
): IndexEntry[] {
  const out = new Array<IndexEntry>(end - start);
  for (let r = start; r < end; r++) out[r - start] = entries[rows[r]!]!;
  return out;
}

/** Rows in order of `ties`, with each run of equal ties (rare: numbers are unique) by id. */
function byIdWhereEqual(
  rows: Uint32Array,
  ties: Float64Array,
  entries: readonly IndexEntry[],
): void {
  for (let start = 0, end = 1; end <= rows.length; end++) {
    if (end < rows.length && ties[rows[end]!] === ties[rows[start]!]) continue;
    if (end - start > 1)
      rows.subarray(start, end).sort((a, b) => (entries[a]!.id < entries[b]!.id ? -1 : 1));
    start = end;
  }
}

/**
 * A column brought up to `to`: the changes since its version applied as diffs (the column itself
 * when it is of `to`). Null when `to` is not a later version of the column's orders (a snapshot
 * was loaded meanwhile: build again).
 */
export function catchUpSortColumn(
  column: SortColumn,
  key: OrderSortKey,
  to: EntityTable<Order>,
): SortColumn | null {
  return drain(catchUpSortColumnJob(column, key, to));
}

/** Diffs applied to a column between two yields. */
const DIFFS_PER_STEP = STEP >>> 1;

/** {@link catchUpSortColumn} as a job (see `sliced.ts`): a few hundred diffs at a time. */
export function* catchUpSortColumnJob(
  column: SortColumn,
  key: OrderSortKey,
  to: EntityTable<Order>,
): Job<SortColumn | null> {
  if (column.at === to) return column;
  const diffs = changesBetween(column.at, to);
  return diffs === null ? null : yield* withDiffsJob(column, key, diffs, to);
}

/** The changes from `at` to `to`; null when `to` is not a later version of `at`. */
function changesBetween(at: EntityTable<Order>, to: EntityTable<Order>): OrderDiff[] | null {
  return at.version > to.version ? null : to.changesSince(at);
}

/** A column with the changes to `to` applied, a few hundred at a time (a job). */
function* withDiffsJob(
  column: SortColumn,
  key: OrderSortKey,
  diffs: readonly OrderDiff[],
  to: EntityTable<Order>,
): Job<SortColumn> {
  const draft = column.index.edit();
  for (let from = 0; from < diffs.length; from += DIFFS_PER_STEP) {
    if (from > 0) yield;
    applyColumnDiffs(draft, key, diffs, from, Math.min(diffs.length, from + DIFFS_PER_STEP), to);
  }
  return { index: draft.commit(), at: to };
}

/**
 * Diffs `start..end` applied to a column's draft (`orders`: the orders after them): an order
 * whose key or number changed moves (a new entry), a new one is inserted, a removed one removed;
 * an order that changed in place keeps its entry.
 */
function applyColumnDiffs(
  draft: IndexDraft,
  key: OrderSortKey,
  diffs: readonly OrderDiff[],
  start: number,
  end: number,
  orders: EntityTable<Order>,
): void {
  for (let d = start; d < end; d++) {
    const { before, after } = diffs[d]!;
    if (before === after) continue;
    const was = before === undefined ? null : sortValueOf(before, key);
    if (after === undefined) {
      if (before !== undefined) draft.remove({ id: before.id, key: was, tie: before.number });
      continue;
    }
    const is = sortValueOf(after, key);
    if (before !== undefined) {
      if (is === was && after.number === before.number) continue;
      draft.remove({ id: before.id, key: was, tie: before.number });
    }
    const entry: ColumnEntry = {
      id: after.id,
      key: is,
      tie: after.number,
      slot: orders.slotOf(after.id)!,
    };
    draft.insert(entry);
  }
}

/**
 * Every column brought up to `to` ({@link catchUpSortColumn}), the changes since each version of
 * the orders found once for the columns of that version; a column of another table of orders is
 * dropped (to be built again when asked for). The same object when every column is of `to`.
 */
export function catchUpSortColumns(columns: SortColumns, to: EntityTable<Order>): SortColumns {
  return drain(catchUpSortColumnsJob(columns, to));
}

/**
 * {@link catchUpSortColumns} as a job (see `sliced.ts`): a column at a time, a few hundred diffs
 * at a time.
 */
export function* catchUpSortColumnsJob(
  columns: SortColumns,
  to: EntityTable<Order>,
): Job<SortColumns> {
  const next: Partial<Record<OrderSortKey, SortColumn>> = {};
  const changes = new Map<EntityTable<Order>, OrderDiff[] | null>();
  let changed = false;
  for (const key in columns) {
    const sortKey = key as OrderSortKey;
    const column = columns[sortKey]!;
    if (column.at === to) {
      next[sortKey] = column;
      continue;
    }
    if (changed) yield;
    changed = true;
    if (!changes.has(column.at)) changes.set(column.at, changesBetween(column.at, to));
    const diffs = changes.get(column.at);
    if (diffs) next[sortKey] = yield* withDiffsJob(column, sortKey, diffs, to);
  }
  return changed ? next : columns;
}

/**
 * Whether every entry of a column holds the slot of its order in the column's orders (what a
 * pass reads the order and the search's matches by): the first entry that does not, or null.
 */
export function misplacedSlot(column: SortColumn): string | null {
  for (const entry of column.index.entries()) {
    const slot = (entry as Partial<ColumnEntry>).slot;
    if (slot === undefined || column.at.atSlot(slot)?.id !== entry.id) return entry.id;
  }
  return null;
}

/** The columns rebuilt over a new table of orders (the same keys). */
export function rebuildSortColumns(columns: SortColumns, orders: EntityTable<Order>): SortColumns {
  const next: Partial<Record<OrderSortKey, SortColumn>> = {};
  for (const key in columns)
    next[key as OrderSortKey] = { index: buildSortColumn(key as OrderSortKey, orders), at: orders };
  return next;
}

/**
 * The rows of a view taken from an index already in the view's sort: `source` is either the
 * view's ascending sort column or a maintained view with the same sort and a wider filter. One
 * pass in order (backwards for a descending view, nulls kept last); O(n) filter calls, no
 * comparisons, no allocation per row: the view shares the column's entries (an entry the view
 * made itself is looked up by id). A search is answered by slot (`search-index.ts`). With
 * `everyOrder` (no filter, no search) no pass at all: the source, or the source read backwards.
 */
export function selectFromIndex(
  source: SortedIndex,
  def: OrderViewDef,
  orders: EntityTable<Order>,
  everyOrder = false,
): SortedIndex {
  return drain(selectJob(source, def, orders, everyOrder));
}

/**
 * A source holding at least 1/WIDE of the orders has its filter tested over the whole table
 * (see {@link selectJob}).
 */
const WIDE = 8;

/** Chunks of an index (≤ 512 entries each) read between two yields. */
const INDEX_CHUNKS_PER_STEP = 4;

/**
 * Adds a chunk's entries that belong in the view to `rows` (or to `nulls`, for a null key), in
 * the view's order: those whose slot `matched` marks (every one without a search), then those
 * `filter` keeps (every one without a filter).
 */
function selectChunk(
  chunk: readonly IndexEntry[],
  reverse: boolean,
  orders: EntityTable<Order>,
  matched: Uint8Array | null,
  filter: ((order: Order) => boolean) | null,
  rows: IndexEntry[],
  nulls: IndexEntry[],
): void {
  for (let k = 0; k < chunk.length; k++) {
    const entry = chunk[reverse ? chunk.length - 1 - k : k]!;
    // An entry a view made itself (an order that moved in the view) has no slot.
    const slot = (entry as Partial<ColumnEntry>).slot ?? orders.slotOf(entry.id);
    if (slot === undefined || (matched !== null && matched[slot] !== 1)) continue;
    if (filter !== null) {
      const order = orders.atSlot(slot);
      if (order === undefined || !filter(order)) continue;
    }
    (entry.key === null ? nulls : rows).push(entry);
  }
}

/**
 * {@link selectFromIndex} as a job (see `sliced.ts`), a few chunks of the source at a time, the
 * search's matching slots found first. `source` and `orders` are of one state; the caller brings
 * the result up to date with what changed meanwhile ({@link catchUpView}).
 */
export function* selectJob(
  source: SortedIndex,
  def: OrderViewDef,
  orders: EntityTable<Order>,
  everyOrder = false,
): Job<SortedIndex> {
  // No filter: the column itself, read backwards for the other direction (an index is
  // immutable: the view's changes will copy what they touch).
  if (everyOrder) return source.direction === def.direction ? source : source.reversed();
  const reverse = source.chunkOrder !== def.direction;
  const chunks = source.chunkCount;
  const chunkAt = (step: number) => source.chunkAt(reverse ? chunks - 1 - step : step);
  const rows: IndexEntry[] = [];
  const nulls: IndexEntry[] = [];
  // The filter is tested over the whole table, in the order its records sit, when the source
  // holds a good part of it; per entry (reading each order by slot) when it is narrow.
  const wide = def.filter !== null && source.size * WIDE >= orders.size;
  const matched =
    def.search === null && !wide
      ? null
      : yield* matchingSlots(orders, def.search, wide ? def.parts : null);
  const filter = wide ? null : def.filter;
  for (let step = 0; step < chunks; step++) {
    selectChunk(chunkAt(step), reverse, orders, matched, filter, rows, nulls);
    if (step % INDEX_CHUNKS_PER_STEP === INDEX_CHUNKS_PER_STEP - 1) yield;
  }
  return SortedIndex.fromSorted(nulls.length ? rows.concat(nulls) : rows, def.direction);
}

/**
 * A view made from a source over an earlier version of the orders (`from`) brought up to `to`:
 * for each order changed between the two, its entry of then removed when held and its entry of
 * now inserted when it belongs. Right whichever version of a changed order the pass tested (an
 * entry's key never changes, so its entry of then is found). Null when `to` is not a later
 * version of `from`.
 */
export function catchUpView(
  index: SortedIndex,
  def: OrderIndexDef,
  from: EntityTable<Order>,
  to: EntityTable<Order>,
): SortedIndex | null {
  if (from === to) return index;
  const diffs = to.changesSince(from);
  if (diffs === null) return null;
  const draft = index.edit();
  for (const { before, after } of diffs) {
    if (before !== undefined) draft.remove(entryOf(def, before));
    if (after !== undefined && def.member(after)) draft.insert(entryOf(def, after));
  }
  return draft.commit();
}

/** A maintained view that can serve as the source of another (see {@link narrowestSource}). */
export interface SourceView {
  spec: OrderViewSpec;
  index: SortedIndex;
}

const NUMERIC = /^\d+$/;

/**
 * Whether every row of `target` is a row of `source` (both normalized, same sort column): each
 * filter of the source is absent or at least as wide (statuses a superset, the same assignee, a
 * created range around the target's) and the target's search needle holds the source's (a number
 * needle only when extended at its end: it matches numbers by prefix).
 */
export function viewCovers(source: OrderViewSpec, target: OrderViewSpec): boolean {
  if (source.sort !== target.sort) return false;
  if (source.statuses) {
    if (!target.statuses) return false;
    const wide = new Set(source.statuses);
    if (!target.statuses.every((status) => wide.has(status))) return false;
  }
  if (source.assignee && source.assignee !== target.assignee) return false;
  if (source.createdFrom != null && (target.createdFrom ?? -Infinity) < source.createdFrom)
    return false;
  if (source.createdTo != null && (target.createdTo ?? Infinity) > source.createdTo) return false;
  const wideNeedle = viewNeedle(source);
  if (wideNeedle === '') return true;
  const needle = viewNeedle(target);
  return NUMERIC.test(wideNeedle) ? needle.startsWith(wideNeedle) : needle.includes(wideNeedle);
}

/**
 * The smallest maintained view whose rows are a superset of `spec`'s rows, sorted by the same
 * column (in either direction: a pass reads it backwards): a search that the new one extends
 * (typing one more letter narrows the previous keystroke's rows instead of scanning every order),
 * a filter that the new one narrows (one more status dropped, a shorter date range). Null when
 * none.
 */
export function narrowestSource(
  spec: OrderViewSpec,
  views: Iterable<SourceView>,
): SortedIndex | null {
  const target = normalizeViewSpec(spec);
  let best: SortedIndex | null = null;
  for (const view of views) {
    if (best !== null && view.index.size >= best.size) continue;
    if (viewCovers(view.spec, target)) best = view.index;
  }
  return best;
}
