import { Databases, ID, Query } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PRODUCTS } from '../../scripts/lib/demo-data.ts';
import { generateOrder } from '../../scripts/lib/order-generator.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Random } from '../../scripts/lib/random.ts';
import { Simulator } from '../../scripts/lib/simulator.ts';
import { schema } from '../../scripts/schema.ts';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import { backend, serverClient } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';

const OPEN_ORDERS = 8;
const BUMPED_REV = 50;

/**
 * The simulator shares the backend with the desk: people act on orders and `on-note` counts
 * notes, both moving an order's `rev` on behind the simulator's back. Its writes must never put
 * an older `rev` over a newer one (every desk would ignore them). A backend of the test's own,
 * since the simulator works on every open order it finds.
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
    // Someone else changes every order after the simulator has read it.
    for (const documentId of ids)
      await databases.updateDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId,
        data: { rev: BUMPED_REV, updatedByName: 'Someone else' },
      });
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
