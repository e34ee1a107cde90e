import type { Order } from '../../domain/order.ts';
import { SortedIndex, type IndexDraft } from './sorted-index.ts';

/** Minutes in the orders-per-minute series. */
export const RATE_WINDOW_MINUTES = 30;
const MINUTE = 60_000;
const WINDOW_MS = RATE_WINDOW_MINUTES * MINUTE;

/**
 * The header's numbers. "Today" is the local calendar day containing `now`.
 *
 * - `ordersToday`: orders paid today (`paidAt` today) that are not canceled.
 * - `revenueCents`: the sum over those orders of `totalCents − refundedCents` (refunds, partial
 *   or full, come off; a canceled order counts nothing).
 * - `refundedCents`: the sum of `refundedCents` over orders paid today, whatever their status
 *   (a canceled order's refund too).
 * - `inProgress`: orders in `paid`, `preparing` or `ready`, whatever their day.
 * - `medianPaidToReadyMs`: the median of `readyAt − paidAt` over orders that became ready today
 *   (whatever happened to them after), or null when none has.
 * - `perMinute`: orders paid in each of the last 30 minutes (any status now), oldest first; the
 *   last value is the current, partial minute. `ordersPerMinute` is their average.
 */
export interface DeskMetrics {
  dayStart: number;
  revenueCents: number;
  /** What was refunded of the orders paid today (partial and full refunds, cancels). */
  refundedCents: number;
  /** The shop's currency, from the orders counted (null before the first one). */
  currency: string | null;
  ordersToday: number;
  inProgress: number;
  medianPaidToReadyMs: number | null;
  perMinute: readonly number[];
  ordersPerMinute: number;
}

/** Start of the local day containing `now`. */
export function startOfLocalDay(now: number): number {
  const date = new Date(now);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** Start of the local day after the one containing `now` (23–25 hours later across DST). */
export function startOfNextLocalDay(now: number): number {
  const date = new Date(startOfLocalDay(now));
  date.setDate(date.getDate() + 1);
  return date.getTime();
}

interface Work {
  revenueCents: number;
  refundedCents: number;
  ordersToday: number;
  inProgress: number;
  currencies: Map<string, number> | null;
  durations: IndexDraft | null;
  minutes: Int32Array | null;
  changed: boolean;
}

function isWorking(order: Order): boolean {
  return order.status === 'paid' || order.status === 'preparing' || order.status === 'ready';
}

/**
 * The running totals behind {@link DeskMetrics} for one local day, updated from diffs: each
 * changed order takes back what its previous version contributed and adds what its new one
 * does, so a batch costs O(changes), never a pass over every order. Immutable: {@link apply}
 * returns a new accumulator (or this one when nothing changed). A new day needs {@link build}.
 */
export class MetricsAccumulator {
  readonly dayStart: number;
  readonly dayEnd: number;
  readonly revenueCents: number;
  readonly refundedCents: number;
  readonly ordersToday: number;
  readonly inProgress: number;
  /** Counted orders per currency. */
  readonly #currencies: ReadonlyMap<string, number>;
  /**
   * `readyAt − paidAt` of orders ready today, ascending (keyed by the order: a batch copies only
   * the chunks it touches, not every duration of the day).
   */
  readonly #durations: SortedIndex;
  /** Orders paid per minute, from 30 minutes before `dayStart` to `dayEnd`. */
  readonly #minutes: Int32Array;

  private constructor(
    dayStart: number,
    dayEnd: number,
    totals: {
      revenueCents: number;
      refundedCents: number;
      ordersToday: number;
      inProgress: number;
    },
    currencies: ReadonlyMap<string, number>,
    durations: SortedIndex,
    minutes: Int32Array,
  ) {
    this.dayStart = dayStart;
    this.dayEnd = dayEnd;
    this.revenueCents = totals.revenueCents;
    this.refundedCents = totals.refundedCents;
    this.ordersToday = totals.ordersToday;
    this.inProgress = totals.inProgress;
    this.#currencies = currencies;
    this.#durations = durations;
    this.#minutes = minutes;
  }

  /** Totals for the day containing `now` over every order. */
  static build(orders: Iterable<Order>, now: number): MetricsAccumulator {
    const empty = MetricsAccumulator.#empty(now);
    const diffs: { before: undefined; after: Order }[] = [];
    for (const after of orders) diffs.push({ before: undefined, after });
    return empty.apply(diffs);
  }

  static #empty(now: number): MetricsAccumulator {
    const dayStart = startOfLocalDay(now);
    const dayEnd = startOfNextLocalDay(now);
    const minutes = new Int32Array(Math.ceil((dayEnd - dayStart + WINDOW_MS) / MINUTE));
    return new MetricsAccumulator(
      dayStart,
      dayEnd,
      { revenueCents: 0, refundedCents: 0, ordersToday: 0, inProgress: 0 },
      new Map(),
      SortedIndex.empty('asc'),
      minutes,
    );
  }

  /** The currency of the orders counted today (the shop has one), or null before the first. */
  get currency(): string | null {
    for (const currency of this.#currencies.keys()) return currency;
    return null;
  }

  /** Whether `now` falls in this accumulator's day. */
  covers(now: number): boolean {
    return now >= this.dayStart && now < this.dayEnd;
  }

  #counted(order: Order): boolean {
    return (
      order.paidAt !== null &&
      order.paidAt >= this.dayStart &&
      order.paidAt < this.dayEnd &&
      order.status !== 'canceled'
    );
  }

  #duration(order: Order): number | null {
    if (order.readyAt === null || order.paidAt === null) return null;
    if (order.readyAt < this.dayStart || order.readyAt >= this.dayEnd) return null;
    return Math.max(0, order.readyAt - order.paidAt);
  }

  #minute(order: Order): number {
    if (order.paidAt === null) return -1;
    const slot = Math.floor((order.paidAt - (this.dayStart - WINDOW_MS)) / MINUTE);
    return slot >= 0 && slot < this.#minutes.length ? slot : -1;
  }

  /** The accumulator after a batch of changed orders. */
  apply(
    diffs: Iterable<{ before: Order | undefined; after: Order | undefined }>,
  ): MetricsAccumulator {
    const work: Work = {
      revenueCents: this.revenueCents,
      refundedCents: this.refundedCents,
      ordersToday: this.ordersToday,
      inProgress: this.inProgress,
      currencies: null,
      durations: null,
      minutes: null,
      changed: false,
    };
    for (const { before, after } of diffs) {
      if (before === after) continue;
      if (before !== undefined && after !== undefined && this.#sameContribution(before, after))
        continue;
      if (before !== undefined) this.#take(work, before, -1);
      if (after !== undefined) this.#take(work, after, 1);
    }
    if (!work.changed) return this;
    return new MetricsAccumulator(
      this.dayStart,
      this.dayEnd,
      work,
      work.currencies ?? this.#currencies,
      work.durations?.commit() ?? this.#durations,
      work.minutes ?? this.#minutes,
    );
  }

  /** Whether two versions of an order count the same (most updates: nothing to do). */
  #sameContribution(a: Order, b: Order): boolean {
    return (
      a.status === b.status &&
      a.paidAt === b.paidAt &&
      a.readyAt === b.readyAt &&
      a.totalCents === b.totalCents &&
      a.refundedCents === b.refundedCents &&
      a.currency === b.currency
    );
  }

  #take(work: Work, order: Order, sign: 1 | -1): void {
    if (
      order.refundedCents > 0 &&
      order.paidAt !== null &&
      order.paidAt >= this.dayStart &&
      order.paidAt < this.dayEnd
    ) {
      work.refundedCents += sign * order.refundedCents;
      work.changed = true;
    }
    if (this.#counted(order)) {
      work.ordersToday += sign;
      work.revenueCents += sign * Math.max(0, order.totalCents - order.refundedCents);
      work.currencies ??= new Map(this.#currencies);
      const count = (work.currencies.get(order.currency) ?? 0) + sign;
      if (count > 0) work.currencies.set(order.currency, count);
      else work.currencies.delete(order.currency);
      work.changed = true;
    }
    if (isWorking(order)) {
      work.inProgress += sign;
      work.changed = true;
    }
    const duration = this.#duration(order);
    if (duration !== null) {
      work.durations ??= this.#durations.edit();
      const entry = { id: order.id, key: duration, tie: order.number };
      if (sign === 1) work.durations.insert(entry);
      else work.durations.remove(entry);
      work.changed = true;
    }
    const minute = this.#minute(order);
    if (minute !== -1) {
      work.minutes ??= this.#minutes.slice();
      work.minutes[minute] = work.minutes[minute]! + sign;
      work.changed = true;
    }
  }

  /** Median `readyAt − paidAt` today, or null. */
  medianPaidToReady(): number | null {
    const values = this.#durations;
    if (values.size === 0) return null;
    const mid = values.size >>> 1;
    const at = (index: number) => values.entryAt(index)!.key as number;
    return values.size % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  }

  /** Orders paid in each of the 30 minutes up to `now`, oldest first. */
  perMinute(now: number): number[] {
    const current = Math.floor((now - (this.dayStart - WINDOW_MS)) / MINUTE);
    const out: number[] = [];
    for (let m = current - RATE_WINDOW_MINUTES + 1; m <= current; m++)
      out.push(m >= 0 && m < this.#minutes.length ? this.#minutes[m]! : 0);
    return out;
  }

  /** The published numbers at `now` (which must fall in this day; see {@link covers}). */
  snapshot(now: number): DeskMetrics {
    const perMinute = this.perMinute(now);
    const total = perMinute.reduce((sum, n) => sum + n, 0);
    return {
      dayStart: this.dayStart,
      revenueCents: this.revenueCents,
      refundedCents: this.refundedCents,
      currency: this.currency,
      ordersToday: this.ordersToday,
      inProgress: this.inProgress,
      medianPaidToReadyMs: this.medianPaidToReady(),
      perMinute,
      ordersPerMinute: total / RATE_WINDOW_MINUTES,
    };
  }
}

/** Whether two published metrics show the same numbers. */
export function sameMetrics(a: DeskMetrics, b: DeskMetrics): boolean {
  return (
    a.dayStart === b.dayStart &&
    a.revenueCents === b.revenueCents &&
    a.refundedCents === b.refundedCents &&
    a.currency === b.currency &&
    a.ordersToday === b.ordersToday &&
    a.inProgress === b.inProgress &&
    a.medianPaidToReadyMs === b.medianPaidToReadyMs &&
    a.perMinute.length === b.perMinute.length &&
    a.perMinute.every((n, i) => n === b.perMinute[i])
  );
}
