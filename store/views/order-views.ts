import { ORDER_STATUSES, type Order, type OrderStatus } from '../../domain/order.ts';
import type { EntityTable } from '../records/entity-table.ts';
import { SortedIndex, type Direction, type IndexEntry, type SortValue } from './sorted-index.ts';

/** Columns the orders table can sort by. */
export const ORDER_SORT_KEYS = [
  'number',
  'createdAt',
  'updatedAt',
  'status',
  'customerName',
  'customerEmail',
  'items',
  'totalCents',
  'assigneeName',
] as const;

/** A sortable column of the orders table. */
export type OrderSortKey = (typeof ORDER_SORT_KEYS)[number];

/**
 * Which orders a table view shows and in what order. Data only, so equal specs share one
 * maintained index (see {@link orderViewKey}).
 */
export interface OrderViewSpec {
  sort: OrderSortKey;
  dir: Direction;
  /** Only these statuses (all when empty or absent). */
  statuses?: readonly OrderStatus[];
  /** Only orders held by this user id; `'none'`: only unclaimed orders; null/absent: anyone. */
  assignee?: string | null;
  /** Only orders created at or after this time (epoch ms). */
  createdFrom?: number | null;
  /** Only orders created before this time (epoch ms, exclusive). */
  createdTo?: number | null;
  /**
   * Text search: the order number (`1042` or `#1042`, as a prefix), or a case-insensitive part
   * of the customer's name or email.
   */
  text?: string;
}

/** The view every desk keeps: all orders, newest first. */
export const DEFAULT_ORDER_VIEW: OrderViewSpec = { sort: 'createdAt', dir: 'desc' };

/** How one index picks and places orders. */
export interface OrderIndexDef {
  direction: Direction;
  /** Whether the order belongs in the index. */
  member(order: Order): boolean;
  /** The order's sort key (ties are broken by order number, then id). */
  key(order: Order): SortValue;
}

const STATUS_RANK = new Map<OrderStatus, number>(ORDER_STATUSES.map((s, i) => [s, i]));
/**
 * Characters that folding may change: beyond ASCII, but for the `×` and `…` of every items
 * summary, which decompose to themselves (so a summary of plain names is not normalized).
 */
// eslint-disable-next-line no-control-regex
const MAY_DECOMPOSE = /[^\u0000-\u007f\u00d7\u2026]/;
const MARKS = /[\u0300-\u036f]/g;

/** A string as it sorts and matches: lower case, accents removed. */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  return MAY_DECOMPOSE.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}

/** Between the name and the email in a search haystack: a character no needle holds. */
export const HAYSTACK_SEPARATOR = '\u0000';

/**
 * What a text search reads of an order: its folded name and email, with
 * {@link HAYSTACK_SEPARATOR} between them (a needle never spans the two). A pass over a view
 * reads these from the search text of the orders table (`search-index.ts`), made once per
 * chunk of the table; this is for single orders.
 */
export function searchTextOf(order: Order): string {
  return foldText(order.customerName) + HAYSTACK_SEPARATOR + foldText(order.customerEmail);
}

/** The sort value of `order` for `key` (workflow order for `status`; folded text for strings). */
export function sortValueOf(order: Order, key: OrderSortKey): SortValue {
  switch (key) {
    case 'number':
    case 'createdAt':
    case 'updatedAt':
    case 'totalCents':
      return order[key];
    case 'status':
      return STATUS_RANK.get(order.status) ?? ORDER_STATUSES.length;
    case 'customerName':
    case 'customerEmail':
      return foldText(order[key]);
    case 'assigneeName':
      return order.assigneeName === null ? null : foldText(order.assigneeName);
    case 'items':
      return foldText(order.itemsSummary);
  }
}

/** The search needle of a spec: folded, a leading `#` dropped ('' when the spec has no text). */
export function viewNeedle(spec: OrderViewSpec): string {
  const text = spec.text?.trim();
  return text ? foldText(text).replace(/^#/, '') : '';
}

/** Canonical form of a spec: statuses sorted and unique, text trimmed, absent filters dropped. */
export function normalizeViewSpec(spec: OrderViewSpec): OrderViewSpec {
  const out: OrderViewSpec = { sort: spec.sort, dir: spec.dir };
  if (spec.statuses?.length) {
    out.statuses = [...new Set(spec.statuses)].sort(
      (a, b) => STATUS_RANK.get(a)! - STATUS_RANK.get(b)!,
    );
  }
  if (spec.assignee) out.assignee = spec.assignee;
  if (spec.createdFrom !== undefined && spec.createdFrom !== null)
    out.createdFrom = spec.createdFrom;
  if (spec.createdTo !== undefined && spec.createdTo !== null) out.createdTo = spec.createdTo;
  // A text without a needle ('#' alone) searches nothing: the view is the one without it.
  const text = spec.text?.trim();
  if (text && viewNeedle({ sort: spec.sort, dir: spec.dir, text })) out.text = text;
  return out;
}

/** A string naming a view: equal for specs that show the same rows in the same order. */
export function orderViewKey(spec: OrderViewSpec): string {
  const s = normalizeViewSpec(spec);
  return JSON.stringify([
    s.sort,
    s.dir,
    s.statuses ?? [],
    s.assignee ?? null,
    s.createdFrom ?? null,
    s.createdTo ?? null,
    s.text ?? '',
  ]);
}

/** The spec a key names (the inverse of {@link orderViewKey}, up to normalization). */
export function orderViewSpecOf(key: string): OrderViewSpec {
  const [sort, dir, statuses, assignee, createdFrom, createdTo, text] = JSON.parse(key) as [
    OrderSortKey,
    Direction,
    OrderStatus[],
    string | null,
    number | null,
    number | null,
    string,
  ];
  return normalizeViewSpec({ sort, dir, statuses, assignee, createdFrom, createdTo, text });
}

/**
 * Whether an order number starts with the digits of `prefix` (its decimal form, as a text search
 * matches numbers), without making a string per order: a non-negative integer `n` starts with
 * the digits of `p` iff `p·10^k ≤ n < (p+1)·10^k` for some `k ≥ 0`.
 */
export function numberPrefixTest(prefix: string): (n: number) => boolean {
  if (!NUMERIC.test(prefix) || prefix.length > 15) return (n) => String(n).startsWith(prefix);
  // Only 0 itself is written with a leading zero.
  if (prefix.startsWith('0'))
    return (n) => (isPlainNumber(n) ? prefix === '0' && n === 0 : String(n).startsWith(prefix));
  const value = Number(prefix);
  return (n) => {
    if (!isPlainNumber(n)) return String(n).startsWith(prefix);
    for (let lo = value, hi = value + 1; lo <= n; lo *= 10, hi *= 10) if (n < hi) return true;
    return false;
  };
}

const NUMERIC = /^\d+$/;

/** A number written in plain decimal digits (no sign, fraction or exponent). */
function isPlainNumber(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n < 2 ** 50;
}

/**
 * A view's text search: an order matches when its haystack ({@link searchTextOf}) holds
 * `needle`, or its number starts with the needle's digits (`number`).
 */
export interface TextSearch {
  /** The folded needle; null when no text can match (it holds {@link HAYSTACK_SEPARATOR}). */
  needle: string | null;
  /** For a needle of digits: whether an order number starts with them. */
  number: ((n: number) => boolean) | null;
}

/** The text search of a spec (see {@link TextSearch}); null when it searches nothing. */
export function textSearchOf(spec: OrderViewSpec): TextSearch | null {
  const needle = viewNeedle(spec);
  if (!needle) return null;
  return {
    // A needle holding the separator would match across fields: it matches no text.
    needle: needle.includes(HAYSTACK_SEPARATOR) ? null : needle,
    number: NUMERIC.test(needle) ? numberPrefixTest(needle) : null,
  };
}

/** Whether an order matches a text search. */
export function matchesSearch(search: TextSearch, order: Order): boolean {
  if (search.number !== null && search.number(order.number)) return true;
  return search.needle !== null && searchTextOf(order).includes(search.needle);
}

/** The statuses a spec keeps; null when it keeps every one. */
function statusesOf(spec: OrderViewSpec): ReadonlySet<OrderStatus> | null {
  const { statuses } = normalizeViewSpec(spec);
  return statuses ? new Set(statuses) : null;
}

/**
 * The filters of a spec other than its statuses and its text search (assignee, created range),
 * only those it has; null when it has none.
 */
function otherFilterOf(spec: OrderViewSpec): ((order: Order) => boolean) | null {
  const s = normalizeViewSpec(spec);
  const tests: ((order: Order) => boolean)[] = [];
  const assignee = s.assignee ?? null;
  if (assignee === 'none') tests.push((order) => order.assigneeId === null);
  else if (assignee !== null) tests.push((order) => order.assigneeId === assignee);
  const from = s.createdFrom ?? -Infinity;
  const to = s.createdTo ?? Infinity;
  if (from !== -Infinity || to !== Infinity)
    tests.push((order) => order.createdAt >= from && order.createdAt < to);
  if (tests.length <= 1) return tests[0] ?? null;
  return (order) => tests.every((test) => test(order));
}

/** A spec's filters other than the text search, the statuses apart. */
function filterPartsOf(spec: OrderViewSpec): RecordFilterParts {
  return { statuses: statusesOf(spec), other: otherFilterOf(spec) };
}

/**
 * The filters of a spec other than its text search (statuses, assignee, created range) as one
 * predicate, only those it has; null when it has none.
 */
function filterOfParts({ statuses, other }: RecordFilterParts): ((order: Order) => boolean) | null {
  if (statuses === null) return other;
  if (other === null) return (order) => statuses.has(order.status);
  return (order) => statuses.has(order.status) && other(order);
}

/** The filters other than the text search, the statuses apart (a pass reads them by slot). */
export interface RecordFilterParts {
  /** The statuses kept; null: every one. */
  statuses: ReadonlySet<OrderStatus> | null;
  /** The assignee and created range; null: none. */
  other: ((order: Order) => boolean) | null;
}

/** The row predicate of a spec (statuses, assignee, created range, text). */
export function orderViewPredicate(spec: OrderViewSpec): (order: Order) => boolean {
  return predicateOf(filterOfParts(filterPartsOf(spec)), textSearchOf(spec));
}

/** The row predicate of a spec's filters and text search (either null: none). */
function predicateOf(
  filter: ((order: Order) => boolean) | null,
  search: TextSearch | null,
): (order: Order) => boolean {
  if (search === null) return filter ?? (() => true);
  if (filter === null) return (order) => matchesSearch(search, order);
  return (order) => filter(order) && matchesSearch(search, order);
}

/**
 * The index definition of a table view, with its predicate also in two parts: a pass over a
 * sort column finds the search's matches in the search text of the orders table (see
 * `search-index.ts`) and reads an order only for the other filters.
 */
export interface OrderViewDef extends OrderIndexDef {
  /** The filters other than the search (null: none). */
  filter: ((order: Order) => boolean) | null;
  /** `filter` in two parts: the statuses kept (null: all) and the other filters (null: none). */
  parts: RecordFilterParts;
  /** The text search (null: none). */
  search: TextSearch | null;
}

/** The index definition of a table view. */
export function orderViewDef(spec: OrderViewSpec): OrderViewDef {
  const key = spec.sort;
  const parts = filterPartsOf(spec);
  const filter = filterOfParts(parts);
  const search = textSearchOf(spec);
  return {
    direction: spec.dir,
    member: predicateOf(filter, search),
    key: (order) => sortValueOf(order, key),
    filter,
    parts,
    search,
  };
}

/** Board columns: three working columns and the day's finished orders. */
export const BOARD_COLUMNS = ['paid', 'preparing', 'ready', 'done'] as const;

/** A board column. */
export type BoardColumn = (typeof BOARD_COLUMNS)[number];

function workingColumn(status: OrderStatus): OrderIndexDef {
  return {
    direction: 'asc',
    member: (order) => order.status === status,
    key: (order) => order.paidAt ?? order.createdAt,
  };
}

/**
 * Index definitions of the board: `paid`, `preparing` and `ready` hold orders in that status,
 * oldest payment first; `done` holds orders fulfilled since `dayStart`, latest first.
 */
export function boardDefs(dayStart: number): Record<BoardColumn, OrderIndexDef> {
  return {
    paid: workingColumn('paid'),
    preparing: workingColumn('preparing'),
    ready: workingColumn('ready'),
    done: {
      direction: 'desc',
      member: (order) =>
        order.status === 'fulfilled' && order.fulfilledAt !== null && order.fulfilledAt >= dayStart,
      key: (order) => order.fulfilledAt,
    },
  };
}

/** Builds an index over every member of `orders` (one sort; for a new view or a new day). */
export function buildOrderIndex(def: OrderIndexDef, orders: EntityTable<Order>): SortedIndex {
  const entries: IndexEntry[] = [];
  orders.forEach((order) => {
    if (def.member(order)) entries.push(entryOf(def, order));
  });
  return SortedIndex.build(entries, def.direction);
}

/** One changed order: the version before the batch (absent: new) and after (absent: removed). */
export interface OrderDiff {
  before: Order | undefined;
  after: Order | undefined;
}

/** The index entry of an order under a definition. */
export function entryOf(def: OrderIndexDef, order: Order): IndexEntry {
  return { id: order.id, key: def.key(order), tie: order.number };
}

/** Applies a batch of diffs to one index: moves only the orders whose place or membership changed. */
export function applyOrderDiffs(
  index: SortedIndex,
  def: OrderIndexDef,
  diffs: readonly OrderDiff[],
): SortedIndex {
  const draft = index.edit();
  for (const { before, after } of diffs) {
    const was = before !== undefined && def.member(before);
    const is = after !== undefined && def.member(after);
    if (!was && !is) continue;
    if (was && is) {
      const key = def.key(after);
      if (key === def.key(before) && after.number === before.number) continue;
      draft.remove(entryOf(def, before));
      draft.insert({ id: after.id, key, tie: after.number });
    } else if (was) draft.remove(entryOf(def, before!));
    else draft.insert(entryOf(def, after!));
  }
  return draft.commit();
}
