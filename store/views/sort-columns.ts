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
  type OrderViewSpec,
} from './order-views.ts';
import { drain, sortInSlices, STEP, type Job } from './sliced.ts';
import { compareEntries, SortedIndex, type IndexEntry, type RecordEntry } from './sorted-index.ts';

/**
 * Every order, kept sorted (ascending) by each sortable column the desk has asked for: built
 * once with one sort, then maintained from the diffs like any view. A table view in either
 * direction, with any filter or search, is one ordered pass over its column (no sort), so
 * switching the sort or typing a search never sorts 100,000 orders again.
 */
export type SortColumns = Readonly<Partial<Record<OrderSortKey, SortedIndex>>>;

/** A sort column's entry: with the order itself (no lookup by id in a pass). */
type ColumnEntry = RecordEntry<Order>;

/** The entry of an order in a sort column: with the order itself (no lookup by id in a pass). */
function columnEntry(key: OrderSortKey, order: Order): ColumnEntry {
  return {
    id: order.id,
    key: sortValueOf(order, key),
    tie: order.number,
    record: order,
  };
}

/** Builds the sort column of `key` over every order (one sort). */
export function buildSortColumn(key: OrderSortKey, orders: EntityTable<Order>): SortedIndex {
  const entries: IndexEntry[] = [];
  orders.forEach((order) => {
    entries.push(columnEntry(key, order));
  });
  return SortedIndex.build(entries, 'asc');
}

/** Chunks of the orders table read between two yields (128 slots each). */
const TABLE_CHUNKS_PER_STEP = STEP >>> 7;

/**
 * {@link buildSortColumn} as a job (see `sliced.ts`): the entries made a few chunks of the table
 * at a time, then sorted in slices. The column is of `orders` as given; the caller brings it up
 * to date with what changed meanwhile ({@link catchUpSortColumn}).
 */
export function* sortColumnJob(key: OrderSortKey, orders: EntityTable<Order>): Job<SortedIndex> {
  const entries: IndexEntry[] = [];
  const push = (order: Order) => {
    entries.push(columnEntry(key, order));
  };
  for (let c = 0; c < orders.chunkCount; c += TABLE_CHUNKS_PER_STEP) {
    orders.forEachInChunks(c, c + TABLE_CHUNKS_PER_STEP, push);
    yield;
  }
  yield* sortInSlices(entries, (a, b) => compareEntries(a, b, 1));
  return SortedIndex.fromSorted(entries, 'asc');
}

/**
 * A column built over an earlier version of the orders (`from`) brought up to `to`: the changes
 * between the two applied as diffs. Null when `to` is not a later version of `from` (a snapshot
 * was loaded meanwhile: build again).
 */
export function catchUpSortColumn(
  column: SortedIndex,
  key: OrderSortKey,
  from: EntityTable<Order>,
  to: EntityTable<Order>,
): SortedIndex | null {
  if (from === to) return column;
  const diffs = to.changesSince(from);
  return diffs === null ? null : applyColumnDiffs(column, key, diffs);
}

/**
 * One sort column after a batch: an order whose key changed moves (a new entry); an order that
 * changed in place has its entry's `record` updated (the entry is shared with the views made
 * from the column, which so never hold an old version).
 */
function applyColumnDiffs(
  column: SortedIndex,
  key: OrderSortKey,
  diffs: readonly OrderDiff[],
): SortedIndex {
  const draft = column.edit();
  for (const { before, after } of diffs) {
    if (before === after) continue;
    if (before !== undefined && after !== undefined) {
      const moved = columnEntry(key, after);
      if (moved.key === sortValueOf(before, key) && after.number === before.number) {
        const held = column.entryAt(column.indexOf(moved)) as ColumnEntry | undefined;
        if (held !== undefined && held.id === after.id) {
          held.record = after;
          continue;
        }
      }
      draft.remove(columnEntry(key, before));
      draft.insert(moved);
      continue;
    }
    if (before !== undefined) draft.remove(columnEntry(key, before));
    if (after !== undefined) draft.insert(columnEntry(key, after));
  }
  return draft.commit();
}

/** The columns after a batch of diffs (the same object when none moved). */
export function updateSortColumns(columns: SortColumns, diffs: readonly OrderDiff[]): SortColumns {
  if (diffs.length === 0) return columns;
  let next: Partial<Record<OrderSortKey, SortedIndex>> | null = null;
  for (const key in columns) {
    const sortKey = key as OrderSortKey;
    const column = columns[sortKey]!;
    const updated = applyColumnDiffs(column, sortKey, diffs);
    if (updated !== column) {
      next ??= { ...columns };
      next[sortKey] = updated;
    }
  }
  return next ?? columns;
}

/** The columns rebuilt over a new table of orders (the same keys). */
export function rebuildSortColumns(columns: SortColumns, orders: EntityTable<Order>): SortColumns {
  const next: Partial<Record<OrderSortKey, SortedIndex>> = {};
  for (const key in columns)
    next[key as OrderSortKey] = buildSortColumn(key as OrderSortKey, orders);
  return next;
}

/**
 * The rows of a view taken from an index already in the view's sort: `source` is either the
 * view's ascending sort column or a maintained view with the same sort and a wider filter. One
 * pass in order (backwards for a descending view, nulls kept last); O(n) predicate calls, no
 * comparisons, no allocation per row: the view shares the column's entries (which hold their
 * current order; an entry the view made itself is looked up by id).
 */
export function selectFromIndex(
  source: SortedIndex,
  def: OrderIndexDef,
  orders: EntityTable<Order>,
  everyOrder = false,
): SortedIndex {
  return drain(selectJob(source, def, orders, everyOrder));
}

/** Chunks of an index (≤ 512 entries each) read between two yields. */
const INDEX_CHUNKS_PER_STEP = 4;

/**
 * {@link selectFromIndex} as a job (see `sliced.ts`), a few chunks of the source at a time. An
 * entry's order is the one it holds, which may be newer than `orders` when the column changed
 * meanwhile: the caller brings the result up to date with {@link catchUpView}, which does not
 * depend on which version was tested.
 */
export function* selectJob(
  source: SortedIndex,
  def: OrderIndexDef,
  orders: EntityTable<Order>,
  everyOrder = false,
): Job<SortedIndex> {
  const reverse = source.direction !== def.direction;
  const chunks = source.chunkCount;
  if (everyOrder) {
    // No filter: the pointers are copied without reading the entries (into an array of the
    // final length), except to move the nulls (only at the end of the column) after the rest
    // in a descending view.
    const all: IndexEntry[] = new Array<IndexEntry>(source.size);
    const nullCount = reverse ? source.size - source.countWhile((e) => e.key !== null) : 0;
    let at = reverse ? source.size - nullCount : 0;
    let i = 0;
    for (let step = 0; step < chunks; step++) {
      const chunk = source.chunkAt(reverse ? chunks - 1 - step : step);
      for (let k = 0; k < chunk.length; k++) {
        const entry = chunk[reverse ? chunk.length - 1 - k : k]!;
        if (i++ < nullCount) all[at++] = entry;
        else {
          if (at === source.size) at = 0;
          all[at++] = entry;
        }
      }
      if (step % INDEX_CHUNKS_PER_STEP === INDEX_CHUNKS_PER_STEP - 1) yield;
    }
    return SortedIndex.fromSorted(all, def.direction);
  }
  const rows: IndexEntry[] = [];
  const nulls: IndexEntry[] = [];
  const member = def.member;
  for (let step = 0; step < chunks; step++) {
    const chunk = source.chunkAt(reverse ? chunks - 1 - step : step);
    for (let k = 0; k < chunk.length; k++) {
      const entry = chunk[reverse ? chunk.length - 1 - k : k]!;
      const order = (entry as Partial<ColumnEntry>).record ?? orders.get(entry.id);
      if (order !== undefined && member(order)) (entry.key === null ? nulls : rows).push(entry);
    }
    if (step % INDEX_CHUNKS_PER_STEP === INDEX_CHUNKS_PER_STEP - 1) yield;
  }
  for (const entry of nulls) rows.push(entry);
  return SortedIndex.fromSorted(rows, def.direction);
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
