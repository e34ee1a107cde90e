import { Query } from 'appwrite';
import { describe, expect, it } from 'vitest';
import { orderFromDocument, orderToDocumentData, type OrderDocument } from '../../domain/order.ts';
import { createDeskStore, type DeskStore } from '../create-store.ts';
import { listOrderFromDocument } from './documents.ts';
import { PAGE_CHUNKS } from './snapshot-codec.ts';
import { DEFAULT_ORDER_VIEW, orderViewKey } from '../views/order-views.ts';
import { readFirstScreens } from './first-screen.ts';
import {
  encodeSnapshot,
  memorySnapshots,
  prefetchSnapshot,
  readPersisted,
  readPersistedJob,
  SNAPSHOT_VERSION,
  type PersistOptions,
} from './persist.ts';
import { ANA, createHarness, settle, type Harness } from './testing/harness.ts';
import { alwaysOnline } from './testing/model-server.ts';
import { cancelOrder, makeOrder, orderDocument } from './testing/orders.ts';

const DAY = 24 * 3600_000;
const KEY = 'orders:p1:u-ana';

function persistWith(storage: ReturnType<typeof memorySnapshots>, version = SNAPSHOT_VERSION) {
  return {
    storage,
    key: KEY,
    version,
    throttleMs: 5_000,
    onHide: () => () => {},
  } satisfies PersistOptions;
}

/** {@link persistWith}'s options, with the page's hiding left to the test (`hide()`). */
function hideable(storage: ReturnType<typeof memorySnapshots>) {
  let hidden = () => {};
  const persist: PersistOptions = {
    ...persistWith(storage),
    onHide: (callback) => {
      hidden = callback;
      return () => {};
    },
  };
  return { persist, hide: () => hidden() };
}

function seedOrders(h: Harness, count: number) {
  h.server.seed(
    'orders',
    Array.from({ length: count }, (_, i) =>
      orderDocument(
        makeOrder(h.rng, {
          id: `o${i}`,
          number: i + 1,
          createdAt: h.clock.now - 3600_000 - i,
          status: 'paid',
        }),
      ),
    ),
  );
}

function write(h: Harness, id: string, change: (order: ReturnType<typeof orderOf>) => object) {
  const current = orderOf(h.server.get('orders', id));
  h.server.write('orders', 'update', id, {
    ...orderToDocumentData({ ...current, ...change(current), updatedAt: h.clock.now }),
  });
}

function orderOf(doc: unknown) {
  return orderFromDocument(doc as OrderDocument);
}

/** The server's orders as the store should hold them: list copies, except `whole` ones. */
function serverOrders(h: Harness, whole: readonly string[] = []) {
  return h.server
    .documents('orders')
    .map((doc) => (whole.includes(doc.$id) ? orderOf(doc) : listOrderFromDocument(doc)))
    .sort((a, b) => a.id.localeCompare(b.id));
}

function held(store: DeskStore) {
  return store
    .getState()
    .orders.toArray()
    .sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * A first visit: live, the cold load written without waiting for a change, one change applied
 * and written after the throttle, the tab closed.
 */
async function firstVisit(storage: ReturnType<typeof memorySnapshots>) {
  const h = createHarness({ sync: { persist: persistWith(storage) } });
  seedOrders(h, 30);
  h.server.seed('members', [
    // A membership document as the model server keeps it.
    {
      $id: 'm1',
      $createdAt: new Date(h.clock.now).toISOString(),
      $updatedAt: new Date(h.clock.now).toISOString(),
      teamId: 'desk',
      userId: 'u1',
      userName: 'Bo',
      userEmail: 'bo@livedesk.test',
      roles: ['staff'],
      confirm: true,
    } as Parameters<Harness['server']['seed']>[1][number],
  ]);
  await h.startLive();
  await h.advance(10);
  // Nothing was kept: the loaded orders are written without waiting for a change.
  expect(storage.read(KEY)?.orders).toHaveLength(30);
  write(h, 'o1', () => ({ status: 'preparing', rev: 2 }));
  await h.advance(10);
  await h.drain();
  const statusKept = () => storage.read(KEY)!.orders.find((o) => o.id === 'o1')!.status;
  expect(statusKept()).toBe('paid');
  await h.advance(5_000);
  expect(statusKept()).toBe('preparing');
  // The tab closes.
  h.server.disconnect();
  h.store.getState().startSync()();
  return h;
}

/** A returning visit: a new store on the same backend and storage. */
/** Lets a returning desk paint its first screen (a frame) and read the snapshot after it. */
async function painted(h: Harness): Promise<void> {
  await settle();
  h.scheduler.runFrame();
  await settle();
}

function returning(
  h: Harness,
  persist: PersistOptions,
  log: { collectionId: string; queries: readonly string[] }[] = [],
): DeskStore {
  return createDeskStore({
    actor: ANA,
    transport: h.transport,
    now: h.clock.read,
    sync: {
      realtime: h.server,
      snapshot: {
        list: (collectionId, queries) => {
          log.push({ collectionId, queries });
          return h.server.list(collectionId, queries);
        },
      },
      scheduler: h.scheduler,
      timers: h.timers,
      network: alwaysOnline,
      persist,
    },
  });
}

/** While away for `ms`: o2 canceled, o3 preparing, a new order `new1`. */
function changeWhileAway(h: Harness, ms: number): void {
  h.clock.now += ms;
  write(h, 'o2', (o) => cancelOrder(o, h.clock.now));
  h.clock.now += 1000;
  write(h, 'o3', () => ({ status: 'preparing', rev: 2 }));
  const fresh = makeOrder(h.rng, {
    id: 'new1',
    number: 99,
    createdAt: h.clock.now,
    status: 'paid',
  });
  h.server.write('orders', 'create', 'new1', { ...orderToDocumentData(fresh) });
}

/** Answers the backend and runs frames until live, never live with stale orders before. */
async function untilLive(h: Harness, store: DeskStore): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await settle();
    h.server.answer();
    h.scheduler.runFrame();
    if (store.getState().connection.status === 'live') break;
    expect(store.getState().connection.status).toBe('resyncing');
  }
  expect(store.getState().connection.status).toBe('live');
}

/** The reads of a backend's collections (`collectionId` and the query strings of each). */
type ReadLog = { collectionId: string; queries: readonly string[] }[];

/**
 * The orders came from a delta read by `$updatedAt`, not a load by `$createdAt` (the id sweep
 * that follows lists ids only).
 */
function expectDeltaReadOnly(log: ReadLog): void {
  const idsOnly = Query.select(['$id']);
  const orderReads = log.filter((r) => r.collectionId === 'orders' && !r.queries.includes(idsOnly));
  expect(orderReads.some((r) => r.queries.some((q) => q.includes('$updatedAt')))).toBe(true);
  expect(
    orderReads.some((r) =>
      r.queries.some((q) => q.includes('greaterThanEqual') && q.includes('$createdAt')),
    ),
  ).toBe(false);
}

describe('persisted orders snapshot', () => {
  it('is written only while live, with the watermark of what it holds', async () => {
    const storage = memorySnapshots();
    const h = await firstVisit(storage);
    const saved = readPersisted(storage.data.get(KEY), SNAPSHOT_VERSION)!;
    expect(saved.orders.size).toBe(30);
    expect(saved.orders.get('o1')!.status).toBe('preparing');
    const latest = Math.max(...h.server.documents('orders').map((d) => Date.parse(d.$updatedAt)));
    expect(saved.watermark).toBe(latest);
  });

  it('a returning visit paints from it as "Resyncing", then applies what changed while away', async () => {
    const storage = memorySnapshots();
    const h = await firstVisit(storage);
    // Away for three days: a cancellation, an update, a new order, a member removed.
    changeWhileAway(h, 3 * DAY);
    h.server.write('members', 'delete', 'm1');
    h.server.commitDue(true);
    expect(h.server.get('members', 'm1')).toBeUndefined();

    const log: ReadLog = [];
    const store = returning(h, persistWith(storage), log);
    store.getState().startSync();
    await painted(h);
    // Shown from the snapshot before any read: not live.
    expect(log).toHaveLength(0);
    expect(store.getState().orders.size).toBe(30);
    expect(store.getState().load.status).toBe('ready');
    expect(store.getState().connection.status).toBe('resyncing');
    expect(store.getState().orders.get('o2')!.status).toBe('paid');
    h.server.connect();
    await settle();
    expect(store.getState().connection.status).toBe('resyncing');
    await untilLive(h, store);
    // Changed ones are whole (an event or the delta read brought them), the rest list copies.
    expect(held(store)).toEqual(serverOrders(h, ['o1', 'o2', 'o3', 'new1']));
    expect(store.getState().orders.get('o2')!.status).toBe('canceled');
    expect(store.getState().orders.get('new1')).toBeDefined();
    expect(store.getState().members.size).toBe(0);
    // The orders came from the snapshot and a delta read, not a full load.
    expectDeltaReadOnly(log);
    store.getState().startSync()();
  });

  it('a snapshot of another schema version is discarded and the desk loads cold', async () => {
    const storage = memorySnapshots();
    const h = await firstVisit(storage);
    write(h, 'o2', (o) => cancelOrder(o, h.clock.now));
    h.server.commitDue(true);
    const store = returning(h, persistWith(storage, SNAPSHOT_VERSION + 1));
    store.getState().startSync();
    await settle();
    expect(store.getState().orders.size).toBe(0);
    expect(store.getState().connection.status).toBe('connecting');
    expect(storage.data.has(KEY)).toBe(false);
    h.server.connect();
    await h.drain();
    expect(store.getState().connection.status).toBe('live');
    expect(held(store)).toEqual(serverOrders(h));
    // The next write is of the new version.
    await h.advance(5_000);
    expect(readPersisted(storage.data.get(KEY), SNAPSHOT_VERSION + 1)).not.toBeNull();
    store.getState().startSync()();
  });

  it('an unreadable snapshot is discarded and the desk loads cold', async () => {
    const storage = memorySnapshots();
    const h = createHarness({ sync: { persist: persistWith(storage) } });
    seedOrders(h, 5);
    storage.data.set(KEY, {
      header: {
        version: SNAPSHOT_VERSION,
        savedAt: 1,
        watermark: 'x',
        chunks: 0,
        dictionaries: {},
      },
      segments: new Map(),
    });
    h.store.getState().startSync();
    await settle();
    expect(storage.data.has(KEY)).toBe(false);
    expect(h.store.getState().connection.status).toBe('connecting');
    h.server.connect();
    await h.drain();
    expect(held(h.store)).toEqual(serverOrders(h));
    expect(h.store.getState().connection.status).toBe('live');
  });
});

/** Every page of the store's orders: 0, 1, … */
function allPages(h: Harness) {
  return Array.from(
    { length: Math.ceil(h.store.getState().orders.chunkCount / PAGE_CHUNKS) },
    (_, p) => p,
  );
}

/** Lets a change written to the server reach the store. */
async function applied(h: Harness) {
  await h.advance(10);
  await h.drain();
}

/** `storage` with every write recorded: which pages it put, whether it replaced the rest. */
function recorded(storage: ReturnType<typeof memorySnapshots>) {
  const writes: { pages: number[]; replace: boolean; urgent: boolean; watermark: number }[] = [];
  const write = storage.write.bind(storage);
  storage.write = (key, w) => {
    writes.push({
      pages: [...w.segments.keys()],
      replace: w.replace,
      urgent: w.urgent,
      watermark: w.header.watermark,
    });
    return write(key, w);
  };
  return writes;
}

describe("the desk's server-kept snapshot", () => {
  it('starts a first visit on a device as "Resyncing", catches up what changed since and keeps it here', async () => {
    const server = memorySnapshots();
    const h = await firstVisit(server);
    // Written an hour ago; since then a cancellation, an update and a new order.
    changeWhileAway(h, 3600_000);
    h.server.commitDue(true);

    const device = memorySnapshots();
    const log: ReadLog = [];
    let downloads = 0;
    const store = returning(
      h,
      {
        ...persistWith(device),
        serverSnapshot: () => {
          downloads++;
          return server.get(KEY);
        },
      },
      log,
    );
    store.getState().startSync();
    await painted(h);
    await settle();
    expect(downloads).toBe(1);
    expect(log).toHaveLength(0);
    expect(store.getState().orders.size).toBe(30);
    expect(store.getState().connection.status).toBe('resyncing');
    h.server.connect();
    await untilLive(h, store);
    expect(held(store)).toEqual(serverOrders(h, ['o1', 'o2', 'o3', 'new1']));
    expect(store.getState().orders.get('o2')!.status).toBe('canceled');
    expectDeltaReadOnly(log);
    // Nothing was kept on this device: once live, every order is written here.
    await h.advance(10);
    expect(
      device
        .read(KEY)
        ?.orders.map((o) => o.id)
        .sort(),
    ).toEqual(serverOrders(h).map((o) => o.id));
    store.getState().startSync()();
  });

  it('is not read when this device keeps a snapshot; one of another version, or none, means a cold load', async () => {
    const server = memorySnapshots();
    const h = await firstVisit(server);
    let downloads = 0;
    const kept = returning(h, {
      ...persistWith(server),
      serverSnapshot: () => {
        downloads++;
        return Promise.resolve(undefined);
      },
    });
    kept.getState().startSync();
    await painted(h);
    await settle();
    expect(downloads).toBe(0);
    expect(kept.getState().orders.size).toBe(30);
    kept.getState().startSync()();

    for (const serverSnapshot of [
      () =>
        server.get(KEY).then((s) => ({ ...s!, header: { ...(s!.header as object), version: 99 } })),
      () => Promise.resolve(undefined),
      () => Promise.reject(new TypeError('Failed to fetch')),
    ]) {
      const device = memorySnapshots();
      const store = returning(h, { ...persistWith(device), serverSnapshot });
      store.getState().startSync();
      await settle();
      expect(store.getState().orders.size).toBe(0);
      expect(store.getState().connection.status).toBe('connecting');
      h.server.connect();
      await h.drain();
      expect(store.getState().connection.status).toBe('live');
      expect(held(store)).toEqual(serverOrders(h));
      store.getState().startSync()();
      h.server.disconnect();
    }
  });
});

describe('persisted snapshot writes', () => {
  it('put only the pages that changed since the last write, also after a returning visit', async () => {
    const storage = memorySnapshots();
    const writes = recorded(storage);
    const h = createHarness({ sync: { persist: persistWith(storage) } });
    seedOrders(h, 5_000);
    await h.startLive();
    const pageOfOrder = (id: string) => {
      const orders = h.store.getState().orders;
      for (let c = 0; c < orders.chunkCount; c++)
        if (orders.chunkAt(c).some((order) => order?.id === id)) return Math.floor(c / PAGE_CHUNKS);
      return -1;
    };
    // The cold load: every page at once; a change after it: its page, after the throttle.
    await h.advance(0);
    expect(writes).toEqual([
      expect.objectContaining({ pages: allPages(h), replace: true, urgent: false }),
    ]);
    write(h, 'o1', () => ({ status: 'preparing', rev: 2 }));
    await applied(h);
    expect(writes).toHaveLength(1);
    await h.advance(5_000);
    expect(writes[1]).toMatchObject({ pages: [pageOfOrder('o1')], replace: false });
    write(h, 'o4900', () => ({ status: 'preparing', rev: 2 }));
    await applied(h);
    await h.advance(5_000);
    expect(writes[2]).toMatchObject({ pages: [pageOfOrder('o4900')], replace: false });
    expect(storage.read(KEY)!.orders.find((o) => o.id === 'o4900')!.status).toBe('preparing');
    h.server.disconnect();
    h.store.getState().startSync()();

    // Back: the kept chunks are the table's; a change writes its chunk only.
    const store = returning(h, persistWith(storage));
    store.getState().startSync();
    h.server.connect();
    await h.drain();
    expect(store.getState().connection.status).toBe('live');
    const before = writes.length;
    write(h, 'o7', () => ({ status: 'preparing', rev: 2 }));
    await applied(h);
    await h.advance(5_000);
    expect(writes.slice(before).every((w) => !w.replace && w.pages.length <= 1)).toBe(true);
    expect(storage.read(KEY)!.orders).toHaveLength(5_000);
    expect(storage.read(KEY)!.orders.find((o) => o.id === 'o7')!.status).toBe('preparing');
    store.getState().startSync()();
  });

  it('encodes in slices the table as it was when the write began; leaving the page finishes it at once', async () => {
    const storage = memorySnapshots();
    const writes = recorded(storage);
    const { persist, hide } = hideable(storage);
    const h = createHarness({ slices: true, sync: { persist } });
    seedOrders(h, 5_000);
    await h.startLive();
    // The cold load's write, in the first idle slices.
    h.slices!.runAll();
    await h.drain();
    expect(writes).toEqual([expect.objectContaining({ replace: true, urgent: false })]);
    write(h, 'o1', () => ({ status: 'preparing', rev: 2 }));
    await applied(h);
    await h.advance(5_000);
    // The encoding waits for its slices.
    expect(writes).toHaveLength(1);
    expect(h.slices!.pending).toBeGreaterThan(0);
    const watermark = h.store.getState().orders.get('o1')!.updatedAt;
    // A change arrives meanwhile; the page is left before the slices ran.
    h.clock.now += 1000;
    write(h, 'o2', () => ({ status: 'preparing', rev: 2 }));
    await applied(h);
    hide();
    await settle();
    expect(writes[1]).toEqual(expect.objectContaining({ replace: false, urgent: true, watermark }));
    const kept = storage.read(KEY)!;
    expect(kept.orders.find((o) => o.id === 'o1')!.status).toBe('preparing');
    expect(kept.orders.find((o) => o.id === 'o2')!.status).toBe('paid');
    // The change made meanwhile is the next write's, of its chunk only.
    await h.advance(5_000);
    h.slices!.runAll();
    await settle();
    expect(writes).toHaveLength(3);
    expect(writes[2]).toMatchObject({ replace: false, urgent: false });
    expect(writes[2]!.pages).toHaveLength(1);
    expect(storage.read(KEY)!.orders.find((o) => o.id === 'o2')!.status).toBe('preparing');
    h.store.getState().startSync()();
  });
  it('a write due while one is under way follows it, though no change comes after', async () => {
    const storage = memorySnapshots();
    const writes = recorded(storage);
    const h = createHarness({ slices: true, sync: { persist: persistWith(storage) } });
    seedOrders(h, 5_000);
    await h.startLive();
    h.slices!.runAll();
    await h.drain();
    expect(writes).toHaveLength(1);
    write(h, 'o1', () => ({ status: 'preparing', rev: 2 }));
    await applied(h);
    await h.advance(5_000);
    // The second write is encoding (its slices wait for idle periods) when o2 changes, and the
    // write due for it comes before those slices ran: the last change of the traffic.
    write(h, 'o2', () => ({ status: 'preparing', rev: 2 }));
    await applied(h);
    await h.advance(5_000);
    h.slices!.runAll();
    await settle();
    expect(writes).toHaveLength(2);
    expect(storage.read(KEY)!.orders.find((o) => o.id === 'o2')!.status).toBe('paid');
    await h.advance(5_000);
    h.slices!.runAll();
    await settle();
    expect(writes).toHaveLength(3);
    expect(storage.read(KEY)!.orders.find((o) => o.id === 'o2')!.status).toBe('preparing');
    h.store.getState().startSync()();
  });

  it("a cold load's write waits for the received events to be applied, then runs in the next idle slices", async () => {
    const storage = memorySnapshots();
    const writes = recorded(storage);
    const h = createHarness({ slices: true, sync: { persist: persistWith(storage) } });
    seedOrders(h, 300);
    await h.startLive();
    // An event is received before the idle period the write was scheduled in.
    write(h, 'o1', () => ({ status: 'preparing', rev: 2 }));
    await h.advance(10);
    h.server.deliver();
    await settle();
    h.slices!.runAll();
    expect(writes).toHaveLength(0);
    // The next frame applies it; the write follows in the idle slices, not after the throttle.
    h.scheduler.runFrame();
    h.slices!.runAll();
    await settle();
    expect(writes).toEqual([expect.objectContaining({ replace: true, urgent: false })]);
    expect(storage.read(KEY)!.orders.find((o) => o.id === 'o1')!.status).toBe('preparing');
    h.store.getState().startSync()();
  });

  it('a write refused (another under way, storage full) leaves the orders to the next write', async () => {
    const storage = memorySnapshots();
    const put = storage.write.bind(storage);
    let refuse = true;
    storage.write = (key, w) =>
      refuse ? Promise.reject(new Error('A snapshot write is under way.')) : put(key, w);
    const writes = recorded(storage);
    const { persist, hide } = hideable(storage);
    const h = createHarness({ sync: { persist } });
    seedOrders(h, 300);
    await h.startLive();
    await h.advance(0);
    expect(writes).toEqual([expect.objectContaining({ urgent: false })]);
    write(h, 'o1', () => ({ status: 'preparing', rev: 2 }));
    await applied(h);
    hide();
    await settle();
    expect(writes).toEqual([
      expect.objectContaining({ urgent: false }),
      expect.objectContaining({ urgent: true }),
    ]);
    expect(storage.data.has(KEY)).toBe(false);
    // Nothing changes after: the refused orders are still written at the next chance.
    refuse = false;
    hide();
    await settle();
    expect(writes).toHaveLength(3);
    expect(storage.read(KEY)!.orders.find((o) => o.id === 'o1')!.status).toBe('preparing');
    h.store.getState().startSync()();
  });
});

describe('a snapshot read ahead of the desk', () => {
  it('is used by the desk of the same key, once; another key reads its own', async () => {
    const storage = memorySnapshots();
    const h = await firstVisit(storage);
    let reads = 0;
    const get = storage.get.bind(storage);
    storage.get = (key) => {
      reads++;
      return get(key);
    };
    const ahead = prefetchSnapshot(storage, KEY);
    await settle();
    // First screens are kept: the snapshot is read once the desk painted one.
    expect(reads).toBe(0);
    const store = returning(h, { ...persistWith(storage), prefetched: ahead });
    store.getState().startSync();
    await settle();
    expect(reads).toBe(0);
    expect(store.getState().firstScreens).toHaveLength(1);
    await painted(h);
    expect(reads).toBe(1);
    expect(store.getState().orders.size).toBe(30);
    expect(store.getState().connection.status).toBe('resyncing');
    store.getState().startSync()();
    // Taken once: a desk started again reads storage.
    const again = returning(h, { ...persistWith(storage), prefetched: ahead });
    again.getState().startSync();
    await painted(h);
    expect(reads).toBe(2);
    again.getState().startSync()();
    // Read ahead for another user: not theirs to show.
    // (None kept for them: their snapshot is read ahead at once.)
    const other = prefetchSnapshot(storage, 'orders:p1:someone-else');
    await settle();
    expect(reads).toBe(3);
    const theirs = returning(h, { ...persistWith(storage), prefetched: other });
    theirs.getState().startSync();
    await painted(h);
    expect(reads).toBe(4);
    expect(theirs.getState().orders.size).toBe(30);
    theirs.getState().startSync()();
  });
});

describe('a snapshot read back', () => {
  it('is decoded a page a step (in slices in the browser), as readPersisted decodes it whole', () => {
    const h = createHarness();
    const orders = Array.from({ length: 5_000 }, (_, i) =>
      makeOrder(h.rng, { number: i + 1, createdAt: 1_000 + i, status: 'paid' }),
    );
    const stored = encodeSnapshot({ savedAt: 1, watermark: 2, orders });
    const job = readPersistedJob(stored, SNAPSHOT_VERSION);
    let steps = 0;
    let step = job.next();
    for (; !step.done; step = job.next()) steps++;
    expect(steps).toBe(stored.segments.size);
    expect(stored.segments.size).toBeGreaterThan(1);
    expect(step.value!.orders.toArray()).toEqual(
      readPersisted(stored, SNAPSHOT_VERSION)!.orders.toArray(),
    );
    expect(step.value!.orders.size).toBe(5_000);
  });
});

describe("the table's first screen, kept with the snapshot", () => {
  const DEFAULT_KEY = orderViewKey(DEFAULT_ORDER_VIEW);

  it("is written with each write: the default view's and the shown view's first rows in order, row counts, the total", async () => {
    const storage = memorySnapshots();
    const h = await firstVisit(storage);
    const kept = readFirstScreens(storage.data.get(KEY)!.firstScreens, SNAPSHOT_VERSION);
    expect(kept).toHaveLength(1);
    const screen = kept[0]!;
    // The default view until another is shown: newest first (o0 is the newest).
    expect(screen).toMatchObject({ view: DEFAULT_KEY, rows: 30, total: 30 });
    expect(screen.watermark).toBe(
      readPersisted(storage.data.get(KEY), SNAPSHOT_VERSION)!.watermark,
    );
    expect(screen.orders.map((o) => o.id)).toEqual(Array.from({ length: 30 }, (_, i) => `o${i}`));
    expect(screen.orders[1]!.status).toBe('preparing');
    expect(Object.isFrozen(screen.orders[0])).toBe(true);

    // Another view shown (paid orders by number, highest first): the next write keeps its rows.
    const store = returning(h, persistWith(storage));
    store.getState().startSync();
    h.server.connect();
    await h.drain();
    const spec = { sort: 'number', dir: 'desc', statuses: ['preparing'] } as const;
    const view = store.getState().acquireOrderView(spec);
    store.getState().showTableView(view.key);
    await h.advance(5_000);
    await h.drain();
    const next = readFirstScreens(storage.data.get(KEY)!.firstScreens, SNAPSHOT_VERSION);
    // The default view's still (a link or the menu opens it), then the shown one's.
    expect(next.map((s) => s.view)).toEqual([DEFAULT_KEY, view.key]);
    expect(next[0]!.orders).toHaveLength(30);
    expect(next[1]).toMatchObject({ view: view.key, rows: 1, total: 30 });
    expect(next[1]!.orders.map((o) => o.id)).toEqual(['o1']);
    store.getState().startSync()();
  });

  it('a returning visit shows it as "Resyncing" before the snapshot is read, then every order', async () => {
    const storage = memorySnapshots();
    const h = await firstVisit(storage);
    // The snapshot's read waits; the first screen's does not.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const get = storage.get.bind(storage);
    storage.get = (key) => gate.then(() => get(key));
    const store = returning(h, persistWith(storage));
    store.getState().startSync();
    await settle();
    const state = store.getState();
    expect(state.firstScreens).toHaveLength(1);
    expect(state.firstScreens[0]).toMatchObject({ view: DEFAULT_KEY, rows: 30, total: 30 });
    expect(state.firstScreens[0]!.orders).toHaveLength(30);
    expect(state.connection.status).toBe('resyncing');
    // Nothing else is shown from it: no orders held, the load not ready.
    expect(state.orders.size).toBe(0);
    expect(state.load.status).not.toBe('ready');
    h.scheduler.runFrame();
    release();
    await settle();
    expect(store.getState().firstScreens).toEqual([]);
    expect(store.getState().load.status).toBe('ready');
    expect(store.getState().orders.size).toBe(30);
    expect(store.getState().connection.status).toBe('resyncing');
    h.server.connect();
    await h.drain();
    expect(store.getState().connection.status).toBe('live');
    expect(held(store)).toEqual(serverOrders(h, ['o1']));
    store.getState().startSync()();
  });

  it('is read ahead with the snapshot, and not shown when the snapshot is not one to use', async () => {
    const storage = memorySnapshots();
    const h = await firstVisit(storage);
    const ahead = prefetchSnapshot(storage, KEY);
    const store = returning(h, { ...persistWith(storage), prefetched: ahead });
    store.getState().startSync();
    await painted(h);
    expect(ahead.takeFirstScreens()).toBeNull();
    expect(ahead.take()).toBeNull();
    expect(store.getState().orders.size).toBe(30);
    expect(store.getState().firstScreens).toEqual([]);
    store.getState().startSync()();

    // A snapshot that does not decode: the first screen goes with it, and the desk loads cold.
    const kept = storage.data.get(KEY)!;
    storage.data.set(KEY, { ...kept, segments: new Map([[0, { data: 1, text: '' }]]) });
    const cold = returning(h, persistWith(storage));
    cold.getState().startSync();
    await painted(h);
    expect(cold.getState().firstScreens).toEqual([]);
    expect(cold.getState().orders.size).toBe(0);
    expect(storage.data.has(KEY)).toBe(false);
    h.server.connect();
    await h.drain();
    expect(held(cold)).toEqual(serverOrders(h));
    cold.getState().startSync()();
  });
});
