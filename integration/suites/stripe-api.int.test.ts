import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LOCAL_KEYS } from '../../emulator/stripe/index.ts';
import {
  CHARGE_KEYS,
  EVENT_KEYS,
  PAYMENT_INTENT_KEYS,
  REFUND_KEYS,
  shapeProblems,
  startDouble,
  stripeClient,
  type DoubleUnderTest,
} from '../support/stripe.ts';

// The official `stripe` SDK against the local API double, through the SDK's own host, port and
// protocol options. Each test starts a double of its own (fresh state, free port).

async function newIntent(
  t: DoubleUnderTest,
  params: Partial<Stripe.PaymentIntentCreateParams> = {},
): Promise<Stripe.PaymentIntent> {
  return t.stripe.paymentIntents.create({
    amount: 1250,
    currency: 'eur',
    metadata: { orderId: 'order-1' },
    automatic_payment_methods: { enabled: true },
    ...params,
  });
}

async function cardError(work: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof Stripe.errors.StripeError))
    throw new Error(`expected a StripeError, got ${String(error)}`);
  return error;
}

const DECLINES: {
  method: string;
  number: string;
  code: string;
  declineCode?: string;
  message: string;
}[] = [
  {
    method: 'pm_card_visa_chargeDeclined',
    number: '4000000000000002',
    code: 'card_declined',
    declineCode: 'generic_decline',
    message: 'Your card was declined.',
  },
  {
    method: 'pm_card_visa_chargeDeclinedInsufficientFunds',
    number: '4000000000009995',
    code: 'card_declined',
    declineCode: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  {
    method: 'pm_card_visa_chargeDeclinedLostCard',
    number: '4000000000009987',
    code: 'card_declined',
    declineCode: 'lost_card',
    message: 'Your card was declined.',
  },
  {
    method: 'pm_card_visa_chargeDeclinedStolenCard',
    number: '4000000000009979',
    code: 'card_declined',
    declineCode: 'stolen_card',
    message: 'Your card was declined.',
  },
  {
    method: 'pm_card_chargeDeclinedExpiredCard',
    number: '4000000000000069',
    code: 'expired_card',
    declineCode: 'expired_card',
    message: 'Your card has expired.',
  },
  {
    method: 'pm_card_chargeDeclinedIncorrectCvc',
    number: '4000000000000127',
    code: 'incorrect_cvc',
    declineCode: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  {
    method: 'pm_card_chargeDeclinedProcessingError',
    number: '4000000000000119',
    code: 'processing_error',
    declineCode: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
];

describe('the Stripe API double: PaymentIntents and cards', () => {
  it('creates a PaymentIntent with form-encoded metadata and pays it with 4242 (pm_card_visa)', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t, { metadata: { orderId: 'o-42', note: 'a=b&c' } });
    expect(intent).toMatchObject({
      object: 'payment_intent',
      amount: 1250,
      currency: 'eur',
      status: 'requires_payment_method',
      metadata: { orderId: 'o-42', note: 'a=b&c' },
      latest_charge: null,
    });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));

    const paid = await t.stripe.paymentIntents.confirm(intent.id, {
      payment_method: 'pm_card_visa',
      expand: ['latest_charge', 'payment_method'],
    });
    expect(paid.status).toBe('succeeded');
    expect(paid.amount_received).toBe(1250);
    const charge = paid.latest_charge as Stripe.Charge;
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242' });
    expect((paid.payment_method as Stripe.PaymentMethod).card).toMatchObject({
      brand: 'visa',
      last4: '4242',
    });

    const again = await t.stripe.paymentIntents.retrieve(intent.id);
    expect(again.status).toBe('succeeded');
    expect(again.latest_charge).toBe(charge.id);
    expect((await t.stripe.charges.retrieve(charge.id)).amount_captured).toBe(1250);
  });

  it('confirms from card data as Stripe.js sends it (Mastercard, Amex)', async () => {
    await using t = await startDouble();
    for (const [number, brand] of [
      ['5555555555554444', 'mastercard'],
      ['378282246310005', 'amex'],
    ] as const) {
      const intent = await newIntent(t);
      const paid = await t.stripe.paymentIntents.confirm(intent.id, {
        payment_method_data: {
          type: 'card',
          card: { number, exp_month: 12, exp_year: 2040, cvc: '123' },
        } as unknown as Stripe.PaymentIntentConfirmParams.PaymentMethodData,
        expand: ['latest_charge'],
      });
      expect(paid.status).toBe('succeeded');
      expect((paid.latest_charge as Stripe.Charge).payment_method_details?.card).toMatchObject({
        brand,
        last4: number.slice(-4),
      });
    }
  });

  for (const decline of DECLINES) {
    it(`declines ${decline.method} and ${decline.number} with ${decline.declineCode ?? decline.code}`, async () => {
      await using t = await startDouble();
      for (const confirm of [
        { payment_method: decline.method },
        {
          payment_method_data: {
            type: 'card',
            card: { number: decline.number, exp_month: 1, exp_year: 2041, cvc: '314' },
          } as unknown as Stripe.PaymentIntentConfirmParams.PaymentMethodData,
        },
      ]) {
        const intent = await newIntent(t);
        const error = await cardError(t.stripe.paymentIntents.confirm(intent.id, confirm));
        expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
        expect(error.statusCode).toBe(402);
        expect(error.type).toBe('StripeCardError');
        expect(error.code).toBe(decline.code);
        expect(error.decline_code).toBe(decline.declineCode);
        expect(error.message).toBe(decline.message);
        expect(error.payment_intent).toMatchObject({
          id: intent.id,
          status: 'requires_payment_method',
          last_payment_error: { type: 'card_error', code: decline.code, message: decline.message },
        });
        const after = await t.stripe.paymentIntents.retrieve(intent.id, {
          expand: ['latest_charge'],
        });
        expect(after.status).toBe('requires_payment_method');
        expect(after.last_payment_error?.decline_code).toBe(decline.declineCode);
        expect((after.latest_charge as Stripe.Charge).status).toBe('failed');
      }
    });
  }

  it('refuses a number that fails the Luhn check and a live card, and an expired date', async () => {
    await using t = await startDouble();
    const cases = [
      { number: '4242424242424241', exp_year: 2040, code: 'incorrect_number' },
      { number: '4111111111111111', exp_year: 2040, code: 'card_declined' },
      { number: '4242424242424242', exp_year: 2001, code: 'invalid_expiry_year' },
    ];
    for (const { number, exp_year, code } of cases) {
      const intent = await newIntent(t);
      const error = await cardError(
        t.stripe.paymentIntents.confirm(intent.id, {
          payment_method_data: {
            type: 'card',
            card: { number, exp_month: 3, exp_year, cvc: '123' },
          } as unknown as Stripe.PaymentIntentConfirmParams.PaymentMethodData,
        }),
      );
      expect(error.code).toBe(code);
    }
  });

  it('retries a declined PaymentIntent with a good card (a decline is not final)', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t);
    await cardError(
      t.stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa_chargeDeclined' }),
    );
    const paid = await t.stripe.paymentIntents.confirm(intent.id, {
      payment_method: 'pm_card_visa',
    });
    expect(paid.status).toBe('succeeded');
    expect(paid.last_payment_error).toBeNull();
  });

  it('asks for 3-D Secure and pays once it is approved, or fails it', async () => {
    await using t = await startDouble();
    for (const method of ['pm_card_authenticationRequired', 'pm_card_threeDSecure2Required']) {
      const approved = await newIntent(t);
      const pending = await t.stripe.paymentIntents.confirm(approved.id, {
        payment_method: method,
      });
      expect(pending.status).toBe('requires_action');
      expect(pending.next_action?.type).toBe('use_stripe_sdk');
      const done = (await t.control('POST', `/payment_intents/${approved.id}/authenticate`, {
        result: 'approve',
      })) as Stripe.PaymentIntent;
      expect(done.status).toBe('succeeded');
      const charge = await t.stripe.charges.retrieve(String(done.latest_charge));
      expect(charge.payment_method_details?.card?.three_d_secure?.result).toBe('authenticated');

      const failed = await newIntent(t);
      await t.stripe.paymentIntents.confirm(failed.id, { payment_method: method });
      const refused = (await t.control('POST', `/payment_intents/${failed.id}/authenticate`, {
        result: 'fail',
      })) as Stripe.PaymentIntent;
      expect(refused.status).toBe('requires_payment_method');
      expect(refused.last_payment_error).toMatchObject({
        code: 'payment_intent_authentication_failure',
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      });
    }
  });

  it('declines the 3-D Secure card with insufficient funds after authentication', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t);
    const pending = await t.stripe.paymentIntents.confirm(intent.id, {
      payment_method: 'pm_card_authenticationRequiredChargeDeclinedInsufficientFunds',
    });
    expect(pending.status).toBe('requires_action');
    await expect(
      t.control('POST', `/payment_intents/${intent.id}/authenticate`, { result: 'approve' }),
    ).rejects.toThrow(/insufficient_funds/);
    const after = await t.stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error?.decline_code).toBe('insufficient_funds');
  });

  it('updates amount and metadata (an empty value removes a key) until the intent is paid', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t, { metadata: { orderId: 'o1', keep: 'yes' } });
    const updated = await t.stripe.paymentIntents.update(intent.id, {
      amount: 2000,
      metadata: { keep: '', extra: 'x' },
    });
    expect(updated.amount).toBe(2000);
    expect(updated.metadata).toEqual({ orderId: 'o1', extra: 'x' });
    await t.stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const error = await cardError(t.stripe.paymentIntents.update(intent.id, { amount: 3000 }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error.code).toBe('payment_intent_unexpected_state');
    expect((await t.stripe.paymentIntents.retrieve(intent.id)).amount).toBe(2000);
  });

  it('cancels an unpaid intent, and refuses to cancel or confirm a finished one', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t);
    const canceled = await t.stripe.paymentIntents.cancel(intent.id, {
      cancellation_reason: 'abandoned',
    });
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect(canceled.canceled_at).toEqual(expect.any(Number));
    const confirmError = await cardError(
      t.stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' }),
    );
    expect(confirmError.code).toBe('payment_intent_unexpected_state');

    const paid = await newIntent(t);
    await t.stripe.paymentIntents.confirm(paid.id, { payment_method: 'pm_card_visa' });
    const cancelError = await cardError(t.stripe.paymentIntents.cancel(paid.id));
    expect(cancelError.code).toBe('payment_intent_unexpected_state');
    expect(cancelError.message).toContain('status of succeeded');
    const twice = await cardError(
      t.stripe.paymentIntents.confirm(paid.id, { payment_method: 'pm_card_visa' }),
    );
    expect(twice.message).toContain('already succeeded');
  });

  it('goes through processing with the double-only processing card', async () => {
    await using t = await startDouble({ processingMs: 200 });
    const intent = await newIntent(t);
    const processing = await t.stripe.paymentIntents.confirm(intent.id, {
      payment_method: 'pm_card_double_processing',
    });
    expect(processing.status).toBe('processing');
    await expect
      .poll(async () => (await t.stripe.paymentIntents.retrieve(intent.id)).status, {
        timeout: 10_000,
      })
      .toBe('succeeded');
  });
});

describe('the Stripe API double: requests, errors and keys', () => {
  it('answers missing, unknown and invalid parameters and unknown ids as Stripe does', async () => {
    await using t = await startDouble();
    const missing = await cardError(
      t.stripe.paymentIntents.create({ currency: 'eur' } as Stripe.PaymentIntentCreateParams),
    );
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({
      code: 'parameter_missing',
      param: 'amount',
      message: 'Missing required param: amount.',
    });
    const unknown = await cardError(
      t.stripe.paymentIntents.create({
        amount: 1000,
        currency: 'eur',
        colour: 'blue',
      } as Stripe.PaymentIntentCreateParams),
    );
    expect(unknown).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
    const small = await cardError(t.stripe.paymentIntents.create({ amount: 10, currency: 'eur' }));
    expect(small).toMatchObject({ code: 'amount_too_small', param: 'amount' });
    const none = await cardError(t.stripe.paymentIntents.retrieve('pi_doesnotexist'));
    expect(none.statusCode).toBe(404);
    expect(none).toMatchObject({
      code: 'resource_missing',
      message: "No such payment_intent: 'pi_doesnotexist'",
    });
  });

  it('accepts its secret key as Bearer or Basic, and refuses others and the publishable key', async () => {
    await using t = await startDouble();
    const bearer = await fetch(`${t.double.url}/v1/events`, {
      headers: { authorization: `Bearer ${LOCAL_KEYS.secretKey}` },
    });
    expect(bearer.status).toBe(200);
    const basic = await fetch(`${t.double.url}/v1/events`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${LOCAL_KEYS.secretKey}:`).toString('base64')}`,
      },
    });
    expect(basic.status).toBe(200);
    const wrong = await cardError(
      stripeClient(t.double, 'sk_test_somebodyelse1234').paymentIntents.create({
        amount: 1000,
        currency: 'eur',
      }),
    );
    expect(wrong).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(wrong.message).toBe('Invalid API Key provided: sk_test_************1234');
    const publishable = await cardError(
      stripeClient(t.double, LOCAL_KEYS.publishableKey).paymentIntents.create({
        amount: 1000,
        currency: 'eur',
      }),
    );
    expect(publishable).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const none = await fetch(`${t.double.url}/v1/events`);
    expect(none.status).toBe(401);
  });

  it('lets the publishable key read and confirm an intent only with its client secret', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t);
    const base = `${t.double.url}/v1/payment_intents/${intent.id}`;
    const key = LOCAL_KEYS.publishableKey;
    const good = await fetch(`${base}?key=${key}&client_secret=${intent.client_secret}`);
    expect(good.status).toBe(200);
    const bad = await fetch(`${base}?key=${key}&client_secret=${intent.id}_secret_wrong`);
    expect(bad.status).toBe(400);
    const without = await fetch(`${base}?key=${key}`);
    expect(without.status).toBe(400);
  });

  it('replays the first response of an idempotency key and refuses it with other parameters', async () => {
    await using t = await startDouble();
    const params = { amount: 1250, currency: 'eur', metadata: { orderId: 'o-7' } };
    const first = await t.stripe.paymentIntents.create(params, { idempotencyKey: 'order:o-7' });
    const replay = await t.stripe.paymentIntents.create(params, { idempotencyKey: 'order:o-7' });
    expect(replay.id).toBe(first.id);
    expect(replay.lastResponse.headers['idempotent-replayed']).toBe('true');
    const conflict = await cardError(
      t.stripe.paymentIntents.create({ ...params, amount: 9999 }, { idempotencyKey: 'order:o-7' }),
    );
    expect(conflict).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(conflict.message).toContain(
      'Keys for idempotent requests can only be used with the same parameters they were first used with.',
    );
    const created = await t.stripe.events.list({ type: 'payment_intent.created' });
    expect(created.data).toHaveLength(1);
  });

  it('replays a decline under the same key without charging again, but not a refused parameter', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t);
    const confirm = () =>
      t.stripe.paymentIntents.confirm(
        intent.id,
        { payment_method: 'pm_card_visa_chargeDeclined' },
        { idempotencyKey: 'confirm-1' },
      );
    const first = await cardError(confirm());
    const second = await cardError(confirm());
    expect(second.code).toBe(first.code);
    expect(second.headers?.['idempotent-replayed']).toBe('true');
    expect(
      (await t.stripe.events.list({ type: 'payment_intent.payment_failed' })).data,
    ).toHaveLength(1);

    // Refused while validating: not saved, so the key still works with corrected parameters.
    const refused = await cardError(
      t.stripe.paymentIntents.create({ currency: 'eur' } as Stripe.PaymentIntentCreateParams, {
        idempotencyKey: 'create-2',
      }),
    );
    expect(refused.code).toBe('parameter_missing');
    const created = await t.stripe.paymentIntents.create(
      { amount: 700, currency: 'eur' },
      { idempotencyKey: 'create-2' },
    );
    expect(created.amount).toBe(700);
  });

  it('keeps intents and idempotency keys across a restart (state in stripe.sqlite)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'livedesk-stripe-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startDouble({ dataDir });
    const intent = await first.stripe.paymentIntents.create(
      { amount: 1500, currency: 'eur' },
      { idempotencyKey: 'restart-1' },
    );
    await first.stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    await first[Symbol.asyncDispose]();
    await using second = await startDouble({ dataDir });
    const after = await second.stripe.paymentIntents.retrieve(intent.id);
    expect(after.status).toBe('succeeded');
    const replay = await second.stripe.paymentIntents.create(
      { amount: 1500, currency: 'eur' },
      { idempotencyKey: 'restart-1' },
    );
    expect(replay.id).toBe(intent.id);
  });
});

describe('the Stripe API double: refunds and events', () => {
  it('refunds part and then the rest, and refuses more than what is left', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t, { amount: 2000 });
    await t.stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const part = await t.stripe.refunds.create({
      payment_intent: intent.id,
      amount: 500,
      reason: 'requested_by_customer',
    });
    expect(part).toMatchObject({ object: 'refund', amount: 500, status: 'succeeded' });
    expect(part.payment_intent).toBe(intent.id);

    const over = await cardError(
      t.stripe.refunds.create({ payment_intent: intent.id, amount: 1501 }),
    );
    expect(over).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(over).toMatchObject({ code: 'amount_too_large', param: 'amount' });
    expect(over.message).toBe(
      'Refund amount (€15.01 eur) is greater than unrefunded amount on charge (€15.00 eur)',
    );

    const rest = await t.stripe.refunds.create({ payment_intent: intent.id });
    expect(rest.amount).toBe(1500);
    const charge = await t.stripe.charges.retrieve(String(part.charge));
    expect(charge).toMatchObject({ amount_refunded: 2000, refunded: true });
    const again = await cardError(
      t.stripe.refunds.create({ payment_intent: intent.id, amount: 1 }),
    );
    expect(again.code).toBe('charge_already_refunded');

    const listed = await t.stripe.refunds.list({ payment_intent: intent.id });
    expect(listed.data.map((r) => r.amount)).toEqual([1500, 500]);
    expect((await t.stripe.refunds.retrieve(part.id)).amount).toBe(500);
    const events = await t.stripe.events.list({ type: 'charge.refunded' });
    expect(events.data.map((e) => (e.data.object as Stripe.Charge).amount_refunded)).toEqual([
      2000, 500,
    ]);
  });

  it('refuses to refund an intent that has not succeeded', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t);
    const error = await cardError(t.stripe.refunds.create({ payment_intent: intent.id }));
    expect(error.code).toBe('charge_not_refundable');
    expect((await t.stripe.refunds.list({ payment_intent: intent.id })).data).toHaveLength(0);
  });

  it('records an event per change, listed newest first, filtered by type, with cursors', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t);
    await cardError(
      t.stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa_chargeDeclined' }),
    );
    await t.stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const all = await t.stripe.events.list();
    expect(all.data.map((e) => e.type)).toEqual([
      'payment_intent.succeeded',
      'payment_intent.payment_failed',
      'payment_intent.created',
    ]);
    const page = await t.stripe.events.list({ limit: 1, starting_after: all.data[0]!.id });
    expect(page.data.map((e) => e.id)).toEqual([all.data[1]!.id]);
    expect(page.has_more).toBe(true);
    const succeeded = await t.stripe.events.retrieve(all.data[0]!.id);
    expect(succeeded.type).toBe('payment_intent.succeeded');
    expect((succeeded.data.object as Stripe.PaymentIntent).status).toBe('succeeded');
    expect(succeeded.data.previous_attributes).toEqual({ status: 'requires_payment_method' });
    const wildcard = await t.stripe.events.list({ type: 'payment_intent.*' });
    expect(wildcard.data).toHaveLength(3);
  });

  it('answers bodies with exactly the fields of the SDK types (PaymentIntent, Charge, Refund, Event)', async () => {
    await using t = await startDouble();
    const intent = await newIntent(t);
    await t.stripe.paymentIntents.confirm(intent.id, { payment_method: 'pm_card_visa' });
    const refund = await t.stripe.refunds.create({ payment_intent: intent.id, amount: 100 });
    const raw = async (path: string) =>
      (await (
        await fetch(`${t.double.url}/v1/${path}`, {
          headers: { authorization: `Bearer ${LOCAL_KEYS.secretKey}` },
        })
      ).json()) as Record<string, unknown>;
    const paid = await raw(`payment_intents/${intent.id}`);
    expect(shapeProblems(paid, PAYMENT_INTENT_KEYS)).toEqual([]);
    expect(shapeProblems(await raw(`charges/${String(paid.latest_charge)}`), CHARGE_KEYS)).toEqual(
      [],
    );
    expect(shapeProblems(await raw(`refunds/${refund.id}`), REFUND_KEYS)).toEqual([]);
    const events = (await raw('events')).data as Record<string, unknown>[];
    for (const event of events) expect(shapeProblems(event, EVENT_KEYS)).toEqual([]);
  });
});
