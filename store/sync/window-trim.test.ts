import { describe, expect, it } from 'vitest';
import { drain } from '../views/sliced.ts';
import { windowStart } from './desk-window.ts';
import { makeOrder } from './testing/orders.ts';
import { Prng } from './testing/prng.ts';
import { agedOut, agedOutOrders } from './window-trim.ts';

const DAY = 24 * 3600_000;
const NOW = Date.UTC(2026, 10, 29, 12);
const rng = new Prng(7);
const order = (id: string, ageDays: number, status: Parameters<typeof makeOrder>[1]['status']) =>
  makeOrder(rng, { id, number: 1, createdAt: NOW - ageDays * DAY, status });

describe('the window trim', () => {
  it('starts the window historyDays before now', () => {
    expect(windowStart(NOW, 30)).toBe(NOW - 30 * DAY);
  });

  it('lets go of a closed order created before the window, never an open or unpaid one', () => {
    const since = windowStart(NOW, 30);
    expect(agedOut(order('f', 30.01, 'fulfilled'), since)).toBe(true);
    expect(agedOut(order('c', 45, 'canceled'), since)).toBe(true);
    expect(agedOut(order('r', 45, 'refunded'), since)).toBe(true);
    expect(agedOut(order('edge', 30, 'fulfilled'), since)).toBe(false);
    expect(agedOut(order('young', 29.99, 'fulfilled'), since)).toBe(false);
    for (const status of ['paid', 'preparing', 'ready', 'pending_payment'] as const)
      expect(agedOut(order(status, 45, status), since)).toBe(false);
  });

  it('passes over every held order in steps, keeping the ones asked', () => {
    const held = Array.from({ length: 3000 }, (_, i) =>
      order(`o${i}`, i % 3 === 0 ? 31 : 2, i % 2 ? 'fulfilled' : 'paid'),
    );
    const out: ReturnType<typeof order>[] = [];
    const job = agedOutOrders(held, windowStart(NOW, 30), (id) => id === 'o3', out);
    let yields = 0;
    while (!job.next().done) yields++;
    expect(yields).toBe(2);
    const expected = held.filter((o, i) => i % 3 === 0 && i % 2 === 1 && o.id !== 'o3');
    expect(out.map((o) => o.id)).toEqual(expected.map((o) => o.id));
    expect(out.length).toBe(499);
    expect(drain(agedOutOrders([], 0, () => false, []))).toBeUndefined();
  });
});
