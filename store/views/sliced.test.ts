import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { createDeskStore } from '../create-store.ts';
import type { RemoteChange } from '../records/changes.ts';
import { viewProblems } from '../sync/testing/consistency.ts';
import { advanceOrder, cancelOrder, makeOrder } from '../sync/testing/orders.ts';
import { Prng } from '../sync/testing/prng.ts';
import { buildOrderIndex, orderViewDef } from './order-views.ts';
import { QUICK_VIEW_MS } from './views.ts';
import {
  AFTER_FRAME,
  browserIdleSlices,
  drain,
  ManualSlices,
  runSliced,
  sortInSlices,
  SLICE_MS,
  STEP,
  type Job,
  type SliceScheduler,
} from './sliced.ts';

const NOW = Date.UTC(2026, 2, 10, 12);

describe('sortInSlices', () => {
  it('sorts like a stable native sort, yielding between steps', () => {
    const rng = new Prng(5);
    for (const n of [0, 1, STEP - 1, STEP, STEP + 1, 3 * STEP + 17, 9 * STEP]) {
      const items = Array.from({ length: n }, (_, i) => ({ key: rng.int(0, 50), at: i }));
      const expected = [...items].sort((a, b) => a.key - b.key);
      const job = sortInSlices(items, (a, b) => a.key - b.key);
      let yields = 0;
      while (!job.next().done) yields++;
      expect(items).toEqual(expected);
      if (n > 2 * STEP) expect(yields).toBeGreaterThan(n / STEP);
    }
  });
});

describe('runSliced', () => {
  function* counting(total: number, seen: number[]): Job<number> {
    for (let i = 0; i < total; i++) {
      seen.push(i);
      yield;
    }
    return total;
  }

  it('runs a job in slices of its time budget, then hands over the result', () => {
    const slices = new ManualSlices({ tick: 1 });
    const seen: number[] = [];
    let result: number | null = null;
    const run = runSliced(counting(40, seen), (value) => (result = value), slices, 8);
    // The first slice ran at once, and stopped at its budget (the clock moves 1 ms a reading).
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.length).toBeLessThan(40);
    expect(run.finished).toBe(false);
    expect(slices.runAll()).toBeGreaterThan(2);
    expect(result).toBe(40);
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(run.finished).toBe(true);
  });

  it('stops a canceled job, and runs one at once without a scheduler', () => {
    const slices = new ManualSlices({ tick: 1 });
    const seen: number[] = [];
    let done = false;
    const run = runSliced(counting(40, seen), () => (done = true), slices, 4);
    const before = seen.length;
    run.cancel();
    slices.runAll();
    expect(seen.length).toBe(before);
    expect(done).toBe(false);
    expect(drain(counting(5, []))).toBe(5);
    let now: number | null = null;
    runSliced(counting(5, []), (value) => (now = value), null);
    expect(now).toBe(5);
  });

  it('goes on after a painted frame where a job asks for one, at once elsewhere', () => {
    function* twoFrames(seen: string[]): Job<string> {
      seen.push('pass');
      yield AFTER_FRAME;
      seen.push('publish');
      return 'rows';
    }
    const frames: (() => void)[] = [];
    const slices = new ManualSlices();
    const painting: SliceScheduler = {
      later: (run) => slices.later(run),
      afterFrame: (run) => frames.push(run),
      now: () => slices.now(),
    };
    const seen: string[] = [];
    let result: string | null = null;
    const run = runSliced(twoFrames(seen), (value) => (result = value), painting);
    expect(seen).toEqual(['pass']);
    expect(run.finished).toBe(false);
    expect(slices.runAll()).toBe(0);
    frames.shift()!();
    expect(seen).toEqual(['pass', 'publish']);
    expect(result).toBe('rows');
    // Canceled while waiting for the frame: it does not go on.
    const canceled = runSliced(twoFrames([]), () => (result = 'late'), painting);
    canceled.cancel();
    frames.shift()!();
    expect(result).toBe('rows');
    // A scheduler without frames, or none: no wait.
    runSliced(twoFrames([]), (value) => (result = `${value}!`), slices);
    expect(result).toBe('rows!');
  });
});

describe('table views in slices', () => {
  function setup(count: number) {
    // One step per slice (the clock moves a whole slice a reading): many points for changes.
    const slices = new ManualSlices({ tick: 8 });
    const store = createDeskStore({ now: () => NOW, slices });
    const rng = new Prng(8);
    const orders: Order[] = Array.from({ length: count }, (_, i) =>
      makeOrder(rng, {
        number: i + 1,
        createdAt: NOW - (count - i) * 1000,
        status: rng.pick(['paid', 'preparing', 'ready', 'fulfilled', 'canceled'] as const),
      }),
    );
    store.getState().loadSnapshot({ orders });
    const current = new Map(orders.map((o) => [o.id, o]));
    let number = count + 1;
    /** Some realtime changes: updates, cancellations, new and deleted orders. */
    const traffic = (n: number) => {
      const changes: RemoteChange[] = [];
      const ids = [...current.keys()];
      for (let i = 0; i < n; i++) {
        const roll = rng.next();
        const id = rng.pick(ids);
        const order = current.get(id);
        if (roll < 0.1) {
          const created = makeOrder(rng, { number: number++, createdAt: NOW, status: 'paid' });
          current.set(created.id, created);
          changes.push({ collection: 'orders', kind: 'upsert', record: created });
        } else if (order && roll < 0.2) {
          current.delete(id);
          changes.push({ collection: 'orders', kind: 'delete', record: order });
        } else if (order) {
          const next = rng.chance(0.1)
            ? cancelOrder(order, NOW + i)
            : { ...advanceOrder(rng, order, NOW + i), customerName: rng.pick(['Ana B', 'Zoe']) };
          current.set(id, next);
          changes.push({ collection: 'orders', kind: 'upsert', record: next });
        }
      }
      store.getState().applyRemote(changes, { eventsAt: NOW });
    };
    return { store, slices, traffic };
  }

  it('keeps the previous rows until a first sort is done, with changes coming in between', () => {
    const { store, slices, traffic } = setup(3000);
    const spec = { sort: 'customerName', dir: 'asc', statuses: ['paid', 'ready'] } as const;
    const handle = store.getState().acquireOrderView(spec);
    expect(store.getState().pendingViews[handle.key]?.phase).toBe('sorting');
    expect(store.getState().orderViews[handle.key]).toBeUndefined();
    let rounds = 0;
    while (slices.pending > 0) {
      traffic(15);
      slices.runNext();
      rounds++;
    }
    expect(rounds).toBeGreaterThan(3);
    const state = store.getState();
    expect(state.pendingViews).toEqual({});
    expect(state.orderViews[handle.key]!.refs).toBe(1);
    expect(state.orderViews[handle.key]!.index.toArray()).toEqual(
      buildOrderIndex(orderViewDef(spec), state.shownOrders).toArray(),
    );
    expect(viewProblems(state, NOW)).toEqual([]);
  });

  it('publishes a quick view at once, and a slower one a painted frame after its pass', () => {
    const frames: (() => void)[] = [];
    let clock = 0;
    const base = new ManualSlices({ clock: () => clock });
    const painting: SliceScheduler = {
      later: (run) => base.later(run),
      afterFrame: (run) => frames.push(run),
      now: () => clock,
    };
    const store = createDeskStore({ now: () => NOW, slices: painting });
    const rng = new Prng(3);
    const orders = Array.from({ length: 500 }, (_, i) =>
      makeOrder(rng, { number: i + 1, createdAt: NOW - i * 1000, status: 'paid' }),
    );
    store.getState().loadSnapshot({ orders });
    // The clock stands still: the view is made in no time, in the acquiring call.
    const quick = store.getState().acquireOrderView({ sort: 'createdAt', dir: 'asc' });
    expect(store.getState().orderViews[quick.key]!.refs).toBe(1);
    expect(store.getState().pendingViews).toEqual({});
    expect(frames).toHaveLength(0);
    // Every reading of the clock later by more than QUICK_VIEW_MS: its rows wait for a frame.
    const ticking = () => (clock += QUICK_VIEW_MS + 1);
    painting.now = ticking;
    const slow = store.getState().acquireOrderView({
      sort: 'createdAt',
      dir: 'asc',
      statuses: ['paid'],
    });
    expect(store.getState().pendingViews[slow.key]?.phase).toBe('filtering');
    base.runAll();
    expect(store.getState().orderViews[slow.key]).toBeUndefined();
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(store.getState().orderViews[slow.key]!.refs).toBe(1);
    expect(store.getState().pendingViews).toEqual({});
    expect(QUICK_VIEW_MS).toBeLessThanOrEqual(SLICE_MS);
  });

  it('stops the work of a view released before it is done', () => {
    const { store, slices } = setup(3000);
    const first = store.getState().acquireOrderView({ sort: 'items', dir: 'desc' });
    const second = store.getState().acquireOrderView({ sort: 'items', dir: 'desc' });
    expect(store.getState().pendingViews[first.key]!.refs).toBe(2);
    slices.runNext();
    first.release();
    second.release();
    expect(store.getState().pendingViews).toEqual({});
    slices.runAll();
    expect(store.getState().orderViews[first.key]).toBeUndefined();
  });

  it('sorts a column once for every job that waits for it', () => {
    const spec = { sort: 'status', dir: 'asc' } as const;
    // The slices of a view sorted by a column not built yet, on its own.
    let { store, slices } = setup(3000);
    const handle = store.getState().acquireOrderView(spec);
    const alone = slices.runAll();
    expect(store.getState().orderViews[handle.key]).toBeDefined();
    // The same view asked for while the column is being prepared: it joins that build.
    ({ store, slices } = setup(3000));
    store.getState().prepareSortColumns(['status']);
    slices.runNext();
    store.getState().acquireOrderView(spec);
    expect(slices.runAll() + 1).toBe(alone);
    // Released during the sort and asked for again: the build goes on where it stopped.
    ({ store, slices } = setup(3000));
    const first = store.getState().acquireOrderView(spec);
    for (let i = 0; i < 10; i++) slices.runNext();
    first.release();
    const again = store.getState().acquireOrderView(spec);
    expect(slices.runAll() + 10).toBe(alone);
    expect(store.getState().orderViews[again.key]).toBeDefined();
  });

  it('prepares sort columns in slices, and narrows filters without a sort', () => {
    const { store, slices, traffic } = setup(2000);
    expect(store.getState().prepareSortColumns(['status', 'totalCents'])).toEqual([
      'status',
      'totalCents',
    ]);
    while (slices.pending > 0) {
      traffic(10);
      slices.runNext();
    }
    expect(Object.keys(store.getState().sortColumns).sort()).toEqual([
      'createdAt',
      'status',
      'totalCents',
    ]);
    const wide = store.getState().acquireOrderView({
      sort: 'totalCents',
      dir: 'desc',
      statuses: ['paid', 'preparing'],
    });
    slices.runAll();
    const narrow = store.getState().acquireOrderView({
      sort: 'totalCents',
      dir: 'asc',
      statuses: ['paid'],
    });
    slices.runAll();
    traffic(30);
    const state = store.getState();
    expect(state.orderViews[wide.key]).toBeDefined();
    expect(state.orderViews[narrow.key]).toBeDefined();
    expect(viewProblems(state, NOW)).toEqual([]);
  });

  it('leaves the sort columns to the idle catch-up, and makes views from a column behind', () => {
    const { store, slices, traffic } = setup(2000);
    store.getState().prepareSortColumns(['status', 'totalCents']);
    slices.runAll();
    const prepared = store.getState().sortColumns;
    traffic(40);
    traffic(40);
    // The realtime batches edited no column: each is still of the orders it was built over.
    expect(store.getState().sortColumns).toBe(prepared);
    expect(prepared.status!.at).not.toBe(store.getState().shownOrders);
    // A view made from a column behind catches the column up first (in slices), and keeps it.
    const view = store.getState().acquireOrderView({ sort: 'status', dir: 'desc', text: 'a' });
    slices.runAll();
    expect(store.getState().orderViews[view.key]).toBeDefined();
    expect(store.getState().sortColumns.status!.at).toBe(store.getState().shownOrders);
    expect(viewProblems(store.getState(), NOW)).toEqual([]);
    // Idle catch-up: every column brought to the shown orders, in slices.
    traffic(40);
    const before = store.getState().sortColumns;
    expect(store.getState().catchUpSortColumns()).toBe(true);
    expect(store.getState().catchUpSortColumns()).toBe(true);
    slices.runAll();
    expect(store.getState().sortColumns).not.toBe(before);
    expect(store.getState().catchUpSortColumns()).toBe(false);
    for (const column of Object.values(store.getState().sortColumns))
      expect(column.at).toBe(store.getState().shownOrders);
    expect(viewProblems(store.getState(), NOW)).toEqual([]);
  });
  it('keeps, after an idle catch-up in slices, a column a view caught up further meanwhile', () => {
    const { store, slices, traffic } = setup(2000);
    store.getState().prepareSortColumns(['status', 'totalCents']);
    slices.runAll();
    traffic(40);
    expect(store.getState().catchUpSortColumns()).toBe(true);
    // A view made from a column while the catch-up is under way catches it up further.
    traffic(40);
    store.getState().acquireOrderView({ sort: 'totalCents', dir: 'asc' });
    slices.runAll();
    const shown = store.getState().shownOrders;
    expect(store.getState().sortColumns.totalCents!.at).toBe(shown);
    expect(viewProblems(store.getState(), NOW)).toEqual([]);
  });

  it('keeps nothing of an idle catch-up in slices over a table of orders replaced meanwhile', () => {
    const { store, slices } = setup(2000);
    store.getState().prepareSortColumns(['status', 'totalCents']);
    slices.runAll();
    const first = store.getState().shownOrders;
    const rng = new Prng(9);
    // A change (an upsert: no tombstone, so the next load may replace the table).
    const changed = first.values().next().value!;
    store.getState().loadSnapshot({
      orders: [
        { ...changed, totalCents: 1, rev: changed.rev + 1, updatedAt: changed.updatedAt + 1 },
      ],
    });
    expect(store.getState().catchUpSortColumns()).toBe(true);
    store.getState().loadSnapshot(
      {
        orders: Array.from({ length: 50 }, (_, i) =>
          makeOrder(rng, { number: 5000 + i, createdAt: NOW, status: 'paid' }),
        ),
      },
      { replace: true },
    );
    const lineage = store.getState().shownOrders.lineage;
    expect(lineage).not.toBe(first.lineage);
    slices.runAll();
    for (const column of Object.values(store.getState().sortColumns))
      expect(column.at.lineage).toBe(lineage);
  });
});

describe('browserIdleSlices', () => {
  it('runs each later slice in an idle callback, with a deadline for when none comes', () => {
    const asked: { run: () => void; timeout: number | undefined }[] = [];
    const g = globalThis as { requestIdleCallback?: unknown };
    g.requestIdleCallback = (run: () => void, options?: { timeout?: number }) =>
      asked.push({ run, timeout: options?.timeout });
    try {
      const slices = browserIdleSlices(700);
      let steps = 0;
      let result: number | null = null;
      // Each step takes longer than a slice: one step per slice.
      const job = (function* () {
        for (let i = 0; i < 3; i++) {
          const until = performance.now() + 10;
          while (performance.now() < until) steps += 0;
          steps++;
          yield;
        }
        return steps;
      })();
      runSliced(job, (value) => (result = value), slices);
      expect(steps).toBe(1);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.timeout).toBe(700);
      asked.shift()!.run();
      expect(steps).toBe(2);
      asked.shift()!.run();
      asked.shift()!.run();
      expect(result).toBe(3);
      expect(asked).toHaveLength(0);
    } finally {
      delete g.requestIdleCallback;
    }
  });
});
