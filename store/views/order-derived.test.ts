import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { MetricsAccumulator } from './metrics.ts';
import { Prng } from '../sync/testing/prng.ts';
import { makeOrder } from '../sync/testing/orders.ts';
import { EntityTable } from '../records/entity-table.ts';
import { buildOrderIndex, orderViewDef } from './order-views.ts';
import {
  buildBoard,
  reconcileOrders,
  updateOrderDerived,
  visibleOrder,
  type OrderRecords,
} from './order-derived.ts';
import type { Tombstone } from '../records/reconcile.ts';

const NOW = Date.UTC(2026, 2, 10, 12);
const rng = new Prng(11);
const order = makeOrder(rng, { id: 'o1', number: 1, createdAt: NOW - 60_000, status: 'paid' });
const v = (rev: number, fields: Partial<Order> = {}): Order => ({
  ...order,
  rev,
  updatedAt: NOW + rev,
  ...fields,
});

function records(orders: Order[], overlays: OrderRecords['overlays'] = {}): OrderRecords {
  return {
    orders: EntityTable.from(orders),
    orderTombstones: EntityTable.empty<Tombstone>(),
    overlays,
  };
}

describe('visibleOrder', () => {
  it('shows the optimistic record until the backend reaches its rev', () => {
    const optimistic = v(3, { status: 'preparing' });
    expect(visibleOrder({ base: v(2), optimistic })).toBe(optimistic);
    const echo = v(3, { status: 'preparing', updatedAt: NOW + 99 });
    expect(visibleOrder({ base: echo, optimistic })).toBe(echo);
    expect(visibleOrder({ base: undefined, optimistic })).toBe(optimistic);
  });
});

describe('reconcileOrders', () => {
  it('applies the rule and reports first-before/last-after diffs', () => {
    const batch = reconcileOrders(records([v(2)]), [
      { kind: 'upsert', record: v(4) },
      { kind: 'upsert', record: v(3) },
      { kind: 'upsert', record: v(4) },
    ]);
    expect(batch.orders.get('o1')!.rev).toBe(4);
    expect(batch.diffs).toHaveLength(1);
    expect(batch.diffs[0]!.before!.rev).toBe(2);
    expect(batch.diffs[0]!.after!.rev).toBe(4);
  });

  it('reconciles against the confirmed base while our action is pending, without flicker', () => {
    const base = v(2);
    const optimistic = v(3, { status: 'preparing' });
    const held = records([optimistic], { o1: { base, optimistic } });
    // A late copy of the base or an older change: nothing visible changes.
    const stale = reconcileOrders(held, [{ kind: 'upsert', record: v(2) }]);
    expect(stale.orders).toBe(held.orders);
    expect(stale.diffs).toEqual([]);
    // The echo of our own change replaces the optimistic record once.
    const echo = v(3, { status: 'preparing', updatedAt: NOW + 50 });
    const echoed = reconcileOrders(held, [
      { kind: 'upsert', record: echo },
      { kind: 'upsert', record: echo },
    ]);
    expect(echoed.orders.get('o1')).toBe(echo);
    expect(echoed.overlays.o1!.base).toBe(echo);
    expect(echoed.diffs).toEqual([{ before: optimistic, after: echo }]);
  });

  it('deletes with a tombstone and never resurrects', () => {
    const batch = reconcileOrders(records([v(2)]), [
      { kind: 'upsert', record: v(3) },
      { kind: 'delete', record: v(3) },
      { kind: 'upsert', record: v(3) },
      { kind: 'upsert', record: v(2) },
    ]);
    expect(batch.orders.get('o1')).toBeUndefined();
    expect(batch.orders.size).toBe(0);
    expect(batch.diffs).toEqual([{ before: v(2), after: undefined }]);
    const later = reconcileOrders(batch, [{ kind: 'upsert', record: v(3) }]);
    expect(later.orders.get('o1')).toBeUndefined();
  });
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
    const derived = { board: buildBoard(table, acc.dayStart), orderViews: {}, metricsAcc: acc };
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
  });
});
