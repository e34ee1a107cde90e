import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { CONFIGURED_ENDPOINT_ID, LOCAL_KEYS } from '../../emulator/stripe/index.ts';
import type { DeliveryAttempt } from '../../emulator/stripe/webhooks.ts';
import { startDouble, WebhookReceiver, type DoubleUnderTest } from '../support/stripe.ts';

// Webhook delivery of the Stripe double to a real HTTP endpoint, checked with the `stripe` SDK's
// own signature verification (stripe.webhooks.constructEvent on the raw body).

async function endpoint(
  t: DoubleUnderTest,
  receiver: WebhookReceiver,
  switches: Record<string, string> = {},
): Promise<Stripe.WebhookEndpoint> {
  const created = await t.stripe.webhookEndpoints.create({
    url: receiver.url,
    enabled_events: ['*'],
  });
  if (Object.keys(switches).length)
    await t.control('POST', `/webhook_endpoints/${created.id}/switches`, switches);
  return created;
}

async function pay(t: DoubleUnderTest, method = 'pm_card_visa'): Promise<Stripe.PaymentIntent> {
  const intent = await t.stripe.paymentIntents.create({
    amount: 1250,
    currency: 'eur',
    metadata: { orderId: 'o-1' },
  });
  return t.stripe.paymentIntents.confirm(intent.id, { payment_method: method });
}

function header(received: { headers: Record<string, unknown> }): string {
  return String(received.headers['stripe-signature']);
}

async function attempts(t: DoubleUnderTest, id: string): Promise<DeliveryAttempt[]> {
  const log = (await t.control('GET', `/webhook_endpoints/${id}/deliveries`)) as {
    attempts: DeliveryAttempt[];
  };
  return log.attempts;
}

describe('the Stripe double: webhook delivery', () => {
  it('delivers every event signed as Stripe signs, verified by stripe.webhooks.constructEvent', async () => {
    await using t = await startDouble();
    await using receiver = await WebhookReceiver.start();
    const { secret } = await endpoint(t, receiver);
    expect(secret).toMatch(/^whsec_/);
    const paid = await pay(t);
    await receiver.waitFor(2);
    expect(receiver.types()).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
    for (const delivery of receiver.received) {
      expect(header(delivery)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const event = t.stripe.webhooks.constructEvent(delivery.rawBody, header(delivery), secret!);
      const stored = await t.stripe.events.retrieve(event.id);
      expect(event.type).toBe(stored.type);
      expect((event.data.object as Stripe.PaymentIntent).id).toBe(paid.id);
    }
    const last = t.stripe.webhooks.constructEvent(
      receiver.received[1]!.rawBody,
      header(receiver.received[1]!),
      secret!,
    );
    expect((last.data.object as Stripe.PaymentIntent).metadata).toEqual({ orderId: 'o-1' });
    expect(last.request?.id).toMatch(/^req_/);
  });

  it('signatures fail for another secret, a changed body and a stale timestamp', async () => {
    await using t = await startDouble();
    await using receiver = await WebhookReceiver.start();
    const { secret } = await endpoint(t, receiver);
    await t.stripe.paymentIntents.create({ amount: 1000, currency: 'eur' });
    await receiver.waitFor(1);
    const { rawBody } = receiver.received[0]!;
    const signature = header(receiver.received[0]!);
    const fails = (body: string, sig: string, key: string, tolerance?: number) =>
      expect(() => t.stripe.webhooks.constructEvent(body, sig, key, tolerance)).toThrow(
        Stripe.errors.StripeSignatureVerificationError,
      );
    fails(rawBody, signature, 'whsec_someoneelse');
    fails(JSON.stringify(JSON.parse(rawBody)), signature, secret!);
    const stale = t.stripe.webhooks.generateTestHeaderString({
      payload: rawBody,
      secret: secret!,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    fails(rawBody, stale, secret!, 300);
  });

  it('sends refunds as charge.refunded and declines, 3-D Secure and cancels as their events', async () => {
    await using t = await startDouble();
    await using receiver = await WebhookReceiver.start();
    await endpoint(t, receiver);
    const paid = await pay(t);
    await t.stripe.refunds.create({ payment_intent: paid.id, amount: 250 });
    const declined = await t.stripe.paymentIntents.create({ amount: 900, currency: 'eur' });
    await t.stripe.paymentIntents
      .confirm(declined.id, { payment_method: 'pm_card_visa_chargeDeclined' })
      .catch(() => undefined);
    await t.stripe.paymentIntents.confirm(declined.id, {
      payment_method: 'pm_card_authenticationRequired',
    });
    await t.stripe.paymentIntents.cancel(declined.id);
    await receiver.waitFor(7);
    expect(receiver.types()).toEqual([
      'payment_intent.created',
      'payment_intent.succeeded',
      'charge.refunded',
      'payment_intent.created',
      'payment_intent.payment_failed',
      'payment_intent.requires_action',
      'payment_intent.canceled',
    ]);
    const refunded = JSON.parse(receiver.received[2]!.rawBody) as Stripe.ChargeRefundedEvent;
    expect(refunded.data.object).toMatchObject({ amount_refunded: 250, refunded: false });
    expect(refunded.data.object.payment_intent).toBe(paid.id);
  });

  it('retries after a 500 with backoff until the endpoint answers 2xx', async () => {
    await using t = await startDouble();
    await using receiver = await WebhookReceiver.start([500, 503, 200]);
    const created = await endpoint(t, receiver, { retryBaseMs: '50' });
    const event = await t.stripe.paymentIntents.create({ amount: 1000, currency: 'eur' });
    await receiver.waitFor(3);
    const log = await attempts(t, created.id);
    expect(log.map((a) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(new Set(receiver.received.map((r) => JSON.parse(r.rawBody).id)).size).toBe(1);
    // Each attempt is signed anew, and each signature verifies.
    for (const delivery of receiver.received)
      t.stripe.webhooks.constructEvent(delivery.rawBody, header(delivery), created.secret!);
    const stored = await t.stripe.events.list({ limit: 1 });
    expect(stored.data[0]!.data.object).toMatchObject({ id: event.id });
    expect(stored.data[0]!.pending_webhooks).toBe(0);
  });

  it('gives up after maxAttempts when the endpoint keeps failing (bounded)', async () => {
    await using t = await startDouble();
    await using receiver = await WebhookReceiver.start([500]);
    const created = await endpoint(t, receiver, { retryBaseMs: '20', maxAttempts: '3' });
    await t.stripe.paymentIntents.create({ amount: 1000, currency: 'eur' });
    await receiver.waitFor(3);
    // Longer than the next backoff (80 ms) would be: no fourth attempt comes.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(receiver.received).toHaveLength(3);
    expect((await attempts(t, created.id)).map((a) => a.status)).toEqual([500, 500, 500]);
    expect((await t.stripe.events.list({ limit: 1 })).data[0]!.pending_webhooks).toBe(1);
  });

  it('retries when the endpoint cannot be reached', async () => {
    await using t = await startDouble();
    const receiver = await WebhookReceiver.start();
    const url = receiver.url;
    await receiver[Symbol.asyncDispose]();
    const created = await t.stripe.webhookEndpoints.create({ url, enabled_events: ['*'] });
    await t.control('POST', `/webhook_endpoints/${created.id}/switches`, {
      retryBaseMs: '10',
      maxAttempts: '2',
    });
    await t.stripe.paymentIntents.create({ amount: 1000, currency: 'eur' });
    await expect.poll(async () => (await attempts(t, created.id)).length).toBe(2);
    expect((await attempts(t, created.id)).map((a) => a.status)).toEqual([0, 0]);
  });

  it('delivers every event twice with duplicates=2 (same event id)', async () => {
    await using t = await startDouble();
    await using receiver = await WebhookReceiver.start();
    await endpoint(t, receiver, { duplicates: '2' });
    await pay(t);
    await receiver.waitFor(4);
    const ids = receiver.received.map((r) => (JSON.parse(r.rawBody) as Stripe.Event).id);
    expect(new Set(ids).size).toBe(2);
    for (const id of new Set(ids)) expect(ids.filter((x) => x === id)).toHaveLength(2);
  });

  it('holds deliveries and sends them out of order on flush (reverse, seeded shuffle)', async () => {
    await using t = await startDouble();
    await using receiver = await WebhookReceiver.start();
    const created = await endpoint(t, receiver, { hold: 'true', order: 'reverse' });
    const paid = await pay(t);
    await t.stripe.refunds.create({ payment_intent: paid.id, amount: 100 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received).toHaveLength(0);
    expect(await t.control('POST', `/webhook_endpoints/${created.id}/flush`)).toEqual({
      flushed: 3,
    });
    await receiver.waitFor(3);
    expect(receiver.types()).toEqual([
      'charge.refunded',
      'payment_intent.succeeded',
      'payment_intent.created',
    ]);

    const shuffledOrder = async (seed: string) => {
      await using double = await startDouble();
      await using sink = await WebhookReceiver.start();
      const hooked = await endpoint(double, sink, { hold: 'true', order: 'shuffle', seed });
      for (let i = 0; i < 6; i++)
        await double.stripe.paymentIntents.create({
          amount: 1000 + i,
          currency: 'eur',
        });
      await double.control('POST', `/webhook_endpoints/${hooked.id}/flush`);
      await sink.waitFor(6);
      return sink.received.map(
        (r) =>
          (JSON.parse(r.rawBody) as { data: { object: { amount: number } } }).data.object.amount,
      );
    };
    const first = await shuffledOrder('7');
    expect([...first].sort()).toEqual([1000, 1001, 1002, 1003, 1004, 1005]);
    expect(await shuffledOrder('7')).toEqual(first);
  });

  it('delivers late with delayMs (nothing arrives before the delay)', async () => {
    await using t = await startDouble();
    await using receiver = await WebhookReceiver.start();
    await endpoint(t, receiver, { delayMs: '1500' });
    const sent = Date.now();
    await t.stripe.paymentIntents.create({ amount: 1000, currency: 'eur' });
    expect(receiver.received).toHaveLength(0);
    await receiver.waitFor(1);
    expect(receiver.received[0]!.at - sent).toBeGreaterThanOrEqual(1500);
  });

  it('keeps late, held and retrying deliveries across a restart, and makes them when due', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'livedesk-stripe-'));
    try {
      await using late = await WebhookReceiver.start();
      await using held = await WebhookReceiver.start();
      await using failing = await WebhookReceiver.start([500]);
      let ids: { late: string; held: string; failing: string };
      const sent = Date.now();
      {
        await using first = await startDouble({ dataDir });
        ids = {
          late: (await endpoint(first, late, { delayMs: '1500' })).id,
          held: (await endpoint(first, held, { hold: 'true' })).id,
          failing: (await endpoint(first, failing, { retryBaseMs: '800', maxAttempts: '3' })).id,
        };
        await pay(first);
        // Both first attempts answered and their retries queued (an attempt under way when the
        // double stops is made again after the restart).
        await expect.poll(async () => (await attempts(first, ids.failing)).length).toBe(2);
        // Stopped before the late deliveries are due, with two held and one retry pending.
        expect(late.received).toHaveLength(0);
      }
      await using second = await startDouble({ dataDir });
      await late.waitFor(2);
      expect(late.received[0]!.at - sent).toBeGreaterThanOrEqual(1500);
      expect(late.types()).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
      expect(held.received).toHaveLength(0);
      expect(await second.control('POST', `/webhook_endpoints/${ids.held}/flush`)).toEqual({
        flushed: 2,
      });
      await held.waitFor(2);
      // Attempts 1 of both events before the restart, 2 and 3 after it; then it gives up.
      await failing.waitFor(6);
      const after = await attempts(second, ids.failing);
      expect(after.map((a) => a.attempt).sort()).toEqual([2, 2, 3, 3]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(failing.received).toHaveLength(6);
      const events = await second.stripe.events.list({ limit: 10 });
      // Delivered to the late and held endpoints; the failing one still counts as pending.
      expect(events.data.map((event) => event.pending_webhooks)).toEqual([1, 1]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('delivers to the configured URL with the configured secret, and only wanted events', async () => {
    await using receiver = await WebhookReceiver.start();
    await using t = await startDouble({
      webhook: { url: receiver.url, secret: LOCAL_KEYS.webhookSecret },
    });
    await using picky = await WebhookReceiver.start();
    await t.stripe.webhookEndpoints.create({
      url: picky.url,
      enabled_events: ['payment_intent.succeeded'],
    });
    await pay(t);
    await receiver.waitFor(2);
    await picky.waitFor(1);
    const event = t.stripe.webhooks.constructEvent(
      receiver.received[1]!.rawBody,
      header(receiver.received[1]!),
      LOCAL_KEYS.webhookSecret,
    );
    expect(event.type).toBe('payment_intent.succeeded');
    expect(picky.types()).toEqual(['payment_intent.succeeded']);
    const listed = await t.stripe.webhookEndpoints.list();
    expect(listed.data.map((e) => e.id)).toContain(CONFIGURED_ENDPOINT_ID);
  });

  it('sends processing, then succeeded, for the double-only processing card', async () => {
    await using t = await startDouble({ processingMs: 100 });
    await using receiver = await WebhookReceiver.start();
    await endpoint(t, receiver);
    await pay(t, 'pm_card_double_processing');
    await receiver.waitFor(3);
    expect(receiver.types()).toEqual([
      'payment_intent.created',
      'payment_intent.processing',
      'payment_intent.succeeded',
    ]);
  });
});
