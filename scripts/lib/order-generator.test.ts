import { describe, expect, it } from 'vitest';
import { orderFromDocument } from '../../domain/order.ts';
import { DEMO_ACCOUNTS, DEMO_PRODUCTS } from './demo-data.ts';
import { generateOrder, orderTimes } from './order-generator.ts';
import { Random } from './random.ts';

const NOW = Date.parse('2026-11-22T15:00:00Z');
const staff = DEMO_ACCOUNTS.filter((account) => account.role === 'staff');

function generate(count: number, seed = 1) {
  const random = new Random(seed);
  return orderTimes(count, NOW, random).map((createdAt, index) =>
    generateOrder({
      number: 1001 + index,
      createdAt,
      now: NOW,
      products: DEMO_PRODUCTS,
      staff,
      random,
    }),
  );
}

describe('demo order generator', () => {
  it('spreads orders over the last 30 days in creation order, numbered sequentially', () => {
    const orders = generate(2_000);
    const created = orders.map((order) => Date.parse(order.$createdAt));
    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(created[0]).toBeGreaterThan(NOW - 30 * 24 * 3600_000);
    expect(created.at(-1)).toBeLessThanOrEqual(NOW);
    expect(orders.map((order) => order.number)).toEqual(orders.map((_, index) => 1001 + index));
  });

  it('keeps timestamps, totals and assignees consistent with the state machine', () => {
    for (const document of generate(3_000, 7)) {
      const order = orderFromDocument(document);
      expect(order.totalCents).toBe(
        order.items.reduce((sum, item) => sum + item.unitPriceCents * item.qty, 0),
      );
      const chain = [
        order.createdAt,
        order.paidAt,
        order.startedAt,
        order.readyAt,
        order.fulfilledAt,
      ].filter((t) => t !== null);
      expect(chain).toEqual([...chain].sort((a, b) => a - b));
      expect(order.updatedAt).toBeGreaterThanOrEqual(Math.max(...chain));
      if (
        order.status === 'preparing' ||
        order.status === 'ready' ||
        order.status === 'fulfilled'
      ) {
        expect(order.assigneeId).not.toBeNull();
        expect(order.startedAt).not.toBeNull();
      }
      if (order.status === 'fulfilled') expect(order.fulfilledAt).not.toBeNull();
      if (order.status === 'canceled') expect(order.canceledAt).not.toBeNull();
      if (order.status === 'refunded') expect(order.refundedCents).toBe(order.totalCents);
      expect(order.rev).toBeGreaterThanOrEqual(order.status === 'pending_payment' ? 0 : 1);
    }
  });

  it('gives recent orders open statuses and old orders closed ones', () => {
    const orders = generate(5_000, 3).map(orderFromDocument);
    const old = orders.filter((order) => NOW - order.createdAt > 2 * 3600_000);
    expect(old.every((order) => ['fulfilled', 'canceled', 'refunded'].includes(order.status))).toBe(
      true,
    );
    expect(old.filter((order) => order.status === 'fulfilled').length / old.length).toBeGreaterThan(
      0.85,
    );
  });

  it('is reproducible for a seed', () => {
    expect(generate(50, 42)).toEqual(generate(50, 42));
  });
});
