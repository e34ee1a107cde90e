import type { Order } from '../../domain/order.ts';
import { itemsSummary } from '../../domain/order.ts';
import type { OrderListSpec } from './types.ts';

const summaries = new WeakMap<Order, string>();

function summary(order: Order): string {
  let text = summaries.get(order);
  if (text === undefined) {
    text = itemsSummary(order.items);
    summaries.set(order, text);
  }
  return text;
}

/** A comparator for a list spec: the sort column, then newest number first as a tie-break. */
export function comparatorFor(
  spec: Pick<OrderListSpec, 'sort' | 'dir'>,
): (a: Order, b: Order) => number {
  const sign = spec.dir === 'asc' ? 1 : -1;
  const key = spec.sort;
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

/** A predicate for a list spec (statuses, done-since, filter). */
export function predicateFor(spec: OrderListSpec): (order: Order) => boolean {
  const statuses = spec.statuses?.length ? new Set(spec.statuses) : null;
  const since = spec.fulfilledSince ?? null;
  const filter = spec.filter ?? null;
  return (order) =>
    (statuses === null || statuses.has(order.status)) &&
    (since === null || (order.fulfilledAt !== null && order.fulfilledAt >= since)) &&
    (filter === null || filter(order));
}

/**
 * A sorted id list kept up to date from changes: changed ids are removed and re-inserted by
 * binary search, never re-sorted as a whole (O(n + k log n) per batch of k changes).
 */
export class SortedView {
  ids: string[] = [];
  private readonly compare: (a: Order, b: Order) => number;
  private readonly include: (order: Order) => boolean;
  private readonly get: (id: string) => Order | undefined;

  constructor(spec: OrderListSpec, get: (id: string) => Order | undefined) {
    this.compare = comparatorFor(spec);
    this.include = predicateFor(spec);
    this.get = get;
  }

  /** Builds the list from every order. */
  rebuild(all: Iterable<Order>): void {
    const matching: Order[] = [];
    for (const order of all) if (this.include(order)) matching.push(order);
    matching.sort(this.compare);
    this.ids = matching.map((order) => order.id);
  }

  /** Applies changed orders (new versions already stored); returns whether the list changed. */
  apply(changed: readonly Order[]): boolean {
    if (changed.length === 0) return false;
    const touched = new Set<string>();
    for (const order of changed) touched.add(order.id);
    let next: string[];
    let removed = false;
    if (this.ids.some((id) => touched.has(id))) {
      next = this.ids.filter((id) => !touched.has(id));
      removed = true;
    } else next = this.ids.slice();
    let inserted = false;
    for (const order of changed) {
      const current = this.get(order.id);
      if (!current || !this.include(current)) continue;
      let lo = 0;
      let hi = next.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.compare(this.get(next[mid]!)!, current) <= 0) lo = mid + 1;
        else hi = mid;
      }
      next.splice(lo, 0, current.id);
      inserted = true;
    }
    if (!removed && !inserted) return false;
    this.ids = next;
    return true;
  }
}
