import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { Prng } from '../sync/testing/prng.ts';
import { advanceOrder, cancelOrder, makeOrder } from '../sync/testing/orders.ts';
import {
  MetricsAccumulator,
  RATE_WINDOW_MINUTES,
  sameMetrics,
  startOfLocalDay,
  startOfNextLocalDay,
  type DeskMetrics,
} from './metrics.ts';

const NOW = new Date(2026, 2, 10, 14, 30, 20).getTime();

/** The definition, computed naively over every order. */
function reference(orders: Iterable<Order>, now: number): DeskMetrics {
  const dayStart = startOfLocalDay(now);
  const dayEnd = startOfNextLocalDay(now);
  const today = (t: number | null) => t !== null && t >= dayStart && t < dayEnd;
  let revenueCents = 0;
  let refundedCents = 0;
  let ordersToday = 0;
  let inProgress = 0;
  let currency: string | null = null;
  const durations: number[] = [];
  const perMinute = new Array<number>(RATE_WINDOW_MINUTES).fill(0);
  const currentMinute = Math.floor(now / 60_000);
  for (const o of orders) {
    if (today(o.paidAt) && o.status !== 'canceled') {
      ordersToday++;
      revenueCents += Math.max(0, o.totalCents - o.refundedCents);
      currency ??= o.currency;
    }
    if (today(o.paidAt)) refundedCents += o.refundedCents;
    if (o.status === 'paid' || o.status === 'preparing' || o.status === 'ready') inProgress++;
    if (today(o.readyAt) && o.paidAt !== null) durations.push(Math.max(0, o.readyAt! - o.paidAt));
    if (o.paidAt !== null) {
      const slot = RATE_WINDOW_MINUTES - 1 - (currentMinute - Math.floor(o.paidAt / 60_000));
      if (slot >= 0 && slot < RATE_WINDOW_MINUTES && o.paidAt >= dayStart - 30 * 60_000)
        perMinute[slot]!++;
    }
  }
  durations.sort((a, b) => a - b);
  const mid = durations.length >> 1;
  const median =
    durations.length === 0
      ? null
      : durations.length % 2
        ? durations[mid]!
        : (durations[mid - 1]! + durations[mid]!) / 2;
  return {
    dayStart,
    revenueCents,
    refundedCents,
    currency,
    ordersToday,
    inProgress,
    medianPaidToReadyMs: median,
    perMinute,
    ordersPerMinute: perMinute.reduce((a, b) => a + b, 0) / RATE_WINDOW_MINUTES,
  };
}

describe('MetricsAccumulator', () => {
  it('counts by the definitions', () => {
    const rng = new Prng(1);
    const base = makeOrder(rng, { id: 'a', number: 1, createdAt: NOW - 600_000, status: 'paid' });
    const orders: Order[] = [
      {
        ...base,
        id: 'a',
        status: 'paid',
        paidAt: NOW - 60_000,
        totalCents: 1000,
        refundedCents: 0,
      },
      {
        ...base,
        id: 'b',
        status: 'fulfilled',
        paidAt: NOW - 600_000,
        readyAt: NOW - 300_000,
        totalCents: 500,
        refundedCents: 200,
      },
      {
        ...base,
        id: 'c',
        status: 'canceled',
        paidAt: NOW - 120_000,
        totalCents: 9999,
        refundedCents: 0,
      },
      {
        ...base,
        id: 'd',
        status: 'ready',
        paidAt: NOW - 26 * 3600_000,
        readyAt: NOW - 100_000,
        totalCents: 700,
      },
      { ...base, id: 'e', status: 'pending_payment', paidAt: null, totalCents: 400 },
    ];
    const metrics = MetricsAccumulator.build(orders, NOW).snapshot(NOW);
    expect(metrics.ordersToday).toBe(2);
    expect(metrics.revenueCents).toBe(1000 + 300);
    expect(metrics.refundedCents).toBe(200);
    expect(metrics.inProgress).toBe(2);
    expect(metrics.medianPaidToReadyMs).toBe((300_000 + 26 * 3600_000 - 100_000) / 2);
    expect(metrics.perMinute).toHaveLength(30);
    expect(metrics.perMinute[29]).toBe(0);
    expect(metrics.perMinute[28]).toBe(1);
    expect(metrics.perMinute[27]).toBe(1);
    expect(metrics.perMinute.reduce((a, b) => a + b)).toBe(3);
    expect(metrics).toEqual(reference(orders, NOW));
  });

  it('stays equal to a recomputation under random diffs', () => {
    const rng = new Prng(9);
    const current = new Map<string, Order>();
    for (let i = 0; i < 400; i++) {
      const o = makeOrder(rng, {
        number: i,
        createdAt: NOW - rng.int(0, 40 * 3600_000),
        status: rng.pick([
          'pending_payment',
          'paid',
          'preparing',
          'ready',
          'fulfilled',
          'refunded',
        ] as const),
      });
      current.set(o.id, o);
    }
    let acc = MetricsAccumulator.build(current.values(), NOW);
    let now = NOW;
    for (let round = 0; round < 80; round++) {
      now += rng.int(0, 90_000);
      const diffs: { before: Order | undefined; after: Order | undefined }[] = [];
      for (let k = rng.int(0, 30); k > 0; k--) {
        const ids = [...current.keys()];
        const before = current.get(rng.pick(ids))!;
        const roll = rng.next();
        const after =
          roll < 0.1
            ? undefined
            : roll < 0.2
              ? cancelOrder(before, now)
              : roll < 0.3
                ? {
                    ...before,
                    refundedCents: Math.min(before.totalCents, before.refundedCents + 100),
                    rev: before.rev + 1,
                  }
                : advanceOrder(rng, before, now);
        diffs.push({ before, after });
        if (after) current.set(after.id, after);
        else current.delete(before.id);
        if (rng.chance(0.3)) {
          const created = makeOrder(rng, { number: 1000 + round, createdAt: now, status: 'paid' });
          diffs.push({ before: undefined, after: created });
          current.set(created.id, created);
        }
      }
      acc = acc.apply(diffs);
      expect(acc.covers(now)).toBe(true);
      expect(acc.snapshot(now)).toEqual(reference(current.values(), now));
    }
  });

  it('returns itself when a batch changes nothing it counts', () => {
    const acc = MetricsAccumulator.build([], NOW);
    const rng = new Prng(2);
    const old = makeOrder(rng, { number: 1, createdAt: NOW - 72 * 3600_000, status: 'fulfilled' });
    expect(acc.apply([{ before: undefined, after: old }])).toBe(acc);
    expect(acc.apply([])).toBe(acc);
  });

  it('knows its day', () => {
    const acc = MetricsAccumulator.build([], NOW);
    expect(acc.covers(NOW)).toBe(true);
    expect(acc.covers(startOfNextLocalDay(NOW))).toBe(false);
    expect(acc.covers(startOfLocalDay(NOW) - 1)).toBe(false);
  });

  it('compares published metrics by value', () => {
    const a = MetricsAccumulator.build([], NOW).snapshot(NOW);
    expect(sameMetrics(a, { ...a, perMinute: [...a.perMinute] })).toBe(true);
    expect(sameMetrics(a, { ...a, inProgress: 1 })).toBe(false);
  });
});
