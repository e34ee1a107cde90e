import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { MetricsAccumulator } from './metrics.ts';
import { Prng } from '../sync/testing/prng.ts';
import { makeOrder } from '../sync/testing/orders.ts';
import { EntityTable } from '../records/entity-table.ts';
import { buildOrderIndex, orderViewDef } from './order-views.ts';
import { buildBoard, updateOrderDerived } from './order-derived.ts';

const NOW = Date.UTC(2026, 2, 10, 12);
const rng = new Prng(11);
const order = makeOrder(rng, { id: 'o1', number: 1, createdAt: NOW - 60_000, status: 'paid' });
const v = (rev: number, fields: Partial<Order> = {}): Order => ({
  ...order,
  rev,
  updatedAt: NOW + rev,
  ...fields,
});

describe('updateOrderDerived', () => {
  it('moves orders between board columns and keeps metrics in step', () => {
    const paid = v(2, { status: 'paid', paidAt: NOW - 1000 });
    const table = EntityTable.from([paid]);
    const acc = MetricsAccumulator.build(table.values(), NOW);
    const derived = {
      board: buildBoard(table, acc.dayStart),
      orderViews: {},
      metricsAcc: acc,
    };
    const started = v(3, { status: 'preparing', paidAt: NOW - 1000, startedAt: NOW });
    const next = EntityTable.from([started]);
    const out = updateOrderDerived(derived, next, [{ before: paid, after: started }], NOW);
    expect(out.board.columns.paid.size).toBe(0);
    expect(out.board.columns.preparing.toArray()).toEqual(['o1']);
    expect(out.board.columns.ready).toBe(derived.board.columns.ready);
    expect(out.metricsAcc.inProgress).toBe(1);
  });

  it('rolls the day over: rebuilds "done" and the metrics', () => {
    const fulfilled = v(5, {
      status: 'fulfilled',
      paidAt: NOW - 5000,
      readyAt: NOW - 3000,
      fulfilledAt: NOW - 1000,
    });
    const table = EntityTable.from([fulfilled]);
    const acc = MetricsAccumulator.build(table.values(), NOW);
    const derived = {
      board: buildBoard(table, acc.dayStart),
      orderViews: {},
      metricsAcc: acc,
    };
    expect(derived.board.columns.done.size).toBe(1);
    const tomorrow = NOW + 24 * 3600_000;
    const out = updateOrderDerived(derived, table, [], tomorrow);
    expect(out.board.columns.done.size).toBe(0);
    expect(out.metricsAcc.covers(tomorrow)).toBe(true);
    expect(out.metricsAcc.ordersToday).toBe(0);
    expect(updateOrderDerived(out, table, [], tomorrow)).toBe(out);
  });

  it('keeps table views up to date', () => {
    const table = EntityTable.from([v(2)]);
    const acc = MetricsAccumulator.build(table.values(), NOW);
    const spec = { sort: 'number' as const, dir: 'asc' as const };
    const derived = {
      board: buildBoard(table, acc.dayStart),
      orderViews: {
        k: {
          key: 'k',
          spec,
          index: buildOrderIndex(orderViewDef(spec), table),
          refs: 1,
          touched: 0,
        },
      },
      metricsAcc: acc,
    };
    const added = { ...v(1), id: 'o0', number: 0 };
    const out = updateOrderDerived(
      derived,
      EntityTable.from([v(2), added]),
      [{ before: undefined, after: added }],
      NOW,
    );
    expect(out.orderViews.k!.index.toArray()).toEqual(['o0', 'o1']);
    expect(Object.keys(out).sort()).toEqual(['board', 'metricsAcc', 'orderViews']);
  });
});
