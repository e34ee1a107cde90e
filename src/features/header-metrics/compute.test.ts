import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { computeMetrics } from './compute.ts';

const now = new Date(2026, 10, 22, 12, 0, 0).getTime();
const min = 60_000;
const order = (patch: Partial<Order>): Order =>
  ({
    status: 'paid',
    totalCents: 1000,
    refundedCents: 0,
    currency: 'eur',
    paidAt: null,
    readyAt: null,
    ...patch,
  }) as Order;

describe('computeMetrics', () => {
  it('sums today, counts work in progress, and takes the median paid→ready', () => {
    const metrics = computeMetrics(
      [
        order({ paidAt: now - 5 * min, status: 'paid' }),
        order({ paidAt: now - 30 * min, readyAt: now - 20 * min, status: 'ready' }),
        order({
          paidAt: now - 90 * min,
          readyAt: now - 60 * min,
          status: 'fulfilled',
          refundedCents: 200,
        }),
        order({ paidAt: now - 26 * 3600_000, status: 'fulfilled' }),
        order({ status: 'pending_payment' }),
      ],
      now,
    );
    expect(metrics.ordersToday).toBe(3);
    expect(metrics.revenueCents).toBe(2800);
    expect(metrics.inProgress).toBe(2);
    expect(metrics.medianPaidToReadyMs).toBe(20 * min);
  });

  it('buckets the last hour per minute, newest last', () => {
    const metrics = computeMetrics(
      [
        order({ paidAt: now - 30_000 }),
        order({ paidAt: now - 10_000 }),
        order({ paidAt: now - 59.5 * min }),
      ],
      now,
    );
    expect(metrics.perMinute).toHaveLength(60);
    expect(metrics.perMinute[59]).toBe(2);
    expect(metrics.perMinute[0]).toBe(1);
    expect(metrics.medianPaidToReadyMs).toBeNull();
  });
});
