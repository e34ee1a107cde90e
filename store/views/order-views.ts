import { ORDER_STATUSES, itemsSummary, type Order, type OrderStatus } from '../../domain/order.ts';
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
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\u0000-\u007f]/;
const MARKS = /[\u0300-\u036f]/g;

/** A string as it sorts and matches: lower case, accents removed. */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}

/**
 * The folded text fields of one order version, computed once on first use (records are frozen
 * and replaced, never mutated, so a version's fields never change): a sort by customer or items
 * and every keystroke of a search read these instead of folding 100,000 strings again.
 */
interface FoldedFields {
  items?: string;
  assignee?: string | null;
  /** The search haystack: folded name, {@link HAYSTACK_SEPARATOR}, folded email. */
  text?: string;
}

/** Between the name and the email in a search haystack: a character no needle holds. */
const HAYSTACK_SEPARATOR = '\u0000';

const folded = new WeakMap<Order, FoldedFields>();

/** The cache entry of an order version. */
function fieldsOf(order: Order): FoldedFields {
  let fields = folded.get(order);
  if (fields === undefined) {
    fields = {};
    folded.set(order, fields);
  }
  return fields;
}

/**
 * What a text search reads of an order: its folded name and email in one string, made once per
 * order version (kept with the version, in a `WeakMap`), so a keystroke is one `includes` per
 * order over strings folded once, whatever the column or view.
 */
export function searchTextOf(order: Order): string {
  const fields = fieldsOf(order);
  return (fields.text ??=
    foldText(order.customerName) + HAYSTACK_SEPARATOR + foldText(order.customerEmail));
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
    case 'assigneeName': {
      if (order.assigneeName === null) return null;
      const fields = fieldsOf(order);
      return (fields.assignee ??= foldText(order.assigneeName));
    }
    case 'items': {
      const fields = fieldsOf(order);
      return (fields.items ??= foldText(itemsSummary(order.items)));
    }
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
  const text = spec.text?.trim();
  if (text) out.text = text;
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

/** The row predicate of a spec (statuses, assignee, created range, text). */
export function orderViewPredicate(spec: OrderViewSpec): (order: Order) => boolean {
  const s = normalizeViewSpec(spec);
  const statuses = s.statuses ? new Set(s.statuses) : null;
  const assignee = s.assignee ?? null;
  const from = s.createdFrom ?? -Infinity;
  const to = s.createdTo ?? Infinity;
  const needle = viewNeedle(s);
  const numeric = /^\d+$/.test(needle) ? needle : null;
  // A needle holding the separator would match across the name and the email: it matches none.
  const text = needle.includes(HAYSTACK_SEPARATOR) ? null : needle;
  return (order) => {
    if (statuses !== null && !statuses.has(order.status)) return false;
    if (assignee === 'none') {
      if (order.assigneeId !== null) return false;
    } else if (assignee !== null && order.assigneeId !== assignee) return false;
    if (order.createdAt < from || order.createdAt >= to) return false;
    if (needle) {
      if (numeric !== null && String(order.number).startsWith(numeric)) return true;
      return text !== null && searchTextOf(order).includes(text);
    }
    return true;
  };
}

/** The index definition of a table view. */
export function orderViewDef(spec: OrderViewSpec): OrderIndexDef {
  const member = orderViewPredicate(spec);
  const key = spec.sort;
  return {
    direction: spec.dir,
    member,
    key: (order) => sortValueOf(order, key),
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
