import type { Order } from '../../domain/order.ts';
import { itemsSummary } from '../../domain/order.ts';
import type { BoardColumn, IdList, OrderViewSpec } from './types.ts';

const summaries = new WeakMap<Order, string>();

function summary(order: Order): string {
  let text = summaries.get(order);
  if (text === undefined) {
    text = itemsSummary(order.items);
    summaries.set(order, text);
  }
  return text;
}

/** What a maintained list holds and how it orders it. */
export interface ViewDef {
  sort: keyof Order | 'items';
  dir: 'asc' | 'desc';
  member: (order: Order) => boolean;
}

/** A comparator: the sort column (nulls last), then newest number first as a tie-break. */
export function comparatorFor(def: Pick<ViewDef, 'sort' | 'dir'>): (a: Order, b: Order) => number {
  const sign = def.dir === 'asc' ? 1 : -1;
  const key = def.sort;
  return (a, b) => {
    let x: unknown;
    let y: unknown;
    if (key === 'items') {
      x = summary(a);
      y = summary(b);
    } else {
      x = a[key];
      y = b[key];
    }
    let result: number;
    if (x === y) result = 0;
    else if (x === null || x === undefined) result = 1;
    else if (y === null || y === undefined) result = -1;
    else if (typeof x === 'string' && typeof y === 'string')
      result = sign * x.localeCompare(y, 'en', { sensitivity: 'base' });
    else result = sign * ((x as number) < (y as number) ? -1 : 1);
    return result !== 0 ? result : b.number - a.number;
  };
}

const fold = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');

/** The row predicate of a table view spec (statuses, assignee, created range, text search). */
export function viewPredicate(spec: OrderViewSpec): (order: Order) => boolean {
  const statuses = spec.statuses?.length ? new Set(spec.statuses) : null;
  const assignee = spec.assignee ?? null;
  const from = spec.createdFrom ?? -Infinity;
  const to = spec.createdTo ?? Infinity;
  const needle = fold(spec.text?.trim() ?? '').replace(/^#/, '');
  const numeric = /^\d+$/.test(needle) ? needle : null;
  return (order) => {
    if (statuses !== null && !statuses.has(order.status)) return false;
    if (assignee === 'none') {
      if (order.assigneeId !== null) return false;
    } else if (assignee !== null && order.assigneeId !== assignee) return false;
    if (order.createdAt < from || order.createdAt >= to) return false;
    if (needle) {
      if (numeric !== null && String(order.number).startsWith(numeric)) return true;
      return (
        fold(order.customerName).includes(needle) || fold(order.customerEmail).includes(needle)
      );
    }
    return true;
  };
}

/** A string naming a table view: equal for specs that show the same rows in the same order. */
export function viewKey(spec: OrderViewSpec): string {
  return JSON.stringify([
    spec.sort,
    spec.dir,
    [...(spec.statuses ?? [])].sort(),
    spec.assignee ?? null,
    spec.createdFrom ?? null,
    spec.createdTo ?? null,
    spec.text?.trim() ?? '',
  ]);
}

/** The list definition of a table view. */
export function tableViewDef(spec: OrderViewSpec): ViewDef {
  return { sort: spec.sort, dir: spec.dir, member: viewPredicate(spec) };
}

/**
 * The list definition of a board column: `paid`, `preparing`, `ready` hold orders in that
 * status, oldest payment first; `done` holds orders fulfilled since `dayStart`, latest first.
 */
export function boardViewDef(column: BoardColumn, dayStart: number): ViewDef {
  if (column === 'done')
    return {
      sort: 'fulfilledAt',
      dir: 'desc',
      member: (o) =>
        o.status === 'fulfilled' && o.fulfilledAt !== null && o.fulfilledAt >= dayStart,
    };
  return { sort: 'paidAt', dir: 'asc', member: (o) => o.status === column };
}

/** One changed order: its previous version (absent when new) and the stored one. */
export interface OrderChangeRecord {
  before: Order | undefined;
  after: Order;
}

/**
 * A sorted id list kept up to date from changes, never re-sorted: a changed order is found by
 * binary search on its previous version and moved only when its place or membership changes
 * (O(k log n) plus one native splice per move). The array is changed in place (copying 100k
 * ids per frame would feed the garbage collector megabytes a second); each change bumps
 * `version`, and {@link snapshot} hands React a small new wrapper per version.
 */
export class SortedView {
  ids: string[] = [];
  version = 0;
  private wrapper: IdList | null = null;
  private readonly compare: (a: Order, b: Order) => number;
  private readonly include: (order: Order) => boolean;
  private readonly get: (id: string) => Order | undefined;

  constructor(def: ViewDef, get: (id: string) => Order | undefined) {
    this.compare = comparatorFor(def);
    this.include = def.member;
    this.get = get;
  }

  /** Builds the list from every order. */
  rebuild(all: Iterable<Order>): void {
    const matching: Order[] = [];
    for (const order of all) if (this.include(order)) matching.push(order);
    matching.sort(this.compare);
    this.ids = matching.map((order) => order.id);
    this.version++;
  }

  /** The list as React reads it: a new object whenever the list changed. */
  snapshot(): IdList {
    if (this.wrapper?.version !== this.version) {
      const ids = this.ids;
      this.wrapper = {
        version: this.version,
        length: ids.length,
        at: (index) => ids[index],
        indexOf: (id) => ids.indexOf(id),
      };
    }
    return this.wrapper;
  }

  /** Index of the first id whose order sorts at or after `order` (lower bound). */
  private lowerBound(ids: readonly string[], order: Order, current: (id: string) => Order): number {
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(current(ids[mid]!), order) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Applies changed orders (new versions already stored); returns whether the list changed. */
  apply(changes: readonly OrderChangeRecord[]): boolean {
    const ids = this.ids;
    let changed = false;
    // One change per id: its first previous version and its last version.
    const coalesced = new Map<string, OrderChangeRecord>();
    for (const change of changes) {
      const seen = coalesced.get(change.after.id);
      coalesced.set(change.after.id, seen ? { before: seen.before, after: change.after } : change);
    }
    // While removing, ids not yet re-placed compare by their previous version.
    const previous = new Map<string, Order>();
    for (const { before, after } of coalesced.values()) if (before) previous.set(after.id, before);
    const current = (id: string) => previous.get(id) ?? this.get(id)!;
    for (const { before, after } of coalesced.values()) {
      const was = before !== undefined && this.include(before);
      const is = this.include(after);
      if (was && is && this.compare(before, after) === 0) {
        previous.delete(after.id);
        continue;
      }
      if (was) {
        let at = this.lowerBound(ids, before, current);
        while (at < ids.length && ids[at] !== after.id) at++;
        if (at < ids.length) {
          ids.splice(at, 1);
          changed = true;
        }
      }
      previous.delete(after.id);
      if (is) {
        ids.splice(this.lowerBound(ids, after, current), 0, after.id);
        changed = true;
      }
    }
    if (changed) this.version++;
    return changed;
  }
}
