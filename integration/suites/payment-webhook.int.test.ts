import { Client, Databases, Query } from 'node-appwrite';
import type Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { CheckoutCustomers, TEST_CARDS } from '../../scripts/lib/checkout-customers.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Random } from '../../scripts/lib/random.ts';
import {
  resolveStripeProvisioning,
  WEBHOOK_EVENTS,
  type StripeProvisioning,
} from '../../scripts/lib/stripe-provisioning.ts';
import { schema } from '../../scripts/schema.ts';
import type { StartedBackend } from '../targets/types.ts';
import { backend, beforeAllOnTarget, serverClient } from '../support/clients.ts';
import { functionUrl, poll } from '../support/functions.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import {
  activityOf,
  backendDouble,
  createProducts,
  deskMember,
  execute,
  readOrderDocument,
  sessionClient,
  type BackendDouble,
} from '../support/payments.ts';
import { loadSize } from '../support/load-size.ts';
import type { WebUser } from '../support/realtime.ts';

// stripe-webhook on a backend of its own, whose webhook endpoint the test controls: the
// signature is checked on the raw body, and 200 seeded trials (40 off the local target) of duplicated, reordered and late
// deliveries across an order's whole life end in the right state with one activity record per
// real change. The endpoint is one the test made for the function's URL (as the local backend
// makes one for its STRIPE_WEBHOOK_URL), which provisioning adopts: so the test knows its secret.

const TRIALS = loadSize(200, { minimum: 40, step: 20 });
const BATCH = 20;

let own: StartedBackend | null = null;
let double: BackendDouble;
let endpoint: Stripe.WebhookEndpoint;
let customers: CheckoutCustomers;
let manager: WebUser;

beforeAllOnTarget(async () => {
  own = await startOwnBackend();
  if (!own) return;
  double = await backendDouble(own);
  endpoint = await double.stripe.webhookEndpoints.create({
    url: functionUrl(FUNCTIONS.stripeWebhook, '/', own),
    enabled_events: [...WEBHOOK_EVENTS],
  });
  const admin = new Client().setEndpoint(own.endpoint).setProject(own.projectId).setKey(own.apiKey);
  const resolved = (await resolveStripeProvisioning({}, own.endpoint)) as StripeProvisioning;
  await new Provisioner(admin, () => {}, {
    stripe: { ...resolved, backendEndpointSecret: endpoint.secret! },
  }).apply(schema);
  await createProducts([400, 280, 950, 120], own);
  customers = new CheckoutCustomers(own, {});
  await customers.prepare();
  manager = await deskMember('Mia Manager', 'manager', own);
}, 300_000);

afterAll(async () => {
  await own?.stop();
});

/** POSTs `body` to stripe-webhook with a signature header, as Stripe does. */
async function deliver(body: string, signature: string) {
  const response = await fetch(functionUrl(FUNCTIONS.stripeWebhook, '/', own!), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function setSwitches(switches: Record<string, string | number | boolean>): Promise<void> {
  await double.control(
    'POST',
    `/webhook_endpoints/${endpoint.id}/switches`,
    Object.fromEntries(Object.entries(switches).map(([key, value]) => [key, String(value)])),
  );
}

type TrialKind =
  'refunded' | 'partly-refunded' | 'declined' | 'intent-canceled' | 'canceled-then-paid';
const MIX: Record<TrialKind, number> = {
  refunded: 30,
  'partly-refunded': 20,
  declined: 15,
  'intent-canceled': 15,
  'canceled-then-paid': 20,
};

/** One trial: what happened at Stripe (deliveries held), and what the order must end as. */
interface Trial {
  kind: TrialKind;
  orderId: string;
  paymentIntentId: string;
  expected: Partial<OrderDocument>;
  /** The most real changes its events can make (each a rev and one activity record). */
  maxRev: number;
}

/** Plays one order's life at Stripe (and on the desk) while deliveries are held. */
async function playTrial(random: Random): Promise<Trial> {
  const kind = random.weighted(MIX);
  const customer = await customers.arrive();
  const answer = await customers.checkout(customer, {
    items: customers.cart(random),
    customerName: 'Tess Trial',
    customerEmail: 'tess@example.test',
  });
  const paymentIntentId = answer.clientSecret.split('_secret_')[0]!;
  const total = answer.amountCents;
  const pay = async (card: string, ok: boolean) => {
    const outcome = await customers.confirm(answer.clientSecret, card);
    if (outcome.ok !== ok)
      throw new Error(`${card} on ${paymentIntentId}: ${JSON.stringify(outcome)}`);
  };
  const refund = (amount: number) =>
    double.stripe.refunds.create({ payment_intent: paymentIntentId, amount });
  const base = { orderId: answer.orderId, paymentIntentId, kind };
  const paidByCard = { paymentStatus: 'succeeded', cardBrand: 'visa', cardLast4: '4242' } as const;
  switch (kind) {
    case 'refunded': {
      await pay(TEST_CARDS.declined, false);
      await pay(TEST_CARDS.visa, true);
      const part = random.int(1, total - 1);
      await refund(part);
      await refund(total - part);
      return {
        ...base,
        expected: { ...paidByCard, status: 'refunded', refundedCents: total, failureCode: null },
        maxRev: 4,
      };
    }
    case 'partly-refunded': {
      await pay(TEST_CARDS.visa, true);
      const part = random.int(1, total - 1);
      await refund(part);
      return {
        ...base,
        expected: { ...paidByCard, status: 'paid', refundedCents: part },
        maxRev: 2,
      };
    }
    case 'declined':
      await pay(TEST_CARDS.declined, false);
      await pay(TEST_CARDS.declined, false);
      return {
        ...base,
        expected: {
          status: 'payment_failed',
          paymentStatus: 'failed',
          failureCode: 'generic_decline',
        },
        maxRev: 1,
      };
    case 'intent-canceled':
      await pay(TEST_CARDS.declined, false);
      await double.stripe.paymentIntents.cancel(paymentIntentId);
      return { ...base, expected: { status: 'canceled', paymentStatus: 'canceled' }, maxRev: 2 };
    case 'canceled-then-paid': {
      // Paid at Stripe, but the desk cancels before the payment's event lands.
      await pay(TEST_CARDS.visa, true);
      const canceled = await execute(sessionClient(manager.secret, own!), FUNCTIONS.orderAction, {
        orderId: answer.orderId,
        action: 'cancel',
        expectedRev: 0,
      });
      if (canceled.status !== 200) throw new Error(`cancel: ${JSON.stringify(canceled.body)}`);
      return {
        ...base,
        expected: { ...paidByCard, status: 'canceled', refundedCents: total },
        maxRev: 3,
      };
    }
  }
}

/** The events of the trials' PaymentIntents that the endpoint receives. */
async function eventsOf(trials: readonly Trial[]): Promise<Stripe.Event[]> {
  const intents = new Set(trials.map((trial) => trial.paymentIntentId));
  const all = await double.stripe.events
    .list({ types: [...WEBHOOK_EVENTS], limit: 100 })
    .autoPagingToArray({ limit: 10_000 });
  return all.filter((event) => {
    const object = event.data.object as { object: string; id: string; payment_intent?: string };
    return intents.has(object.object === 'charge' ? object.payment_intent! : object.id);
  });
}

/** Waits until every copy of every event of the trials was answered 2xx. */
async function allDelivered(trials: readonly Trial[], copies: number): Promise<Stripe.Event[]> {
  let events: Stripe.Event[] = [];
  await poll(
    async () => {
      events = await eventsOf(trials);
      const { attempts } = (await double.control(
        'GET',
        `/webhook_endpoints/${endpoint.id}/deliveries`,
      )) as { attempts: { event: string; status: number }[] };
      const ok = new Map<string, number>();
      for (const attempt of attempts)
        if (attempt.status >= 200 && attempt.status < 300)
          ok.set(attempt.event, (ok.get(attempt.event) ?? 0) + 1);
      return events.filter((event) => (ok.get(event.id) ?? 0) < copies).map((event) => event.type);
    },
    (undelivered) => undelivered.length === 0,
    180_000,
    'every delivery to be answered 2xx',
  );
  return events;
}

/** What is wrong with a trial's order, its timeline and its processed events (empty: nothing). */
async function problemsOf(trial: Trial, events: readonly Stripe.Event[]): Promise<string[]> {
  const problems: string[] = [];
  const order = await readOrderDocument(trial.orderId, own!);
  const name = `${trial.kind} ${trial.orderId}`;
  for (const [key, value] of Object.entries(trial.expected))
    if (order[key as keyof OrderDocument] !== value)
      problems.push(
        `${name}: ${key} ${String(order[key as keyof OrderDocument])}, expected ${String(value)}`,
      );
  if (order.rev > trial.maxRev) problems.push(`${name}: rev ${order.rev} > ${trial.maxRev}`);
  const timeline = await activityOf(trial.orderId, own!);
  const ids = timeline.map((record) => record.$id);
  const wanted = Array.from({ length: order.rev + 1 }, (_, rev) => `${trial.orderId}.r${rev}`);
  if (JSON.stringify(ids) !== JSON.stringify(wanted))
    problems.push(`${name}: activity ${ids.join(' ')} for rev ${order.rev}`);
  for (const kind of ['created', 'paid', 'payment_failed', 'canceled'])
    if (timeline.filter((record) => record.kind === kind).length > 1)
      problems.push(`${name}: two "${kind}" records`);
  const processed = await new Databases(serverClient(own!)).listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.stripeEvents,
    queries: [Query.equal('orderId', [trial.orderId]), Query.limit(100)],
  });
  const mine = events.filter((event) => {
    const object = event.data.object as { object: string; id: string; payment_intent?: string };
    return (
      (object.object === 'charge' ? object.payment_intent : object.id) === trial.paymentIntentId
    );
  });
  if (processed.total !== mine.length)
    problems.push(`${name}: ${processed.total} processed events for ${mine.length} sent`);
  return problems;
}

describe('stripe-webhook (on a backend of its own)', () => {
  it('refuses a wrong secret, a stale timestamp and a re-serialized body, recording nothing', async (context) => {
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const customer = await customers.arrive();
    const answer = await customers.checkout(customer, {
      items: customers.cart(new Random(7)),
      customerName: 'Sig Nature',
      customerEmail: 'sig@example.test',
    });
    await setSwitches({ hold: true, duplicates: 1 });
    await customers.confirm(answer.clientSecret, TEST_CARDS.visa);
    const [event] = await poll(
      () => eventsOf([{ paymentIntentId: answer.clientSecret.split('_secret_')[0]! } as Trial]),
      (found) => found.some((e) => e.type === 'payment_intent.succeeded'),
      15_000,
      'the succeeded event',
    );
    const raw = JSON.stringify(event, null, 2);
    const sign = (body: string, secret: string, timestamp?: number) =>
      double.stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });
    const refusals = [
      await deliver(raw, sign(raw, 'whsec_not_the_secret')),
      await deliver(raw, sign(raw, endpoint.secret!, Math.floor(Date.now() / 1000) - 600)),
      await deliver(JSON.stringify(event), sign(raw, endpoint.secret!)),
      await deliver(raw, ''),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(refusal.body).toMatchObject({ error: { code: 'VALIDATION' } });
    }
    expect((await readOrderDocument(answer.orderId, own)).status).toBe('pending_payment');
    // The same bytes, signed now with the right secret, are accepted and applied once.
    const accepted = await deliver(raw, sign(raw, endpoint.secret!));
    expect(accepted).toMatchObject({ status: 200, body: { outcome: { kind: 'applied', rev: 1 } } });
    const again = await deliver(raw, sign(raw, endpoint.secret!));
    expect(again).toMatchObject({
      status: 200,
      body: { outcome: { kind: 'ignored', reason: 'seen' } },
    });
    await setSwitches({ hold: false });
    await double.control('POST', `/webhook_endpoints/${endpoint.id}/flush`);
    expect(await readOrderDocument(answer.orderId, own)).toMatchObject({ status: 'paid', rev: 1 });
  });

  it(`${TRIALS} seeded trials of duplicated, reordered and late deliveries end in the right state, one activity record per real change`, async (context) => {
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const problems: string[] = [];
    const kinds: Record<string, number> = {};
    for (let batch = 0; batch < TRIALS / BATCH; batch++) {
      const random = new Random(1000 + batch);
      const copies = random.int(1, 3);
      await setSwitches({
        hold: true,
        duplicates: copies,
        retryBaseMs: 50,
        maxAttempts: 20,
        delayMs: random.int(0, 30),
      });
      const trials: Trial[] = [];
      for (let i = 0; i < BATCH; i += 4)
        trials.push(
          ...(await Promise.all(
            Array.from({ length: 4 }, (_, j) => playTrial(new Random(batch * BATCH + i + j + 1))),
          )),
        );
      await setSwitches({
        hold: false,
        order: batch % 4 === 3 ? 'reverse' : 'shuffle',
        seed: batch,
      });
      await double.control('POST', `/webhook_endpoints/${endpoint.id}/flush`);
      const events = await allDelivered(trials, copies);
      for (const trial of trials) {
        kinds[trial.kind] = (kinds[trial.kind] ?? 0) + 1;
        problems.push(...(await problemsOf(trial, events)));
      }
    }
    console.log(`[payment-webhook] ${TRIALS} trials: ${JSON.stringify(kinds)}`);
    expect(problems).toEqual([]);
    expect(Object.values(kinds).reduce((sum, n) => sum + n, 0)).toBe(TRIALS);
  }, 900_000);
});
