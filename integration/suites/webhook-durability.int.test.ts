import { describe, expect, it } from 'vitest';
import { CheckoutCustomers } from '../../scripts/lib/checkout-customers.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Random } from '../../scripts/lib/random.ts';
import { schema } from '../../scripts/schema.ts';
import { backend, serverClient } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import {
  activityOf,
  backendDouble,
  createProducts,
  orderUntil,
  readOrderDocument,
  webhookEndpointId,
} from '../support/payments.ts';

// The Stripe double keeps its webhook delivery queue in its SQLite file, written before the API
// call that caused an event is answered: a kill -9 of the local backend between a payment and
// its (late) webhook loses nothing — after the restart the delivery is made and the order paid.

describe('webhook deliveries across kill -9 of the backend', () => {
  it('a payment whose webhook was still pending at the crash marks its order paid after the restart, once', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    await new Provisioner(serverClient(own), () => {}).apply(schema);
    await createProducts([400, 950], own);
    const endpointId = await webhookEndpointId(own);
    // Late deliveries: a window of 4 s between the payment and its webhook.
    await (
      await backendDouble(own)
    ).control('POST', `/webhook_endpoints/${endpointId}/switches`, { delayMs: '4000' });
    const customers = new CheckoutCustomers(own, {});
    await customers.prepare();
    const paid = await customers.placeAndPay(new Random(17));
    const orderId = paid.answer.orderId;
    // Stripe has taken the payment; the desk has not heard of it yet.
    expect((await readOrderDocument(orderId, own)).status).toBe('pending_payment');

    await own.crashAndRestart();

    const order = await orderUntil(orderId, (o) => o.status === 'paid', 'paid', own);
    expect(order).toMatchObject({ paymentStatus: 'succeeded', cardLast4: '4242' });
    const double = await backendDouble(own);
    const succeededDeliveries = async () =>
      (
        (await double.control('GET', `/webhook_endpoints/${endpointId}/deliveries`)) as {
          attempts: { type: string; status: number }[];
        }
      ).attempts.filter((a) => a.type === 'payment_intent.succeeded');
    // Made by the restarted backend, from the queue the killed one left. The double logs an
    // attempt once the webhook's answer is back, which can come after the order is written.
    await expect
      .poll(succeededDeliveries, { timeout: 30_000, interval: 250 })
      .toContainEqual(expect.objectContaining({ status: 200 }));
    // Let every delivery of the queue land, then count the records.
    await expect
      .poll(
        async () =>
          (await double.stripe.events.list({ limit: 20 })).data.filter(
            (event) => event.pending_webhooks > 0,
          ).length,
        { timeout: 30_000, interval: 250 },
      )
      .toBe(0);
    const activity = await activityOf(orderId, own);
    expect(activity.filter((record) => record.kind === 'paid')).toHaveLength(1);
    expect((await readOrderDocument(orderId, own)).rev).toBe(order.rev);
  }, 180_000);
});
