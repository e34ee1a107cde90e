import { Databases, Query } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Simulator } from '../../scripts/lib/simulator.ts';
import { schema } from '../../scripts/schema.ts';
import { backend, serverClient } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { activityOf, backendDouble, createProducts } from '../support/payments.ts';

// `npm run simulate -- --checkout` on a backend of its own: every new order comes from a
// customer through checkout, the Stripe double and the webhook, and the simulated staff work it.

describe('simulator in checkout mode (npm run simulate -- --checkout)', () => {
  it('places every new order through checkout, Stripe and the webhook, none lost or doubled', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const admin = serverClient(own);
    await new Provisioner(admin, () => {}, { env: {} }).apply(schema);
    await createProducts([250, 380, 400, 950], own);
    const simulator = new Simulator(admin, 11, 'full', { checkout: true });
    await simulator.prepare();
    const stats = await simulator.run(8, 4);
    expect(stats.errors).toBe(0);
    expect(stats.byKind['new-order']).toBeGreaterThanOrEqual(5);

    const { documents, total } = await new Databases(admin).listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.limit(1000)],
    });
    const orders = documents as unknown as OrderDocument[];
    expect(total).toBe(stats.byKind['new-order']);
    expect(new Set(orders.map((order) => order.number)).size).toBe(total);
    const double = await backendDouble(own);
    for (const order of orders) {
      expect(['paid', 'preparing', 'ready', 'fulfilled']).toContain(order.status);
      expect(order).toMatchObject({ paymentStatus: 'succeeded', cardLast4: '4242' });
      expect(order.customerId).toBeTruthy();
      const intent = await double.stripe.paymentIntents.retrieve(order.paymentIntentId!);
      expect([intent.status, intent.amount, intent.metadata.orderId]).toEqual([
        'succeeded',
        order.totalCents,
        order.$id,
      ]);
      const kinds = (await activityOf(order.$id, own)).map((record) => record.kind);
      expect(kinds[0]).toBe('created');
      expect(kinds.filter((kind) => kind === 'paid')).toHaveLength(1);
    }
  });
});
