import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { reconcileBatch } from '../records/changes.ts';
import { EntityTable } from '../records/entity-table.ts';
import type { Tombstone } from '../records/reconcile.ts';
import { Prng } from '../sync/testing/prng.ts';
import { makeOrder } from '../sync/testing/orders.ts';
import { nextShownOrders, showOrders, visibleOrder } from './shown-orders.ts';

const NOW = Date.UTC(2026, 2, 10, 12);
const order = makeOrder(new Prng(11), {
  id: 'o1',
  number: 1,
  createdAt: NOW - 60_000,
  status: 'paid',
});
const v = (rev: number, fields: Partial<Order> = {}): Order => ({
  ...order,
  rev,
  updatedAt: NOW + rev,
  ...fields,
});
const other = { ...v(1), id: 'o2', number: 2 };

describe('visibleOrder', () => {
  it('shows the optimistic record until the backend reaches its rev', () => {
    const optimistic = v(3, { status: 'preparing' });
    expect(visibleOrder(v(2), optimistic)).toBe(optimistic);
    const echo = v(3, { status: 'preparing', updatedAt: NOW + 99 });
    expect(visibleOrder(echo, optimistic)).toBe(echo);
    expect(visibleOrder(v(4), optimistic)!.rev).toBe(4);
    expect(visibleOrder(undefined, optimistic)).toBeUndefined();
  });
});

describe('showOrders', () => {
  it('is the confirmed table itself without optimistic records', () => {
    const confirmed = EntityTable.from([v(2), other]);
    expect(showOrders(confirmed, {})).toBe(confirmed);
  });

  it('lays our optimistic records over the confirmed ones, sharing the rest', () => {
    const confirmed = EntityTable.from([v(2), other]);
    const optimistic = v(3, { status: 'preparing' });
    const shown = showOrders(confirmed, { o1: optimistic });
    expect(shown.get('o1')).toBe(optimistic);
    expect(shown.get('o2')).toBe(other);
    expect(confirmed.get('o1')!.rev).toBe(2);
  });
});

describe('nextShownOrders', () => {
  it('reconciles remote changes against the confirmed record while our action is pending, without flicker', () => {
    const base = v(2);
    const optimistic = v(3, { status: 'preparing' });
    const confirmed = EntityTable.from([base]);
    const before = {
      shown: showOrders(confirmed, { o1: optimistic }),
      optimistic: { o1: optimistic },
    };
    const apply = (records: Order[]) =>
      reconcileBatch(
        confirmed,
        EntityTable.empty<Tombstone>(),
        records.map((record) => ({ kind: 'upsert' as const, record })),
      );
    // A late copy of the base or an older change: nothing shown changes.
    const stale = apply([v(2)]);
    const staleShown = nextShownOrders(
      before,
      { confirmed: stale.table, optimistic: { o1: optimistic } },
      stale.diffs,
    );
    expect(staleShown.shown.get('o1')).toBe(optimistic);
    expect(staleShown.diffs).toEqual([]);
    // The echo of our own change replaces the optimistic record once.
    const echo = v(3, { status: 'preparing', updatedAt: NOW + 50 });
    const echoed = apply([echo, echo]);
    const echoShown = nextShownOrders(
      before,
      { confirmed: echoed.table, optimistic: { o1: optimistic } },
      echoed.diffs,
    );
    expect(echoShown.shown.get('o1')).toBe(echo);
    expect(echoShown.diffs).toEqual([{ before: optimistic, after: echo }]);
    // Settling (the optimistic record goes) changes nothing shown once the echo is in.
    const settled = nextShownOrders(
      { shown: echoShown.shown, optimistic: { o1: optimistic } },
      { confirmed: echoed.table, optimistic: {} },
      [],
    );
    expect(settled.diffs).toEqual([]);
    expect(settled.shown).toBe(echoed.table);
  });

  it('rolls back to the confirmed record when our action fails', () => {
    const base = v(2);
    const optimistic = v(3, { status: 'preparing' });
    const confirmed = EntityTable.from([base]);
    const shown = showOrders(confirmed, { o1: optimistic });
    const next = nextShownOrders(
      { shown, optimistic: { o1: optimistic } },
      { confirmed, optimistic: {} },
      [],
    );
    expect(next.shown).toBe(confirmed);
    expect(next.diffs).toEqual([{ before: optimistic, after: base }]);
  });

  it('passes the confirmed diffs through when nothing is optimistic', () => {
    const confirmed = EntityTable.from([v(3)]);
    const diffs = [{ before: v(2), after: v(3) }];
    const next = nextShownOrders(
      { shown: EntityTable.from([v(2)]), optimistic: {} },
      { confirmed, optimistic: {} },
      diffs,
    );
    expect(next.shown).toBe(confirmed);
    expect(next.diffs).toBe(diffs);
  });
});
