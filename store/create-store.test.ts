import { describe, expect, it } from 'vitest';
import type { Order } from '../domain/order.ts';
import { createDeskStore } from './create-store.ts';
import {
  selectBoardColumn,
  selectDefaultOrderView,
  selectOrder,
  selectOrderView,
} from './selectors/orders.ts';
import { selectConfirmedMembers, selectViewers } from './selectors/people.ts';
import type { TeamMember } from './records/people.ts';
import { createHarness } from './sync/testing/harness.ts';
import { selectNotes } from './selectors/details.ts';
import { Prng } from './sync/testing/prng.ts';
import { advanceOrder, makeOrder } from './sync/testing/orders.ts';
import type { RemoteChange } from './records/changes.ts';

const NOW = new Date(2026, 2, 10, 15, 0, 0).getTime();

function setup(count = 50) {
  let now = NOW;
  const store = createDeskStore({ now: () => now });
  const rng = new Prng(4);
  const orders: Order[] = Array.from({ length: count }, (_, i) =>
    makeOrder(rng, {
      id: `o${i}`,
      number: i + 1,
      createdAt: NOW - (i + 1) * 60_000,
      status: i % 3 === 0 ? 'paid' : i % 3 === 1 ? 'preparing' : 'fulfilled',
    }),
  );
  store.getState().loadSnapshot({ orders });
  return { store, rng, orders, setNow: (t: number) => (now = t) };
}

const upsert = (record: Order): RemoteChange => ({ collection: 'orders', kind: 'upsert', record });

describe('createDeskStore', () => {
  it('builds one store from the slices with empty data', () => {
    const store = createDeskStore({ now: () => NOW });
    const state = store.getState();
    expect(state.orders.size).toBe(0);
    expect(state.connection.status).toBe('connecting');
    expect(state.load.status).toBe('idle');
    expect(state.actor).toBeNull();
    expect(selectDefaultOrderView(state).size).toBe(0);
    expect(() => state.startSync()).toThrow(/without sync ports/);
  });

  it('loads a snapshot into every table, index and metric', () => {
    const { store } = setup();
    const state = store.getState();
    expect(state.orders.size).toBe(50);
    expect(selectDefaultOrderView(state).at(0)).toBe('o0');
    expect(selectBoardColumn(state, 'paid').size).toBe(17);
    expect(state.metrics.inProgress).toBe(34);
  });

  it('applies a batch in one set; a row keeps its reference unless its order changed', () => {
    const { store, rng } = setup();
    const before = store.getState();
    let sets = 0;
    const stop = store.subscribe(() => sets++);
    const changed = advanceOrder(rng, before.orders.get('o0')!, NOW);
    store
      .getState()
      .applyRemote([upsert(changed), upsert(advanceOrder(rng, before.orders.get('o3')!, NOW))], {
        eventsAt: NOW,
      });
    stop();
    const after = store.getState();
    expect(sets).toBe(1);
    expect(selectOrder(after, 'o0')).toBe(changed);
    expect(selectOrder(after, 'o1')).toBe(selectOrder(before, 'o1'));
    expect(after.connection.lastEventAt).toBe(NOW);
    // Both moved paid → preparing: the board changed, the newest-first view did not.
    expect(selectBoardColumn(after, 'paid')).not.toBe(selectBoardColumn(before, 'paid'));
    expect(selectBoardColumn(after, 'ready')).toBe(selectBoardColumn(before, 'ready'));
    expect(selectDefaultOrderView(after)).toBe(selectDefaultOrderView(before));
    // Old snapshots stay as they were.
    expect(selectOrder(before, 'o0')!.status).toBe('paid');
  });

  it('ignores duplicates without a set', () => {
    const { store } = setup();
    let sets = 0;
    const stop = store.subscribe(() => sets++);
    store.getState().applyRemote([upsert({ ...store.getState().orders.get('o5')! })]);
    stop();
    expect(sets).toBe(0);
  });

  it('reconciles a snapshot into a store that already has orders', () => {
    const { store, orders } = setup(10);
    const older = { ...orders[0]!, rev: orders[0]!.rev - 1, customerName: 'old' };
    const newer = { ...orders[1]!, rev: orders[1]!.rev + 1, customerName: 'new' };
    store.getState().loadSnapshot({ orders: [older, newer] });
    expect(store.getState().orders.get('o0')!.customerName).toBe(orders[0]!.customerName);
    expect(store.getState().orders.get('o1')!.customerName).toBe('new');
  });

  it('maintains acquired views, shares equal ones, and drops unused ones after a few', () => {
    const { store, rng } = setup();
    const spec = { sort: 'customerName', dir: 'asc', statuses: ['paid'] } as const;
    const a = store.getState().acquireOrderView(spec);
    const b = store.getState().acquireOrderView({ ...spec, statuses: ['paid', 'paid'] });
    expect(a.key).toBe(b.key);
    expect(store.getState().orderViews[a.key]!.refs).toBe(2);
    const view = selectOrderView(store.getState(), spec)!;
    expect(view.size).toBe(17);
    const o0 = store.getState().orders.get('o0')!;
    store.getState().applyRemote([upsert(advanceOrder(rng, o0, NOW))]);
    expect(selectOrderView(store.getState(), a.key)!.size).toBe(16);
    a.release();
    a.release();
    b.release();
    expect(store.getState().orderViews[a.key]!.refs).toBe(0);
    for (const sort of ['number', 'totalCents', 'status'] as const)
      store.getState().acquireOrderView({ sort, dir: 'asc' }).release();
    expect(selectOrderView(store.getState(), a.key)).toBeUndefined();
    expect(Object.keys(store.getState().orderViews)).toHaveLength(3);
  });

  it('ticks: republishes the per-minute series and rolls the day over', () => {
    const { store, setNow } = setup();
    const before = store.getState().metrics;
    store.getState().tick(NOW);
    expect(store.getState().metrics).toBe(before);
    setNow(NOW + 24 * 3600_000);
    store.getState().tick();
    const next = store.getState();
    expect(next.metrics.dayStart).toBeGreaterThan(before.dayStart);
    expect(next.metrics.ordersToday).toBe(0);
    expect(next.board.dayStart).toBe(next.metrics.dayStart);
  });

  it('tracks details: applies notes of tracked orders only, drops them on release', async () => {
    const h = createHarness({ sync: { fullSync: [] } });
    h.store.getState().loadSnapshot({
      orders: ['o1', 'o2'].map((id, i) =>
        makeOrder(h.rng, { id, number: i + 1, createdAt: NOW - 60_000, status: 'paid' }),
      ),
    });
    const note = (id: string, orderId: string, createdAt: number) => ({
      id,
      orderId,
      createdAt,
      updatedAt: createdAt,
      authorId: 'u1',
      authorName: 'Ana',
      body: id,
      deleted: false,
    });
    const notes: RemoteChange[] = [
      { collection: 'notes', kind: 'upsert', record: note('n2', 'o1', 2) },
      { collection: 'notes', kind: 'upsert', record: note('n1', 'o1', 1) },
      { collection: 'notes', kind: 'upsert', record: note('n3', 'o2', 1) },
    ];
    const store = h.store;
    store.getState().applyRemote(notes);
    expect(store.getState().notes.size).toBe(0);
    const first = store.getState().loadOrderDetail('o1');
    const second = store.getState().loadOrderDetail('o1');
    expect(store.getState().details.o1!.refs).toBe(2);
    store.getState().applyRemote(notes);
    expect(selectNotes(store.getState(), 'o1').map((n) => n.id)).toEqual(['n1', 'n2']);
    expect(selectNotes(store.getState(), 'o2')).toEqual([]);
    store.getState().applyRemote([
      {
        collection: 'notes',
        kind: 'upsert',
        record: { ...note('n1', 'o1', 1), updatedAt: 5, deleted: true },
      },
    ]);
    expect(selectNotes(store.getState(), 'o1').map((n) => n.id)).toEqual(['n2']);
    first();
    first();
    expect(store.getState().details.o1!.refs).toBe(1);
    second();
    expect(store.getState().details.o1).toBeUndefined();
    expect(store.getState().notes.size).toBe(0);
    expect(store.getState().notesByOrder.o1).toBeUndefined();
  });

  it('keeps products and exports sorted', () => {
    const store = createDeskStore({ now: () => NOW });
    const product = (id: string, sortOrder: number, name: string) => ({
      id,
      createdAt: 1,
      updatedAt: 1,
      name,
      description: '',
      priceCents: 100,
      currency: 'eur',
      active: true,
      imageFileId: null,
      sortOrder,
    });
    store.getState().loadSnapshot({
      products: [product('p1', 2, 'Tea'), product('p2', 1, 'Latte'), product('p3', 1, 'Bagel')],
    });
    expect(store.getState().productList.map((p) => p.id)).toEqual(['p3', 'p2', 'p1']);
  });

  it('knows members and who is viewing an order', () => {
    const store = createDeskStore({ now: () => NOW });
    const member = (id: string, name: string, confirmed = true): TeamMember => ({
      id,
      createdAt: 1,
      updatedAt: 1,
      userId: `u-${id}`,
      name,
      email: `${name.toLowerCase()}@x`,
      role: 'staff',
      confirmed,
    });
    const presence = (id: string, userId: string, orderId: string | null, updatedAt: number) => ({
      id,
      userId,
      name: userId === 'u1' ? 'Ana' : 'Ben',
      orderId,
      status: orderId ? 'viewing' : 'online',
      updatedAt,
    });
    store.getState().loadSnapshot({
      members: [member('m2', 'Ben'), member('m1', 'Ana'), member('m3', 'Cleo', false)],
      presence: [presence('p1', 'u1', 'o1', 1), presence('p2', 'u2', 'o1', 1)],
    });
    expect(store.getState().memberList.map((m) => m.name)).toEqual(['Ana', 'Ben', 'Cleo']);
    expect(selectConfirmedMembers(store.getState()).map((m) => m.name)).toEqual(['Ana', 'Ben']);
    const viewers = selectViewers(store.getState(), 'o1', 'u1');
    expect(viewers).toEqual([{ userId: 'u2', name: 'Ben' }]);
    expect(selectViewers(store.getState(), 'o1', 'u1')).toBe(viewers);
    store.getState().applyRemote([
      { collection: 'presence', kind: 'upsert', record: presence('p2', 'u2', null, 2) },
      // A late copy of the earlier version changes nothing.
      { collection: 'presence', kind: 'upsert', record: presence('p2', 'u2', 'o1', 1) },
    ]);
    expect(selectViewers(store.getState(), 'o1', 'u1')).toEqual([]);
    store.getState().applyRemote([
      { collection: 'presence', kind: 'delete', record: presence('p1', 'u1', 'o1', 1) },
      { collection: 'members', kind: 'delete', record: member('m2', 'Ben') },
    ]);
    expect(store.getState().presence.size).toBe(1);
    expect(store.getState().memberList.map((m) => m.name)).toEqual(['Ana', 'Cleo']);
  });
});
