import { Databases, ID, Presences, Query, type Client } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PRODUCTS, SIMULATED_STAFF } from '../../scripts/lib/demo-data.ts';
import { generateOrder } from '../../scripts/lib/order-generator.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Random } from '../../scripts/lib/random.ts';
import { Seeder } from '../../scripts/lib/seeder.ts';
import { leftForPeople, Simulator, type SimulationStats } from '../../scripts/lib/simulator.ts';
import { schema } from '../../scripts/schema.ts';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { describeDrift } from '../../domain/order-invariants.ts';
import { auditOrders } from '../../functions/_shared/order-audit.ts';
import { activityWrite } from '../../functions/_shared/order-writes.ts';
import { repairSince } from '../../functions/repair-orders/src/main.ts';
import { backend, serverClient } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';

const OPEN_ORDERS = 8;
const BUMPED_REV = 50;

/**
 * The simulator shares the backend with the desk: people act on orders and `note-action` counts
 * notes, both moving an order's `rev` on behind the simulator's back — as every writer of orders
 * does, with the activity record of each revision in the same transaction. Its writes must never
 * put an older `rev` over a newer one (every desk would ignore them). A backend of the test's
 * own, since the simulator works on every open order it finds.
 */
describe('simulator (npm run simulate)', () => {
  it('never writes an older rev over a change made by someone else', async (context) => {
    await using started = await startOwnBackend();
    if (!started)
      return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const admin = serverClient(started);
    await new Provisioner(admin).apply({ ...schema, functions: [] });
    const databases = new Databases(admin);

    const now = Date.now();
    const ids: string[] = [];
    for (let number = 1; number <= OPEN_ORDERS; number++) {
      const {
        $id: _id,
        $createdAt: _c,
        $updatedAt: _u,
        ...order
      } = generateOrder({
        number,
        createdAt: now - 60_000,
        now,
        products: DEMO_PRODUCTS,
        staff: DEMO_ACCOUNTS,
        random: new Random(number),
      });
      const created = await databases.createDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId: ID.unique(),
        data: {
          ...order,
          status: 'paid',
          paymentStatus: 'succeeded',
          paidAt: new Date(now - 30_000).toISOString(),
          startedAt: null,
          readyAt: null,
          fulfilledAt: null,
          canceledAt: null,
          refundedCents: 0,
          assigneeId: null,
          assigneeName: null,
          rev: 1,
        },
      });
      ids.push(created.$id);
    }

    const simulator = new Simulator(admin, 3);
    await simulator.prepare();
    // Someone else changes every order after the simulator has read it (revisions 2–50, each
    // with its record, in one transaction).
    const someoneElse = { id: null, name: 'Someone else' };
    for (const documentId of ids) {
      const { $id: transactionId } = await databases.createTransaction({ ttl: 60 });
      const records = Array.from({ length: BUMPED_REV - 1 }, (_, index) =>
        activityWrite(documentId, index + 2, { kind: 'note', data: {} }, someoneElse, Date.now()),
      );
      await databases.createOperations({
        transactionId,
        operations: [
          {
            action: 'update',
            collectionId: COLLECTIONS.orders,
            documentId,
            data: { rev: BUMPED_REV, updatedByName: someoneElse.name },
          },
          ...records,
        ].map((write) => ({ ...write, databaseId: DATABASE_ID })),
      });
      await databases.updateTransaction({ transactionId, commit: true });
    }
    const stats = await simulator.run(40, 2);

    expect(stats.errors).toBe(0);
    expect(stats.conflicts).toBeGreaterThan(0);
    const { documents } = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.equal('$id', ids)],
    });
    const revs = documents.map((document) => (document as unknown as { rev: number }).rev);
    expect(revs).toHaveLength(OPEN_ORDERS);
    expect(Math.min(...revs)).toBeGreaterThanOrEqual(BUMPED_REV);
    // Some of them were changed again by the simulator afterwards, from the newer rev.
    expect(Math.max(...revs)).toBeGreaterThan(BUMPED_REV);
  });
});

/** An order id that the demo leaves to people (`true`) or not. */
function idLeftForPeople(wanted: boolean): string {
  for (;;) {
    const id = ID.unique();
    if (leftForPeople(id) === wanted) return id;
  }
}

/** Creates a paid order `id` (number `number`), held by `holder` or by nobody. */
async function paidOrder(
  databases: Databases,
  id: string,
  number: number,
  holder: { id: string; name: string } | null,
): Promise<void> {
  const now = Date.now();
  const {
    $id: _id,
    $createdAt: _c,
    $updatedAt: _u,
    ...order
  } = generateOrder({
    number,
    createdAt: now - 60_000,
    now,
    products: DEMO_PRODUCTS,
    staff: SIMULATED_STAFF,
    random: new Random(number),
  });
  await databases.createDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: id,
    data: {
      ...order,
      status: 'paid',
      paymentStatus: 'succeeded',
      paidAt: new Date(now - 30_000).toISOString(),
      startedAt: null,
      readyAt: null,
      fulfilledAt: null,
      canceledAt: null,
      refundedCents: 0,
      assigneeId: holder?.id ?? null,
      assigneeName: holder?.name ?? null,
      rev: 1,
    },
  });
}

async function everyDocument(
  admin: Client,
  collectionId: string,
): Promise<Record<string, unknown>[]> {
  const { documents } = await new Databases(admin).listDocuments({
    databaseId: DATABASE_ID,
    collectionId,
    queries: [Query.limit(5000)],
  });
  return documents as unknown as Record<string, unknown>[];
}

describe('simulator in demo mode (npm start)', () => {
  it('acts as its own simulated staff and leaves alone what people hold, have open or are left', async (context) => {
    await using started = await startOwnBackend();
    if (!started)
      return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const admin = serverClient(started);
    await new Provisioner(admin).apply({ ...schema, functions: [] });
    const seeder = new Seeder(admin);
    await seeder.ensureAccounts();
    await seeder.ensureSimulatedStaff();
    const databases = new Databases(admin);
    const [ana, marco] = ['demo-ana', 'demo-manager'].map((id) =>
      DEMO_ACCOUNTS.find((account) => account.id === id)!,
    );

    // Held by people, opened by a person, left for people, and free for the simulated staff.
    const held = [idLeftForPeople(false), idLeftForPeople(false)];
    const opened = idLeftForPeople(false);
    const left = [idLeftForPeople(true), idLeftForPeople(true)];
    const free = Array.from({ length: 6 }, () => idLeftForPeople(false));
    let number = 1000;
    await paidOrder(databases, held[0]!, ++number, ana!);
    await paidOrder(databases, held[1]!, ++number, marco!);
    for (const id of [opened, ...left, ...free]) await paidOrder(databases, id, ++number, null);
    // Marco has `opened` open in his drawer, as the desk announces it.
    await new Presences(admin).upsert({
      presenceId: ID.unique(),
      userId: marco!.id,
      status: 'viewing',
      metadata: { orderId: opened, name: marco!.name },
    });

    const simulator = new Simulator(admin, 11, 'demo');
    await simulator.prepare();
    // Traffic until every kind has happened (a few seconds; longer on a loaded machine, bounded).
    const enough = (s: SimulationStats) =>
      s.events > 20 && s.byKind.claim + s.byKind.advance > 0 && s.byKind['new-order'] > 0;
    let stats = await simulator.run(30, 3);
    for (let round = 1; round < 10 && !enough(stats); round++) stats = await simulator.run(30, 3);
    expect(stats.errors).toBe(0);
    expect(stats.events).toBeGreaterThan(20);
    expect(stats.byKind.claim + stats.byKind.advance).toBeGreaterThan(0);

    const orders = await everyDocument(admin, COLLECTIONS.orders);
    const byId = new Map(orders.map((order) => [order.$id as string, order]));
    for (const id of [...held, opened, ...left])
      expect(byId.get(id), `order ${id}`).toMatchObject({ rev: 1, status: 'paid' });
    expect(byId.get(held[0]!)).toMatchObject({ assigneeId: ana!.id });
    // Everything it changed is held by its own staff, named as simulated (or by nobody: an
    // order it only added notes to; the notes and records are checked below).
    const simulatedIds = new Set(SIMULATED_STAFF.map((member) => member.id));
    const changed = orders.filter((order) => (order.rev as number) > 1);
    expect(changed.length).toBeGreaterThan(0);
    for (const order of changed.filter((o) => o.assigneeId !== null)) {
      expect(simulatedIds.has(order.assigneeId as string), `${order.$id as string}`).toBe(true);
      expect(order.assigneeName).toMatch(/\(simulated\)$/);
    }
    // The new orders it left to people wait, unclaimed.
    const created = orders.filter((order) => (order.number as number) > number);
    expect(created.length).toBeGreaterThan(0);
    for (const order of created.filter((o) => leftForPeople(o.$id as string)))
      expect(order).toMatchObject({ status: 'paid', assigneeId: null, rev: 1 });
    // No note or activity in a person's name, none on what people hold, have open or are left.
    const untouchable = new Set([...held, opened, ...left]);
    const people = new Set(DEMO_ACCOUNTS.map((account) => account.id));
    for (const note of await everyDocument(admin, COLLECTIONS.notes)) {
      expect(simulatedIds.has(note.authorId as string)).toBe(true);
      expect(untouchable.has(note.orderId as string)).toBe(false);
    }
    for (const entry of await everyDocument(admin, COLLECTIONS.activity)) {
      expect(people.has(entry.actorId as string)).toBe(false);
      expect(untouchable.has(entry.orderId as string)).toBe(false);
    }
  });
});

/**
 * What the simulator writes keeps the invariants the repairer checks (domain/order-invariants.ts):
 * every revision has its record `<orderId>.r<rev>`, counts equal what they count. Otherwise
 * `repair-orders` would write "Livedesk corrected the order’s counts" entries on simulated orders
 * under `npm start`.
 */
describe('simulator and the repairer', () => {
  it('leaves no drift: the invariant checker and repair-orders find nothing', async (context) => {
    await using started = await startOwnBackend();
    if (!started)
      return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const admin = serverClient(started);
    await new Provisioner(admin).apply({ ...schema, functions: [] });
    const seeder = new Seeder(admin);
    await seeder.ensureCatalog();
    await seeder.ensureAccounts();
    await seeder.ensureSimulatedStaff();
    // Over 30 days: every seeded order, however old, comes with its whole history.
    await seeder.seedOrders(24, { staff: SIMULATED_STAFF, days: 30 });
    const since = Date.now() - 1000;

    // Both modes: `npm run simulate` (every open order) and `npm start` (beside people).
    const fullSimulator = new Simulator(admin, 5);
    await fullSimulator.prepare();
    const fullStats = await fullSimulator.run(40, 3);
    const demoSimulator = new Simulator(admin, 6, 'demo');
    await demoSimulator.prepare();
    const demoStats = await demoSimulator.run(30, 2);
    expect(fullStats.errors + demoStats.errors).toBe(0);
    for (const kind of ['new-order', 'claim', 'advance', 'note'] as const)
      expect(fullStats.byKind[kind], kind).toBeGreaterThan(0);

    const orders = (await everyDocument(admin, COLLECTIONS.orders)) as unknown as OrderDocument[];
    const drift = await auditOrders(admin, orders);
    const repairer = await repairSince(admin, since, {
      repair: false,
      untilMs: Date.now() + 1000,
    });
    console.log(
      `[simulator] ${fullStats.events + demoStats.events} events on ${orders.length} orders; drift ${drift.length}; repair-orders checked ${repairer.checked}, found ${repairer.drift.length}`,
    );
    expect(drift.map(describeDrift)).toEqual([]);
    expect(repairer.checked).toBeGreaterThan(0);
    expect(repairer.drift.map(describeDrift)).toEqual([]);
    // No activity record outside the `<orderId>.r<rev>` scheme.
    for (const entry of await everyDocument(admin, COLLECTIONS.activity))
      expect(entry.$id as string).toMatch(/\.r\d+$/);
  }, 120_000);
});
