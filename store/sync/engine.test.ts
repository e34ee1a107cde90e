import { Query } from 'appwrite';
import { describe, expect, it } from 'vitest';
import { orderFromDocument, orderToDocumentData, type OrderDocument } from '../../domain/order.ts';
import { listOrderFromDocument, ORDER_LIST_SELECT } from './documents.ts';
import { createHarness, settle, type Harness } from './testing/harness.ts';
import { makeOrder, orderDocument } from './testing/orders.ts';

const DAY = 24 * 3600_000;

function seedOrders(h: Harness, count: number, ageMs = 3600_000) {
  const docs = Array.from({ length: count }, (_, i) =>
    orderDocument(
      makeOrder(h.rng, {
        id: `o${i}`,
        number: i + 1,
        createdAt: h.clock.now - ageMs - i,
        status: 'paid',
      }),
    ),
  );
  h.server.seed('orders', docs);
}

/** An order document created `ageDays` before the harness's clock. */
function aged(h: Harness, id: string, ageDays: number, status: 'paid' | 'fulfilled') {
  return orderDocument(
    makeOrder(h.rng, { id, number: 1, createdAt: h.clock.now - ageDays * DAY, status }),
  );
}

function update(h: Harness, id: string, fields: Record<string, unknown>) {
  const current = h.server.get('orders', id) as unknown as OrderDocument;
  h.server.write('orders', 'update', id, {
    ...orderToDocumentData(fields),
    rev: current.rev + 1,
  });
}

/** The server's orders as the store should hold them: list copies, except `whole` ones. */
function serverOrders(h: Harness, whole: readonly string[] = []) {
  return h.server
    .documents('orders')
    .map((doc) =>
      whole.includes(doc.$id)
        ? orderFromDocument(doc as unknown as OrderDocument)
        : listOrderFromDocument(doc),
    )
    .sort((a, b) => a.id.localeCompare(b.id));
}

function storeOrders(h: Harness) {
  return h.store
    .getState()
    .orders.toArray()
    .sort((a, b) => a.id.localeCompare(b.id));
}

describe('SyncEngine', () => {
  it('subscribes first, buffers events during the snapshot, replays them, goes live', async () => {
    const h = createHarness();
    seedOrders(h, 12);
    h.store.getState().startSync();
    await settle();
    expect(h.server.subscribed).toBe(true);
    expect(h.server.readCount).toBe(0);
    h.server.connect();
    await settle();
    // The newest orders first; the rest once their first page is in.
    expect(h.server.reads).toHaveLength(1);
    expect(h.store.getState().connection.status).toBe('connecting');
    // A change arrives while the first page is being read: buffered, not applied.
    update(h, 'o3', { status: 'preparing' });
    h.server.commitDue();
    h.server.deliver();
    h.scheduler.runFrame();
    expect(h.store.getState().orders.size).toBe(0);
    await h.drain();
    const state = h.store.getState();
    expect(state.load.status).toBe('ready');
    expect(state.connection.status).toBe('live');
    expect(state.orders.get('o3')!.status).toBe('preparing');
    // The snapshot's list copies, and the whole order the event brought.
    expect(storeOrders(h)).toEqual(serverOrders(h, ['o3']));
    expect(state.board.columns.preparing.toArray()).toEqual(['o3']);
  });

  it('applies live events once per frame in one set', async () => {
    const h = createHarness();
    seedOrders(h, 5);
    await h.startLive();
    let notifications = 0;
    const stop = h.store.subscribe(() => notifications++);
    for (const id of ['o1', 'o2', 'o3']) update(h, id, { status: 'preparing' });
    h.server.commitDue();
    h.server.deliver();
    expect(h.store.getState().orders.get('o1')!.status).toBe('paid');
    expect(h.scheduler.pending).toBe(1);
    h.scheduler.runFrame();
    expect(notifications).toBe(1);
    expect(h.store.getState().board.columns.preparing.size).toBe(3);
    expect(h.store.getState().connection.lastEventAt).toBe(h.clock.now);
    stop();
  });

  it('reconnecting (with the retry delay) → resyncing → live, recovering what the gap lost', async () => {
    const h = createHarness();
    seedOrders(h, 8);
    await h.startLive();
    await h.advance(1000);
    h.server.disconnect();
    const reconnecting = h.store.getState().connection;
    expect(reconnecting.status).toBe('reconnecting');
    expect(reconnecting.nextRetryAt).toBe(h.clock.now + 1000);
    await h.advance(200);
    update(h, 'o2', { status: 'preparing' });
    h.server.write(
      'orders',
      'create',
      'new1',
      orderToDocumentData(makeOrder(h.rng, { number: 99, createdAt: h.clock.now, status: 'paid' })),
    );
    h.server.commitDue();
    expect(h.server.inFlight).toHaveLength(0);
    await h.advance(800);
    expect(await h.reconnect()).toEqual(['resyncing', 'live']);
    // Every order at the server's version (the delta read brings whole ones).
    const version = (o: { id: string; rev: number; updatedAt: number; status: string }) =>
      `${o.id}@${o.rev}/${o.updatedAt}/${o.status}`;
    expect(storeOrders(h).map(version)).toEqual(serverOrders(h).map(version));
    for (const id of ['o2', 'new1'])
      expect(h.store.getState().orders.get(id)).toEqual(
        orderFromDocument(h.server.get('orders', id) as unknown as OrderDocument),
      );
  });

  it('retries a failed resync after a delay', async () => {
    const h = createHarness();
    seedOrders(h, 3);
    await h.startLive();
    h.server.disconnect();
    update(h, 'o1', { status: 'ready' });
    h.server.commitDue();
    h.server.connect();
    await settle();
    expect(h.server.fail()).toBe(true);
    await settle();
    expect(h.store.getState().connection.status).toBe('resyncing');
    expect(h.server.reads).toHaveLength(0);
    await h.advance(1000);
    await h.drain();
    expect(h.store.getState().connection.status).toBe('live');
    expect(h.store.getState().orders.get('o1')!.status).toBe('ready');
  });

  it('loads anyway when the subscription is slow, then resyncs once it is active', async () => {
    const h = createHarness();
    seedOrders(h, 4);
    h.store.getState().startSync();
    await settle();
    await h.advance(2000);
    await h.drain();
    expect(h.store.getState().load.status).toBe('ready');
    expect(h.store.getState().connection.status).toBe('connecting');
    update(h, 'o0', { status: 'preparing' });
    h.server.commitDue();
    h.server.connect();
    await h.drain();
    expect(h.store.getState().connection.status).toBe('live');
    expect(h.store.getState().orders.get('o0')!.status).toBe('preparing');
  });

  it('loads recent orders and open older ones, not closed older ones', async () => {
    const h = createHarness();
    h.server.seed('orders', [
      aged(h, 'recent', 3, 'fulfilled'),
      aged(h, 'old-open', 40, 'paid'),
      aged(h, 'old-closed', 40, 'fulfilled'),
    ]);
    await h.startLive();
    expect(
      storeOrders(h)
        .map((o) => o.id)
        .sort(),
    ).toEqual(['old-open', 'recent']);
  });

  it('reads the list fields of recent orders in time slices, newest first, up to maxOrders', async () => {
    const h = createHarness({ sync: { pageSize: 2, maxOrders: 7, slices: 3 } });
    // One order a day for 20 days, and an open one from 40 days ago.
    h.server.seed(
      'orders',
      Array.from({ length: 20 }, (_, day) =>
        orderDocument(
          makeOrder(h.rng, {
            id: `d${day}`,
            number: day + 1,
            createdAt: h.clock.now - day * DAY - 3600_000,
            status: 'fulfilled',
          }),
        ),
      ),
    );
    h.server.seed('orders', [
      orderDocument(
        makeOrder(h.rng, {
          id: 'old',
          number: 99,
          createdAt: h.clock.now - 40 * DAY,
          status: 'paid',
        }),
      ),
    ]);
    const listed: { collectionId: string; queries: readonly string[] }[] = [];
    const list = h.server.list.bind(h.server);
    h.server.list = (collectionId, queries) => {
      listed.push({ collectionId, queries });
      return list(collectionId, queries);
    };
    h.store.getState().startSync();
    await settle();
    h.server.connect();
    await settle();
    expect(h.server.reads).toHaveLength(1);
    h.server.answer();
    await settle();
    // The newest page is shown at once; the other slices, older open orders, products and
    // export jobs are then read at once.
    expect(storeOrders(h).map((o) => o.id)).toEqual(['d0', 'd1']);
    const orderReads = h.server.reads.filter((r) => r.collectionId === 'orders');
    expect(orderReads).toHaveLength(4);
    for (const read of orderReads)
      expect(read.queries).toContain(Query.select([...ORDER_LIST_SELECT]));
    await h.drain();
    const held = storeOrders(h);
    // The 7 newest of the last 30 days (read across slices, cut to the newest) and the open one.
    expect(held.map((o) => o.id).sort()).toEqual(
      ['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'old'].sort(),
    );
    expect(held.every((o) => o.partial === true)).toBe(true);
    expect(held.find((o) => o.id === 'd3')).toEqual(
      listOrderFromDocument(h.server.get('orders', 'd3')!),
    );
    // A slice stops once it and the newer ones hold 7 (the newest 10 days hold 10 of them).
    const older = (r: (typeof listed)[number]) =>
      r.collectionId === 'orders' &&
      r.queries.some((q) => q.startsWith('{"method":"lessThan"')) &&
      !r.queries.some((q) => q.startsWith('{"method":"equal"'));
    // Read whole, the middle slice would take 4 reads (2 + 2 + 2 + 1) and the oldest 1.
    expect(listed.filter(older).length).toBeLessThan(5);
    expect(h.store.getState().load.status).toBe('ready');
  });

  it('replaces a list copy with the whole order when it is read, and never the other way round', async () => {
    const h = createHarness();
    seedOrders(h, 3);
    const stop = h.store.getState().startSync();
    await settle();
    h.server.connect();
    await h.drain();
    expect(h.store.getState().orders.get('o1')!.partial).toBe(true);
    const before = h.store.getState().orders.get('o1')!;
    // The drawer opens o1: its whole document, the same version.
    const opened = h.store.getState().refreshOrder('o1');
    await h.drain();
    await opened;
    const whole = h.store.getState().orders.get('o1')!;
    expect(whole).toEqual(
      orderFromDocument(h.server.get('orders', 'o1') as unknown as OrderDocument),
    );
    expect(whole.partial).toBeUndefined();
    expect(whole.rev).toBe(before.rev);
    // A fresh load (the engine restarted) reads list copies again: o1 stays whole.
    stop();
    h.store.getState().startSync();
    await settle();
    h.server.connect();
    await h.drain();
    expect(h.store.getState().load.status).toBe('ready');
    expect(h.store.getState().orders.get('o1')).toBe(whole);
    expect(h.store.getState().orders.get('o2')!.partial).toBe(true);
    // A change comes whole (realtime events carry the document).
    update(h, 'o2', { status: 'preparing' });
    h.server.commitDue();
    await h.drain();
    expect(h.store.getState().orders.get('o2')!.partial).toBeUndefined();
    expect(storeOrders(h)).toEqual(serverOrders(h, ['o1', 'o2']));
  });

  it('syncs only the collections it is given besides orders (staff: no export jobs)', async () => {
    const h = createHarness({ sync: { fullSync: ['products'] } });
    seedOrders(h, 2);
    const collections = new Set<string>();
    const list = h.server.list.bind(h.server);
    h.server.list = (collectionId, queries) => {
      collections.add(collectionId);
      return list(collectionId, queries);
    };
    await h.startLive();
    expect([...collections].sort()).toEqual(['orders', 'products']);
    h.server.write('exports', 'create', 'x1', { requestedBy: 'u1', status: 'queued' });
    h.server.commitDue();
    await h.drain();
    expect(h.store.getState().exports.size).toBe(0);
    expect(h.store.getState().connection.status).toBe('live');
  });

  it('keeps a failed initial load as a typed error, and retries it', async () => {
    const h = createHarness();
    seedOrders(h, 2);
    h.store.getState().startSync();
    await settle();
    h.server.connect();
    await settle();
    h.server.fail();
    await settle();
    const load = h.store.getState().load;
    expect(load.status).toBe('error');
    expect(load.error).toMatchObject({ name: 'AppError', code: 'OFFLINE' });
    await h.advance(1000);
    await h.drain();
    expect(h.store.getState().load).toMatchObject({ status: 'ready', error: null });
    expect(h.store.getState().orders.size).toBe(2);
  });

  it("loads an order's notes and activity on demand and keeps them live", async () => {
    const h = createHarness();
    seedOrders(h, 2);
    const note = (id: string, orderId: string, body: string) => ({
      orderId,
      authorId: 'u1',
      authorName: 'Ana',
      body,
      deleted: false,
      $id: id,
      $createdAt: new Date(h.clock.now).toISOString(),
      $updatedAt: new Date(h.clock.now).toISOString(),
    });
    h.server.seed('notes', [note('n1', 'o0', 'first'), note('n2', 'o1', 'other order')]);
    await h.startLive();
    const release = h.store.getState().loadOrderDetail('o0');
    expect(h.store.getState().details.o0!.status).toBe('loading');
    await h.drain();
    expect(h.store.getState().details.o0!.status).toBe('ready');
    expect(h.store.getState().notesByOrder.o0!.map((n) => n.body)).toEqual(['first']);
    expect(h.store.getState().notesByOrder.o1).toBeUndefined();
    await h.advance(10);
    h.server.write('notes', 'create', 'n3', {
      orderId: 'o0',
      authorId: 'u2',
      authorName: 'Ben',
      body: 'second',
      deleted: false,
    });
    h.server.write('notes', 'create', 'n4', {
      orderId: 'o1',
      authorId: 'u2',
      authorName: 'Ben',
      body: 'ignored',
      deleted: false,
    });
    await h.advance(0);
    await h.drain();
    expect(h.store.getState().notesByOrder.o0!.map((n) => n.body)).toEqual(['first', 'second']);
    expect(h.store.getState().notes.get('n4')).toBeUndefined();
    release();
    expect(h.store.getState().details.o0).toBeUndefined();
    expect(h.store.getState().notes.size).toBe(0);
  });

  it("reads an opened order's whole record at once, not after its details are followed", async () => {
    const h = createHarness();
    seedOrders(h, 2);
    await h.startLive();
    expect(h.store.getState().orders.get('o0')!.partial).toBe(true);
    const release = h.store.getState().loadOrderDetail('o0');
    // Asked for in the same task: the details subscription is pointed at the order meanwhile.
    expect(h.server.reads.map((read) => read.collectionId)).toEqual(['orders']);
    expect(h.server.subscriptions).toBe(1);
    await h.drain();
    expect(h.server.subscriptions).toBe(2);
    expect(h.store.getState().orders.get('o0')!.partial).toBeUndefined();
    expect(h.store.getState().details.o0!.status).toBe('ready');
    release();
  });

  it("follows only the tracked orders' details: the server sends no others", async () => {
    const h = createHarness();
    seedOrders(h, 3);
    await h.startLive();
    expect(h.server.subscriptions).toBe(1);
    const activity = (id: string, orderId: string) =>
      h.server.write('activity', 'create', id, { orderId, kind: 'claimed', actorName: 'Ana' });

    activity('a0', 'o0');
    h.server.commitDue();
    expect(h.server.inFlight).toHaveLength(0);

    const releaseO0 = h.store.getState().loadOrderDetail('o0');
    const releaseO1 = h.store.getState().loadOrderDetail('o1');
    await settle();
    expect(h.server.reads.length).toBeGreaterThan(0);
    // Written while the details are read: followed already, so not lost.
    activity('a1', 'o1');
    activity('a2', 'o2');
    h.server.commitDue();
    expect(h.server.subscriptions).toBe(2);
    expect(h.server.inFlight.map((e) => (e.payload as { $id: string }).$id)).toEqual(['a1']);
    await h.drain();
    expect(
      h.store
        .getState()
        .activity.toArray()
        .map((a) => a.id)
        .sort(),
    ).toEqual(['a0', 'a1']);

    releaseO0();
    await settle();
    activity('a3', 'o0');
    activity('a4', 'o1');
    h.server.commitDue();
    expect(h.server.inFlight.map((e) => (e.payload as { $id: string }).$id)).toEqual(['a4']);
    releaseO1();
    await settle();
    expect(h.server.subscriptions).toBe(1);
  });

  it('drops the closed orders that age out of the window while the desk is open, not the open ones', async () => {
    const h = createHarness();
    h.server.seed('orders', [
      aged(h, 'aging', 29.99, 'fulfilled'),
      aged(h, 'aging-shown', 29.99, 'fulfilled'),
      aged(h, 'aging-open', 29.99, 'paid'),
      aged(h, 'recent', 3, 'fulfilled'),
    ]);
    await h.startLive();
    const held = () =>
      storeOrders(h)
        .map((o) => o.id)
        .sort();
    expect(held()).toEqual(['aging', 'aging-open', 'aging-shown', 'recent']);
    const release = h.store.getState().loadOrderDetail('aging-shown');
    await h.drain();
    // A quarter of an hour later the first two are 30 days old; the next pass lets go of the
    // closed one no drawer shows. The server keeps it.
    await h.advance(15 * 60_000);
    await h.drain();
    expect(held()).toEqual(['aging-open', 'aging-shown', 'recent']);
    expect(h.server.get('orders', 'aging')).toBeDefined();
    // Let go of, not deleted: a read of it (a link to the order) brings it back.
    const refreshed = h.store.getState().refreshOrder('aging');
    await h.drain();
    await refreshed;
    expect(held()).toContain('aging');
    release();
    await h.advance(60_000);
    await h.drain();
    expect(held()).toEqual(['aging-open', 'recent']);
    expect(h.store.getState().connection.status).toBe('live');
  });

  it('refreshes one order', async () => {
    const h = createHarness();
    seedOrders(h, 2);
    await h.startLive();
    h.server.disconnect();
    update(h, 'o1', { status: 'ready' });
    h.server.commitDue();
    const refreshed = h.store.getState().refreshOrder('o1');
    await h.drain();
    await refreshed;
    expect(h.store.getState().orders.get('o1')!.status).toBe('ready');
  });

  it('stops: closes the subscription and ignores what comes after', async () => {
    const h = createHarness();
    seedOrders(h, 2);
    h.store.getState().startSync()();
    await settle();
    expect(h.server.subscribed).toBe(false);
  });

  it('starts again after a stop (React StrictMode mounts twice) with one subscription', async () => {
    const h = createHarness();
    seedOrders(h, 3);
    const stopFirst = h.store.getState().startSync();
    stopFirst();
    h.store.getState().startSync();
    await settle();
    h.server.connect();
    await h.drain();
    expect(h.server.subscribed).toBe(true);
    expect(h.store.getState().connection.status).toBe('live');
    expect(h.store.getState().orders.size).toBe(3);
    update(h, 'o1', { status: 'ready' });
    h.server.commitDue();
    await h.drain();
    expect(h.store.getState().orders.get('o1')!.status).toBe('ready');
  });

  it('shows offline while the browser is', async () => {
    let listener: ((online: boolean) => void) | null = null;
    const h = createHarness({
      sync: {
        network: {
          online: () => true,
          subscribe: (l) => {
            listener = l;
            return () => (listener = null);
          },
        },
      },
    });
    await h.startLive();
    listener!(false);
    expect(h.store.getState().connection.status).toBe('offline');
    listener!(true);
    expect(h.store.getState().connection.status).toBe('live');
  });
});
