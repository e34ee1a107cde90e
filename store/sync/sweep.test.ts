import { Query } from 'appwrite';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { orderFromDocument, orderToDocumentData, type OrderDocument } from '../../domain/order.ts';
import { listOrderFromDocument } from './documents.ts';
import { planInitialLoad } from './load-plan.ts';
import { memorySnapshots, readPersisted, SNAPSHOT_VERSION } from './persist.ts';
import {
  byIdQueries,
  idBatches,
  INITIAL_SWEEP,
  stepSweep,
  SWEEP_AFTER_GAP_MS,
  SWEEP_STEP,
  sweepReads,
  sweepRemovals,
  unlistedOrders,
  type SweepInput,
  type SweepState,
} from './sweep.ts';
import { createHarness, settle, type Harness } from './testing/harness.ts';
import { advanceOrder, makeOrder, orderDocument } from './testing/orders.ts';
import { Prng } from './testing/prng.ts';

const DAY = 24 * 3600_000;
const KEY = 'orders:p1:u-ana';
const IDS_ONLY = Query.select(['$id']);

function steps(inputs: SweepInput[]): { state: SweepState; starts: number } {
  let state = INITIAL_SWEEP;
  let starts = 0;
  for (const input of inputs) {
    const next = stepSweep(state, input);
    state = next.state;
    if (next.start) starts++;
  }
  return { state, starts };
}

describe('when a sweep runs (stepSweep)', () => {
  it('after a start from a persisted snapshot, once live, one at a time', () => {
    expect(steps([{ type: 'synced' }]).starts).toBe(0);
    expect(steps([{ type: 'restored' }, { type: 'synced' }]).starts).toBe(1);
    const running = steps([{ type: 'restored' }, { type: 'synced' }, { type: 'synced' }]);
    expect(running.starts).toBe(1);
    expect(running.state.running).toBe(true);
    const done = steps([
      { type: 'restored' },
      { type: 'synced' },
      { type: 'done', synced: true },
      { type: 'synced' },
    ]);
    expect(done.starts).toBe(1);
    expect(done.state).toEqual(INITIAL_SWEEP);
  });

  it('after a gap of an hour or more, none after a shorter one', () => {
    const at = 1_000_000;
    const gap = (ms: number) =>
      steps([
        { type: 'open', at: at - 10 },
        { type: 'synced' },
        { type: 'close', at },
        // Attempts that fail in between do not restart the gap.
        { type: 'close', at: at + ms / 2 },
        { type: 'open', at: at + ms },
        { type: 'synced' },
      ]).starts;
    expect(gap(SWEEP_AFTER_GAP_MS)).toBe(1);
    expect(gap(3 * DAY)).toBe(1);
    expect(gap(60_000)).toBe(0);
    expect(gap(SWEEP_AFTER_GAP_MS - 1)).toBe(0);
  });

  it('one owed while a sweep runs starts when it ends, if the desk is live then', () => {
    const base: SweepInput[] = [
      { type: 'restored' },
      { type: 'synced' },
      { type: 'close', at: 0 },
      { type: 'open', at: SWEEP_AFTER_GAP_MS },
    ];
    expect(steps([...base, { type: 'done', synced: true }]).starts).toBe(2);
    const later = steps([...base, { type: 'done', synced: false }]);
    expect(later.starts).toBe(1);
    expect(later.state.owed).toBe(true);
    expect(steps([...base, { type: 'done', synced: false }, { type: 'synced' }]).starts).toBe(2);
  });

  it('a stop forgets everything', () => {
    expect(steps([{ type: 'restored' }, { type: 'stop' }, { type: 'synced' }]).starts).toBe(0);
  });
});

describe('the sweep as pure steps', () => {
  const rng = new Prng(7);
  const order = (id: string): Order =>
    listOrderFromDocument(
      orderDocument(makeOrder(rng, { id, number: 1, createdAt: 0, status: 'paid' })),
    );

  it("lists the initial load's window of orders by id only", () => {
    const plan = planInitialLoad(
      { historyDays: 30, maxOrders: 1000, slices: 4, firstPageSize: 250, fullSync: ['products'] },
      Date.UTC(2026, 2, 10),
    );
    const reads = sweepReads(plan);
    const loads = plan.reads.filter((read) => read.collection === 'orders');
    expect(reads.map((read) => read.part)).toEqual([
      'recent',
      'recent',
      'recent',
      'recent',
      'older-open',
    ]);
    reads.forEach((read, i) => {
      expect(read.firstPageSize).toBeUndefined();
      expect(read.queries.filter((q) => q.includes('"select"'))).toEqual([IDS_ONLY]);
      // The same filters and order as the load.
      expect(read.queries.filter((q) => !q.includes('"select"'))).toEqual(
        loads[i]!.queries.filter((q) => !q.includes('"select"')),
      );
    });
  });

  it('passes over the held orders in steps, keeping the unlisted untouched ones', () => {
    const held = Array.from({ length: 1300 }, (_, i) => order(`o${i}`));
    const listed = new Set(held.filter((_, i) => i % 10 !== 0).map((o) => o.id));
    const out: Order[] = [];
    const job = unlistedOrders(held, listed, new Set(['o20']), out);
    let yields = 0;
    while (!job.next().done) yields++;
    expect(yields).toBe(Math.floor(1300 / SWEEP_STEP));
    expect(out).toHaveLength(129);
    expect(out.map((o) => o.id)).not.toContain('o20');
  });

  it('reads by id 100 at a time', () => {
    const ids = Array.from({ length: 250 }, (_, i) => `o${i}`);
    expect(idBatches(ids).map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(byIdQueries(['a', 'b'])).toEqual([
      Query.equal('$id', ['a', 'b']),
      IDS_ONLY,
      Query.limit(2),
    ]);
  });

  it('removes what was not found, unless touched or changed meanwhile', () => {
    const [found, touched, changed, gone, goneAgain] = ['f', 't', 'c', 'g', 'x'].map(order);
    const unlisted = [found!, touched!, changed!, gone!, goneAgain!];
    const now = new Map(unlisted.map((o) => [o.id, o]));
    now.set('c', { ...changed!, rev: changed!.rev + 1 });
    now.delete('x');
    expect(
      sweepRemovals(unlisted, new Set(['f']), new Set(['t']), (id) => now.get(id)).map((o) => o.id),
    ).toEqual(['g']);
  });
});

// The engine's sweep, against the model server ---------------------------------------------------

interface Desk {
  h: Harness;
  storage: ReturnType<typeof memorySnapshots>;
  /** The reads answered so far, in order. */
  reads: { collection: string; queries: readonly string[] }[];
}

function paidOrder(h: Harness, id: string, createdAt: number): OrderDocument {
  return orderDocument(makeOrder(h.rng, { id, number: 1, createdAt, status: 'paid' }));
}

function oldOrder(h: Harness, id: string): OrderDocument {
  return orderDocument(
    makeOrder(h.rng, { id, number: 1, createdAt: h.clock.now - 40 * DAY, status: 'fulfilled' }),
  );
}

/**
 * A desk whose persisted snapshot holds the server's orders now (list copies, as a first visit
 * keeps them); then `away` changes the server before the desk starts again.
 */
function returningDesk(
  seed: (h: Harness) => OrderDocument[],
  options: { slices?: boolean } = {},
): Desk {
  const storage = memorySnapshots();
  const h = createHarness({
    ...(options.slices ? { slices: true } : {}),
    sync: { persist: { storage, key: KEY, throttleMs: 5_000, onHide: () => () => {} } },
  });
  const docs = seed(h);
  h.server.seed('orders', docs);
  const watermark = Math.max(...docs.map((doc) => Date.parse(doc.$updatedAt)));
  storage.keep(KEY, {
    version: SNAPSHOT_VERSION,
    savedAt: watermark,
    watermark,
    orders: docs.map((doc) => listOrderFromDocument(doc)),
  });
  return { h, storage, reads: [] };
}

/** A cold desk (nothing persisted) on the server's orders. */
function coldDesk(seed: (h: Harness) => OrderDocument[]): Desk {
  const h = createHarness();
  h.server.seed('orders', seed(h));
  return { h, storage: memorySnapshots(), reads: [] };
}

/** Deletes an order on the server (no one is subscribed: no event reaches the desk). */
function deleteNow(h: Harness, id: string): void {
  h.server.write('orders', 'delete', id);
  h.server.commitDue(true);
}

/** An order's change by realtime: written, visible, delivered and applied. */
function live(h: Harness, change: () => void): void {
  change();
  h.server.commitDue(true);
  h.server.deliver();
  h.scheduler.runFrame();
}

function isIdRead(queries: readonly string[]): boolean {
  return (
    queries.includes(IDS_ONLY) && queries.some((q) => q.includes('"$id"') && q.includes('"equal"'))
  );
}

function isListing(queries: readonly string[]): boolean {
  return queries.includes(IDS_ONLY) && !isIdRead(queries);
}

/** Answers reads (logged), delivers events, runs frames and slices until `stop` or nothing is left. */
async function run(
  desk: Desk,
  stop: (next: { collection: string; queries: readonly string[] }) => boolean = () => false,
): Promise<void> {
  const { h } = desk;
  for (let i = 0; i < 10_000; i++) {
    await settle();
    const next = h.server.reads[0];
    if (next && stop({ collection: next.collectionId, queries: next.queries })) return;
    if (next) desk.reads.push({ collection: next.collectionId, queries: next.queries });
    const busy =
      h.server.answer() ||
      h.server.deliver() > 0 ||
      h.scheduler.runFrame() > 0 ||
      (h.slices?.runNext() ?? false);
    if (!busy) {
      await settle();
      if (
        !h.server.reads.length &&
        !h.server.inFlight.length &&
        !h.scheduler.pending &&
        !h.slices?.pending
      )
        return;
    }
  }
  throw new Error('did not settle');
}

async function start(desk: Desk): Promise<void> {
  desk.h.store.getState().startSync();
  await settle();
  desk.h.server.connect();
}

function held(h: Harness): Order[] {
  return h.store
    .getState()
    .orders.toArray()
    .sort((a, b) => a.id.localeCompare(b.id));
}

function ids(h: Harness): string[] {
  return held(h).map((order) => order.id);
}

function serverIds(h: Harness): string[] {
  return h.server
    .documents('orders')
    .map((doc) => doc.$id)
    .sort();
}

function idReads(desk: Desk): string[][] {
  return desk.reads
    .filter((read) => isIdRead(read.queries))
    .map((read) => {
      const equal = read.queries.find((q) => q.includes('"equal"'))!;
      return (JSON.parse(equal) as { values: string[] }).values;
    });
}

describe('the id sweep of the sync engine', () => {
  it('removes orders deleted while away, inside and outside the window, keeps one outside it still on the server, then saves a snapshot', async () => {
    const desk = returningDesk((h) => [
      ...Array.from({ length: 8 }, (_, i) => paidOrder(h, `o${i}`, h.clock.now - 3600_000 - i)),
      oldOrder(h, 'old-kept'),
      oldOrder(h, 'old-gone'),
    ]);
    const { h, storage } = desk;
    h.clock.now += 3 * DAY;
    deleteNow(h, 'o3');
    deleteNow(h, 'old-gone');
    const marks = performance.getEntriesByName('livedesk:sweep-done').length;
    await start(desk);
    // Not a sweep before the catch-up is done: the desk is never live with a read still owed.
    await run(desk, (next) => next.queries.includes(IDS_ONLY));
    expect(h.store.getState().connection.status).toBe('live');
    expect(ids(h)).toContain('o3');
    await run(desk);

    expect(ids(h)).toEqual(serverIds(h));
    expect(ids(h)).toContain('old-kept');
    expect(h.store.getState().sweep).toEqual({ running: false, done: 1, removed: 2 });
    expect(performance.getEntriesByName('livedesk:sweep-done').length).toBe(marks + 1);
    // The window listed by id in pages of the load's reads; the rest read by id.
    expect(desk.reads.filter((read) => isListing(read.queries))).toHaveLength(5);
    expect(idReads(desk).map((batch) => [...batch].sort())).toEqual([
      ['o3', 'old-gone', 'old-kept'],
    ]);
    // A fresh snapshot without them.
    const saved = readPersisted(storage.data.get(KEY), SNAPSHOT_VERSION)!;
    expect(
      saved.orders
        .toArray()
        .map((order) => order.id)
        .sort(),
    ).toEqual(serverIds(h));
    h.store.getState().startSync()();
  });

  it('keeps orders created or updated by realtime during the sweep, and applies a delete event that comes meanwhile', async () => {
    const desk = returningDesk(
      (h) => [
        ...Array.from({ length: 6 }, (_, i) => paidOrder(h, `o${i}`, h.clock.now - 3600_000 - i)),
        ...['old0', 'old1', 'old2', 'old3'].map((id) => oldOrder(h, id)),
      ],
      { slices: true },
    );
    const { h } = desk;
    h.clock.now += DAY;
    deleteNow(h, 'o5');
    await start(desk);
    // The newest slice is listed; then an order is created and delivered before the rest.
    let listings = 0;
    await run(desk, (next) => isListing(next.queries) && listings++ === 1);
    h.clock.now += 1000;
    const created = makeOrder(h.rng, {
      id: 'new1',
      number: 9,
      createdAt: h.clock.now,
      status: 'paid',
    });
    live(h, () => h.server.write('orders', 'create', 'new1', orderToDocumentData(created)));
    expect(ids(h)).toContain('new1');
    // Listed, passed over in slices; the reads by id wait.
    await run(desk, (next) => isIdRead(next.queries));
    h.clock.now += 1000;
    const old1 = orderFromDocument(h.server.get('orders', 'old1') as unknown as OrderDocument);
    live(h, () =>
      h.server.write(
        'orders',
        'update',
        'old1',
        orderToDocumentData(advanceOrder(h.rng, old1, h.clock.now)),
      ),
    );
    live(h, () => h.server.write('orders', 'delete', 'old2'));
    expect(ids(h)).not.toContain('old2');
    await run(desk);

    expect(ids(h)).toEqual(serverIds(h));
    expect(held(h).find((order) => order.id === 'old1')!.rev).toBe(old1.rev + 1);
    // The one the sweep removed; the delete event removed the other.
    expect(h.store.getState().sweep).toMatchObject({ done: 1, removed: 1 });
    expect(idReads(desk).flat()).not.toContain('new1');
    h.store.getState().startSync()();
  });

  it('retries a failed read with the engine’s backoff, and stays live meanwhile', async () => {
    const desk = returningDesk((h) => [
      paidOrder(h, 'o1', h.clock.now - 3600_000),
      oldOrder(h, 'old-gone'),
    ]);
    const { h } = desk;
    deleteNow(h, 'old-gone');
    await start(desk);
    await run(desk, (next) => isListing(next.queries));
    expect(h.server.fail()).toBe(true);
    await settle();
    expect(h.server.reads).toHaveLength(0);
    await h.advance(999);
    expect(h.server.reads).toHaveLength(0);
    await h.advance(1);
    expect(h.server.reads).toHaveLength(1);
    await run(desk, (next) => isIdRead(next.queries));
    // A read by id fails twice: retried after 1 s, then 2 s.
    expect(h.server.fail()).toBe(true);
    await settle();
    await h.advance(1000);
    expect(h.server.fail()).toBe(true);
    await settle();
    await h.advance(1000);
    expect(h.server.reads).toHaveLength(0);
    await h.advance(1000);
    expect(h.server.reads).toHaveLength(1);
    expect(h.store.getState().connection.status).toBe('live');
    expect(ids(h)).toContain('old-gone');
    await run(desk);
    expect(ids(h)).toEqual(['o1']);
    expect(h.store.getState().sweep).toMatchObject({ done: 1, removed: 1 });
  });

  it('none after a cold load', async () => {
    const desk = coldDesk((h) => [paidOrder(h, 'o1', h.clock.now - 3600_000)]);
    await start(desk);
    await run(desk);
    expect(desk.h.store.getState().connection.status).toBe('live');
    expect(desk.reads.some((read) => read.queries.includes(IDS_ONLY))).toBe(false);
    expect(desk.h.store.getState().sweep.done).toBe(0);
  });

  it('one after an hour offline: an order deleted during the gap goes', async () => {
    const desk = coldDesk((h) => [
      paidOrder(h, 'o1', h.clock.now - 3600_000),
      paidOrder(h, 'o2', h.clock.now - 3600_000),
    ]);
    const { h } = desk;
    await start(desk);
    await run(desk);
    h.server.disconnect();
    await h.advance(60_000);
    deleteNow(h, 'o2');
    await h.advance(SWEEP_AFTER_GAP_MS - 60_000);
    h.server.connect();
    await run(desk);
    expect(h.store.getState().connection.status).toBe('live');
    expect(ids(h)).toEqual(['o1']);
    expect(h.store.getState().sweep).toMatchObject({ done: 1, removed: 1 });
  });

  it('none after a minute offline', async () => {
    const desk = coldDesk((h) => [
      paidOrder(h, 'o1', h.clock.now - 3600_000),
      paidOrder(h, 'o2', h.clock.now - 3600_000),
    ]);
    const { h } = desk;
    await start(desk);
    await run(desk);
    h.server.disconnect();
    await h.advance(30_000);
    deleteNow(h, 'o2');
    await h.advance(30_000);
    h.server.connect();
    await run(desk);
    expect(h.store.getState().connection.status).toBe('live');
    expect(desk.reads.some((read) => read.queries.includes(IDS_ONLY))).toBe(false);
    expect(h.store.getState().sweep.done).toBe(0);
    // Still held: the next sweep (a returning visit, a long gap) removes it.
    expect(ids(h)).toEqual(['o1', 'o2']);
  });
});
