import { Presences, Realtime, Teams as WebTeams } from 'appwrite';
import { Databases, Teams, type Client } from 'node-appwrite';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PRODUCTS } from '../../scripts/lib/demo-data.ts';
import { generateOrder, type GeneratedOrder } from '../../scripts/lib/order-generator.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Random } from '../../scripts/lib/random.ts';
import { Seeder } from '../../scripts/lib/seeder.ts';
import { Simulator, type SimulationStats } from '../../scripts/lib/simulator.ts';
import { schema } from '../../scripts/schema.ts';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID } from '../../domain/ids.ts';
import {
  OPEN_STATUSES,
  orderFromDocument,
  type Order,
  type OrderDocument,
} from '../../domain/order.ts';
import {
  agedOut,
  appwriteSyncPorts,
  BOARD_COLUMNS,
  createDeskStore,
  DEFAULT_ORDER_VIEW,
  HISTORY_DAYS,
  ORDER_LIST_FIELDS,
  orderViewKey,
  type DeskStore,
  type RealtimePort,
  windowStart,
} from '../../store/index.ts';
import { viewProblems } from '../../store/testing.ts';
import { installBrowserGlobals, sleep, until } from '../support/browser.ts';
import { backend, serverClient } from '../support/clients.ts';
import { allDocuments } from '../support/databases.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { createWebUser } from '../support/realtime.ts';
import type { StartedBackend } from '../targets/types.ts';

const NativeWebSocket = globalThis.WebSocket;
installBrowserGlobals();
// The store's socket is Node's own WebSocket: RecordingWebSocket would parse and keep each of
// the thousands of messages a second time, on a machine the traffic needs.
globalThis.WebSocket = NativeWebSocket;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Orders created in the store's 30 days (spread over 29, clear of the boundary). */
const RECENT_ORDERS = 2_800;
/** Orders of the last 50 minutes, mostly open: what the simulator claims and advances. */
const FRESH_ORDERS = 300;
/** Orders 31–45 days old: the open ones are in the store's scope, the closed ones are not. */
const OLD_ORDERS = 160;
/** Closed orders that the test updates and hard-deletes while the subscription is active. */
const DOOMED_ORDERS = 200;
const DELETE_BATCH = 10;
/**
 * What the simulator is asked for. The rate reached is printed, not asserted (it depends on the
 * machine's load; rates are the benchmarks' business): the test asserts that the traffic ran.
 */
const TARGET_RATE = 1_000;
/** Writes the traffic must at least have made (any machine makes these within the minimum time). */
const MIN_WRITES = 1_000;
/** Realtime cuts (the drop switch) during the traffic. */
const CUTS = 6;
const MIN_CUTS = 5;
/** The traffic lasts until the cuts are done, and at least this long. */
const MIN_TRAFFIC_MS = 10_000;
/** Cuts not done by then fail the test (on the count); generous, for a busy machine. */
const MAX_TRAFFIC_MS = 60_000;

/** Statuses the store loads whatever the order's age (`ALWAYS_LOADED` in store/sync/engine.ts). */
const ALWAYS_LOADED = new Set<string>([...OPEN_STATUSES, 'pending_payment']);

/**
 * The fields of a list copy (an order as the snapshot read it, never changed since: the
 * snapshot reads only these, the fields marked `list` in `ORDER_SCHEMA`). A whole
 * record is compared in every field.
 */
const LIST_FIELDS: readonly (keyof Order)[] = [
  'id',
  'createdAt',
  'updatedAt',
  ...ORDER_LIST_FIELDS,
];

function pick(order: Order, fields: readonly (keyof Order)[]): Partial<Order> {
  const out: Partial<Order> = {};
  for (const field of fields) (out as Record<string, unknown>)[field] = order[field];
  return out;
}

/** Writes `documents` with `createDocuments`, 100 a call, 4 calls at a time. */
async function bulkCreate(
  databases: Databases,
  collectionId: string,
  documents: readonly object[],
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < documents.length) {
      const batch = documents.slice(next, (next += 100));
      await databases.createDocuments({ databaseId: DATABASE_ID, collectionId, documents: batch });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** Every order on the backend, read with the API key (cursor pagination; nothing changes now). */
async function readAllOrders(databases: Databases): Promise<OrderDocument[]> {
  return (await allDocuments(
    databases,
    DATABASE_ID,
    COLLECTIONS.orders,
  )) as unknown as OrderDocument[];
}

/**
 * The base: products, orders over the store's 30 days and older ones, and the doomed orders.
 * Returns the doomed orders and the ids of the old orders in the store's scope (open ones).
 */
async function seed(admin: Client): Promise<{ doomed: GeneratedOrder[]; oldInScope: Set<string> }> {
  await new Seeder(admin).ensureCatalog();
  const now = Date.now();
  const random = new Random(20260303);
  const staff = DEMO_ACCOUNTS.filter((account) => account.role !== 'owner');
  let number = 1000;
  const make = (createdAt: number, at: number) =>
    generateOrder({ number: ++number, createdAt, now: at, products: DEMO_PRODUCTS, staff, random });
  const base: GeneratedOrder[] = [];
  for (let i = 0; i < RECENT_ORDERS; i++)
    base.push(make(now - 29 * DAY + Math.floor(random.next() * (29 * DAY - 60 * MINUTE)), now));
  for (let i = 0; i < FRESH_ORDERS; i++)
    base.push(make(now - Math.floor(random.next() * 50 * MINUTE), now));
  for (let i = 0; i < OLD_ORDERS; i++) {
    const createdAt = now - 31 * DAY - Math.floor(random.next() * 14 * DAY);
    // Every other one as it was 5 minutes after its creation (open), the rest as of now.
    base.push(make(createdAt, i % 2 ? createdAt + 5 * MINUTE : now));
  }
  // Closed, so that the simulator (which works on open orders) leaves them alone.
  const doomed = Array.from({ length: DOOMED_ORDERS }, (_, i) => ({
    ...make(now - 2 * DAY - i * MINUTE, now),
    status: 'fulfilled' as const,
  }));
  await bulkCreate(new Databases(admin), COLLECTIONS.orders, [...base, ...doomed]);
  const oldInScope = new Set(
    base
      .filter((o) => Date.parse(o.$createdAt) < now - 30 * DAY && ALWAYS_LOADED.has(o.status))
      .map((o) => o.$id),
  );
  return { doomed, oldInScope };
}

/**
 * Issue 3's end-to-end check of the store: the desk store of a signed-in manager with the real
 * Appwrite ports (browser SDK, a real WebSocket), under simulator traffic asked for 1,000 events/s
 * while the realtime connection is cut again and again; afterwards it must equal the backend:
 * nothing lost, nothing twice, nothing deleted come back.
 *
 * It runs on a backend of its own: the drop switch (`POST /_emulator/realtime/drop`) cuts every
 * socket of the backend, which would disturb suites running in parallel on the shared one.
 * Targets that cannot start one per test (real Appwrite, remote) skip it, as
 * realtime-faults.int.test.ts does; the drop switch exists only in the local backend anyway.
 *
 * Cuts: six, each once the store is live again, so that each goes reconnecting → resyncing →
 * live; after every other one, a second cut as soon as the resync starts (its delta read then
 * ends with the subscription down, and the store must resync again).
 *
 * Deletes: the product never hard-deletes, and a delta read cannot see a hard delete made while
 * the subscription was down (docs/store.md). So the test hard-deletes only while the
 * subscription is active: when a resync starts (its delta read races the delete events: a page
 * read before a delete must not bring the order back; the doomed orders are updated all along,
 * so they are in that read) and while live; it waits for the store to drop them before the
 * next cut.
 *
 * Functions are not deployed: their runtimes would take CPU from the traffic. The simulator's
 * notes are written with their order's count, `rev` and record in one transaction (as
 * `note-action` does) and delivered on the notes channel.
 */
describe('the desk store against the local backend (issue 3)', () => {
  let started: StartedBackend | null = null;
  let stopSync: (() => void) | null = null;
  let realtime: Realtime | null = null;

  afterAll(async () => {
    stopSync?.();
    await realtime?.disconnect();
    await started?.stop();
  });

  it(
    'equals the backend after heavy traffic with the realtime connection cut ≥ 5 times',
    { timeout: 240_000 },
    async (context) => {
      // Started here, not in a hook: where the run's target is not available, setup.ts skips
      // the test before this line.
      started = await startOwnBackend();
      if (!started)
        return context.skip(`the ${backend().kind} target does not start a backend per test`);
      const own = started;
      const t0 = Date.now();
      const phases: string[] = [];
      const phase = (name: string) =>
        phases.push(`${name} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      const admin = serverClient(own);
      const databases = new Databases(admin);
      await new Provisioner(admin).apply({ ...schema, functions: [] });

      // 1. The base, and a desk manager signed in with the browser SDK.
      const { doomed, oldInScope } = await seed(admin);
      const manager = await createWebUser('Mia Manager', own);
      await new Teams(admin).createMembership({
        teamId: DESK_TEAM_ID,
        roles: ['manager'],
        userId: manager.userId,
      });
      phase('seeded');

      // 2. The store with the real ports; every realtime event is counted on its way in.
      realtime = new Realtime(manager.client);
      const ports = appwriteSyncPorts({
        realtime,
        client: manager.client,
        teams: new WebTeams(manager.client),
        presences: new Presences(manager.client),
      });
      const received = { all: 0, orders: 0 };
      const counting: RealtimePort = {
        subscribe: (channels, onEvent, handlers) =>
          ports.realtime.subscribe(
            channels,
            (event) => {
              received.all++;
              if (event.channels.some((c) => c.endsWith(`.${COLLECTIONS.orders}.documents`)))
                received.orders++;
              onEvent(event);
            },
            handlers,
          ),
        nextRetryDelayMs: () => ports.realtime.nextRetryDelayMs(),
      };
      // The window trim every second: the simulator closes old open orders, which then leave.
      const desk: DeskStore = createDeskStore({
        sync: { snapshot: ports.snapshot, realtime: counting, trimEveryMs: 1_000 },
      });
      const status = () => desk.getState().connection.status;
      const transitions: string[] = [];
      let reconnects = 0;
      let onResyncing = () => {};
      desk.subscribe((state, previous) => {
        if (state.connection.status === previous.connection.status) return;
        transitions.push(state.connection.status);
        if (state.connection.status === 'reconnecting') reconnects++;
        if (state.connection.status === 'resyncing') onResyncing();
      });
      const syncStartedAt = Date.now();
      stopSync = desk.getState().startSync();
      await until(
        () => desk.getState().load.status === 'ready' && status() === 'live',
        20_000,
        'the store to load and go live',
      );
      phase(`live with ${desk.getState().orders.size} orders`);

      // 3. Traffic: the simulator; besides, the doomed orders are updated one after another
      // (the next ones to go first) and deleted in batches.
      const simulator = new Simulator(admin, 7);
      await simulator.prepare();
      const pool = doomed.map((order) => ({ id: order.$id, rev: order.rev }));
      let trafficOver = false;
      let touches = 0;
      const touchErrors: string[] = [];
      const touching = (async () => {
        for (let i = 0; !trafficOver && pool.length; i++) {
          const target = pool[i % Math.min(pool.length, 2 * DELETE_BATCH)]!;
          await databases
            .updateDocument({
              databaseId: DATABASE_ID,
              collectionId: COLLECTIONS.orders,
              documentId: target.id,
              data: { rev: target.rev + 1, updatedByName: `Touch ${target.rev + 1}` },
            })
            .then(() => {
              target.rev++;
              touches++;
            })
            .catch((error: unknown) => {
              // Deleted meanwhile (404): the delete won. Anything else is a failure.
              if ((error as { code?: number }).code !== 404)
                touchErrors.push(`${target.id}: ${String(error)}`);
            });
          await sleep(10);
        }
      })();
      const deleted: string[] = [];
      const deleteErrors: string[] = [];
      const deletions = new Set<Promise<void>>();
      const deleteSome = () => {
        for (const target of pool.splice(0, DELETE_BATCH)) {
          const deletion: Promise<void> = databases
            .deleteDocument({
              databaseId: DATABASE_ID,
              collectionId: COLLECTIONS.orders,
              documentId: target.id,
            })
            .then(
              () => void deleted.push(target.id),
              (error: unknown) => void deleteErrors.push(`${target.id}: ${String(error)}`),
            )
            .finally(() => deletions.delete(deletion));
          deletions.add(deletion);
        }
      };

      // Cuts: each after the store is live again (and the deletes made while live are in), and
      // every other one followed by a second cut as soon as the resync starts (its delta read in
      // flight; no deletes in that one).
      const dropUrl = `${own.endpoint.replace(/\/v1$/, '')}/_emulator/realtime/drop`;
      let drops = 0;
      let dropping = 0;
      const dropErrors: string[] = [];
      const drop = async () => {
        dropping++;
        try {
          const response = await fetch(dropUrl, {
            method: 'POST',
            headers: { 'X-Appwrite-Key': own.apiKey },
          });
          const body = (await response.json()) as { dropped?: number };
          if (response.status !== 200 || body.dropped !== 1)
            dropErrors.push(`${response.status} ${JSON.stringify(body)}`);
          else drops++;
        } catch (error) {
          dropErrors.push(String(error));
        } finally {
          dropping--;
        }
      };
      let cutInResync = false;
      const resyncCuts = { sent: 0, whileResyncing: 0 };
      let resyncDeletes = 0;
      onResyncing = () => {
        if (!cutInResync) {
          resyncDeletes++;
          return deleteSome();
        }
        cutInResync = false;
        resyncCuts.sent++;
        void drop().then(() => {
          if (status() === 'resyncing') resyncCuts.whileResyncing++;
        });
      };

      // The simulator runs in chunks of 4 s (its counters add up), so that it stops with the cuts.
      const trafficStart = Date.now();
      let stats: SimulationStats | null = null;
      const simulating = (async () => {
        while (!trafficOver) stats = await simulator.run(TARGET_RATE, 4, undefined, 256);
      })();
      const lateDeletes: string[] = [];
      let cuts = 0;
      try {
        while (Date.now() - trafficStart < MAX_TRAFFIC_MS) {
          await until(
            () => dropping === 0 && reconnects >= drops && status() === 'live',
            30_000,
            `the store to be live after cut ${cuts}`,
          );
          deleteSome();
          await sleep(300);
          await Promise.all(deletions);
          // While live, every delete event arrives: wait for all of them before cutting.
          await until(() => deleted.every((id) => !desk.getState().orders.has(id)), 15_000).catch(
            () => lateDeletes.push(...deleted.filter((id) => desk.getState().orders.has(id))),
          );
          if (cuts >= CUTS) {
            if (Date.now() - trafficStart >= MIN_TRAFFIC_MS) break;
            continue;
          }
          await drop();
          cuts++;
          cutInResync = cuts % 2 === 0;
          // The store says live until it sees the socket close.
          await until(() => status() !== 'live', 15_000, `the store to see cut ${cuts}`);
        }
      } finally {
        trafficOver = true;
        cutInResync = false;
        onResyncing = () => {};
        await Promise.all([simulating, touching]);
      }
      const trafficMs = Date.now() - trafficStart;
      await Promise.all(deletions);
      phase('traffic over');
      const simulated: SimulationStats = stats!;
      const writes = simulated.events + touches + deleted.length;
      const rate = writes / (trafficMs / 1000);

      // 4. Quiet: live, and no event for 1.5 s.
      let seen = -1;
      let quietSince = Date.now();
      await until(
        () => {
          if (received.all !== seen) {
            seen = received.all;
            quietSince = Date.now();
          }
          return status() === 'live' && Date.now() - quietSince > 1_500;
        },
        20_000,
        'the store to be live and quiet',
      );
      phase('quiet');
      // The old open orders the traffic closed leave the desk with the next window trim.
      const aged = () => windowStart(Date.now(), HISTORY_DAYS);
      await until(
        () =>
          !desk
            .getState()
            .orders.toArray()
            .some((order) => agedOut(order, aged())),
        20_000,
        'the window trim to drop the closed orders older than 30 days',
      );
      phase('trimmed');

      // 5. The store against the backend: the orders in its scope (created in the last 30 days,
      // open when it loaded, or changed since, less the closed ones older than 30 days), each
      // once, each as the backend has it.
      const documents = await readAllOrders(databases);
      const state = desk.getState();
      const onServer = new Set(documents.map((doc) => doc.$id));
      const expected = new Map<string, OrderDocument>();
      for (const doc of documents)
        if (
          Date.parse(doc.$createdAt) >= syncStartedAt - 30 * DAY ||
          oldInScope.has(doc.$id) ||
          Date.parse(doc.$updatedAt) >= syncStartedAt
        )
          if (!agedOut(orderFromDocument(doc), aged())) expected.set(doc.$id, doc);
      const lost: string[] = [];
      const stale: string[] = [];
      let listCopies = 0;
      for (const [id, doc] of expected) {
        const held = state.orders.get(id);
        if (!held) {
          lost.push(id);
          continue;
        }
        const want = orderFromDocument(doc);
        const listCopy = (held as { partial?: boolean }).partial === true;
        if (listCopy) listCopies++;
        const a = listCopy ? pick(held, LIST_FIELDS) : held;
        const b = listCopy ? pick(want, LIST_FIELDS) : want;
        if (JSON.stringify(a) !== JSON.stringify(b))
          stale.push(
            `${id}: store rev ${held.rev} ${held.status}, backend rev ${want.rev} ${want.status}`,
          );
      }
      const resurrected: string[] = [];
      const outOfScope: string[] = [];
      state.orders.forEach((order) => {
        if (!onServer.has(order.id)) resurrected.push(order.id);
        else if (!expected.has(order.id)) outOfScope.push(order.id);
      });
      const at = Date.now();
      const view = state.orderViews[orderViewKey(DEFAULT_ORDER_VIEW)]!.index.toArray();
      const board = BOARD_COLUMNS.flatMap((column) => state.board.columns[column].toArray());
      const cycles = transitions.join(' ').match(/reconnecting (connecting )?resyncing live/g);

      console.log(
        [
          `[store-sync] ${phases.join(', ')}, compared at ${((at - t0) / 1000).toFixed(1)} s`,
          `[store-sync] traffic ${(trafficMs / 1000).toFixed(1)} s: ${writes} writes, ${rate.toFixed(0)}/s (simulator ${simulated.events}: new ${simulated.byKind['new-order']}, claims ${simulated.byKind.claim}, status ${simulated.byKind.advance}, notes ${simulated.byKind.note}, errors ${simulated.errors}; touches ${touches}; deletes ${deleted.length})`,
          `[store-sync] ${cuts} cuts after live and ${resyncCuts.sent} more as the resync started (${resyncCuts.whileResyncing} answered while the store still said resyncing): ${reconnects} reconnects, ${cycles?.length ?? 0} cycles reconnecting → resyncing → live; ${resyncDeletes} delete batches as a resync started; realtime events received ${received.all} (orders ${received.orders})`,
          `[store-sync] compared ${expected.size} orders (${listCopies} list copies) of ${documents.length} on the backend; the store holds ${state.orders.size}`,
        ].join('\n'),
      );

      expect(dropErrors).toEqual([]);
      expect(cuts).toBeGreaterThanOrEqual(MIN_CUTS);
      expect(drops).toBe(cuts + resyncCuts.sent);
      expect(reconnects).toBeGreaterThanOrEqual(drops);
      expect(cycles?.length ?? 0).toBeGreaterThanOrEqual(cuts);
      expect(status()).toBe('live');
      expect(simulated.errors).toBe(0);
      expect(deleteErrors).toEqual([]);
      expect(touchErrors).toEqual([]);
      expect(resyncDeletes).toBeGreaterThanOrEqual(2);
      expect(deleted.length).toBeGreaterThanOrEqual((MIN_CUTS + 3) * DELETE_BATCH);
      expect(state.load).toEqual({ status: 'ready', loaded: expect.any(Number), error: null });

      // Zero lost, zero resurrected, nothing out of scope, every record as on the backend.
      expect(lateDeletes).toEqual([]);
      expect(lost).toEqual([]);
      expect(resurrected).toEqual([]);
      expect(outOfScope).toEqual([]);
      expect(stale).toEqual([]);
      expect(state.orders.size).toBe(expected.size);
      for (const id of deleted) expect(state.tombstones.orders.has(id)).toBe(true);

      // Zero duplicated: each id once in the newest-first view and on the board, and both (and
      // the metrics) equal to a rebuild from the table.
      expect(new Set(view).size).toBe(view.length);
      expect(view.length).toBe(state.orders.size);
      expect(new Set(board).size).toBe(board.length);
      expect(viewProblems(state, at)).toEqual([]);

      // The traffic really ran (its rate is printed above, not asserted).
      expect(simulated.events).toBeGreaterThan(0);
      expect(writes).toBeGreaterThanOrEqual(MIN_WRITES);
    },
  );
});
