import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_STRIPE, stripeServerSettings } from '../../domain/stripe-config.ts';
import { paymentEventFromStripe } from '../../domain/stripe-webhook.ts';

// The contract between Livedesk's functions and Stripe: every call checkout, stripe-webhook,
// order-action and provisioning make, made as they make it, against Stripe in test mode
// (`npm test` stage `stripe`, run only when STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and
// VITE_STRIPE_PUBLISHABLE_KEY are set; counted as not run otherwise). Pointed at the local
// double instead (STRIPE_API_URL, no key), it checks that the double keeps the same contract.

let stripe: Stripe;
let publishableKey: string;
let browserBase: string;
let webhookSecret: string;

beforeAll(() => {
  const settings = stripeServerSettings(process.env);
  stripe = new Stripe(settings.secretKey, { ...(settings.sdkOptions ?? {}), maxNetworkRetries: 2 });
  webhookSecret = settings.webhookSecret;
  publishableKey =
    settings.mode === 'stripe'
      ? (process.env.VITE_STRIPE_PUBLISHABLE_KEY ?? '')
      : LOCAL_STRIPE.publishableKey;
  if (!publishableKey) throw new Error('VITE_STRIPE_PUBLISHABLE_KEY must be set with Stripe');
  browserBase = settings.mode === 'stripe' ? 'https://api.stripe.com' : process.env.STRIPE_API_URL!;
});

/** Stripe lists an event a moment after it happened: asks again for up to 30 s. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** What checkout does: a PaymentIntent keyed by the order id, the order id in its metadata. */
function createIntent(orderId: string, amount = 1080) {
  return stripe.paymentIntents.create(
    {
      amount,
      currency: 'eur',
      metadata: { orderId },
      automatic_payment_methods: { enabled: true },
    },
    { idempotencyKey: orderId },
  );
}

/** What the shop's Stripe.js does: confirm with the publishable key and the client secret. */
async function confirmAsBrowser(clientSecret: string, paymentMethod: string) {
  const intentId = clientSecret.split('_secret_')[0]!;
  const response = await fetch(`${browserBase}/v1/payment_intents/${intentId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      key: publishableKey,
      client_secret: clientSecret,
      payment_method: paymentMethod,
      return_url: 'https://livedesk.example/track',
    }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { status?: string; error?: Record<string, unknown> },
  };
}

describe('the functions’ contract with Stripe', () => {
  it('checkout: the order id as idempotency key replays the PaymentIntent; other parameters are refused', async () => {
    const orderId = `contract-${randomUUID()}`;
    const first = await createIntent(orderId);
    const again = await createIntent(orderId);
    expect(again.id).toBe(first.id);
    expect(again.client_secret).toBe(first.client_secret);
    expect(first).toMatchObject({ amount: 1080, currency: 'eur', metadata: { orderId } });
    await expect(createIntent(orderId, 999)).rejects.toBeInstanceOf(
      Stripe.errors.StripeIdempotencyError,
    );
  });

  it('a card confirmed in the browser pays; the webhook reads the events and the card as it expects', async () => {
    const orderId = `contract-${randomUUID()}`;
    const intent = await createIntent(orderId);
    const declined = await confirmAsBrowser(intent.client_secret!, 'pm_card_visa_chargeDeclined');
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      code: 'card_declined',
      decline_code: 'generic_decline',
    });
    const paid = await confirmAsBrowser(intent.client_secret!, 'pm_card_visa');
    expect([paid.status, paid.body.status]).toEqual([200, 'succeeded']);

    const expanded = await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] });
    const charge = expanded.latest_charge as Stripe.Charge;
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242' });

    const mine = await eventually(
      async () =>
        (
          await stripe.events.list({
            types: ['payment_intent.succeeded', 'payment_intent.payment_failed'],
            limit: 20,
          })
        ).data.filter((event) => (event.data.object as Stripe.PaymentIntent).id === intent.id),
      (found) => found.length >= 2,
    );
    const read = mine.map((event) => paymentEventFromStripe(event));
    expect(read).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'payment_intent.succeeded',
          orderId,
          paymentIntentId: intent.id,
          amountCents: 1080,
        }),
        expect.objectContaining({
          type: 'payment_intent.payment_failed',
          orderId,
          failureCode: 'generic_decline',
        }),
      ]),
    );
  });

  it('order-action: refunds keyed by revision, partial then the rest; more than what is left is refused', async () => {
    const orderId = `contract-${randomUUID()}`;
    const intent = await createIntent(orderId);
    await confirmAsBrowser(intent.client_secret!, 'pm_card_visa');
    const refund = (amount: number, rev: number) =>
      stripe.refunds.create(
        { payment_intent: intent.id, amount, metadata: { orderId, rev: String(rev) } },
        { idempotencyKey: `refund:${orderId}:${rev}` },
      );
    const part = await refund(300, 1);
    expect((await refund(300, 1)).id).toBe(part.id);
    await expect(refund(781, 2)).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await refund(780, 3);
    const charge = (await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] }))
      .latest_charge as Stripe.Charge;
    expect(charge.amount_refunded).toBe(1080);
    const totals = await eventually(
      async () =>
        (await stripe.events.list({ type: 'charge.refunded', limit: 20 })).data
          .map((event) => paymentEventFromStripe(event))
          .filter((event) => event?.paymentIntentId === intent.id)
          .map((event) => (event as { refundedCents: number }).refundedCents),
      (found) => found.length >= 2,
    );
    expect(totals.sort((a, b) => a - b)).toEqual([300, 1080]);
  });

  it('stripe-webhook: a signature made with the endpoint secret verifies; another does not', () => {
    const payload = JSON.stringify({ id: 'evt_contract', object: 'event', type: 'ping' });
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    expect(stripe.webhooks.constructEvent(payload, header, webhookSecret).id).toBe('evt_contract');
    expect(() => stripe.webhooks.constructEvent(payload, header, `${webhookSecret}x`)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('provisioning: a webhook endpoint for the function’s URL, with its secret once, then deleted', async () => {
    const endpoint = await stripe.webhookEndpoints.create({
      url: 'https://livedesk.example/_functions/stripe-webhook/',
      enabled_events: ['payment_intent.succeeded', 'charge.refunded'],
      metadata: { livedesk_project: 'contract', livedesk_function: 'stripe-webhook' },
    });
    try {
      expect(endpoint.secret).toMatch(/^whsec_/);
      const listed = await stripe.webhookEndpoints.list({ limit: 100 });
      expect(listed.data.find((item) => item.id === endpoint.id)?.metadata).toEqual({
        livedesk_project: 'contract',
        livedesk_function: 'stripe-webhook',
      });
    } finally {
      await stripe.webhookEndpoints.del(endpoint.id);
    }
  });
});
