import { Client as WebClient, Databases as WebDatabases } from 'appwrite';
import { Databases, Functions, ID, Query } from 'node-appwrite';
import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { TEST_CARDS, type Customer } from '../../scripts/lib/checkout-customers.ts';
import { installBrowserGlobals, until } from '../support/browser.ts';
import { backend, beforeAllOnTarget, guestServerClient, serverClient } from '../support/clients.ts';
import {
  activityOf,
  backendDouble,
  createProducts,
  deskMember,
  execute,
  orderUntil,
  readOrderDocument,
  shop,
  stripeDoubleMissing,
  type BackendDouble,
} from '../support/payments.ts';
import { closeAll, listen, realtimeFor } from '../support/realtime.ts';

installBrowserGlobals();
afterEach(closeAll);

// The checkout function through the official SDKs, the local Stripe double and the webhook
// provisioning registered: the order a customer places, what is refused, and who may read it.

let double: BackendDouble;
let products: { id: string; priceCents: number }[];
let inactive: { id: string; priceCents: number };

let noDouble: string | null = null;

beforeAllOnTarget(async () => {
  noDouble = await stripeDoubleMissing();
  if (noDouble) return;
  double = await backendDouble();
  products = await createProducts([400, 280, 950]);
  [inactive] = await createProducts([300], backend(), { active: false });
});

function cartBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderId: ID.unique(),
    items: [
      { productId: products[0]!.id, qty: 2, unitPriceCents: 400 },
      { productId: products[1]!.id, qty: 1, unitPriceCents: 280 },
    ],
    customerName: 'Cleo Customer',
    customerEmail: 'cleo@example.test',
    ...overrides,
  };
}

/** Every PaymentIntent the double created for `orderId` (its metadata), from its events. */
async function intentsFor(orderId: string): Promise<Stripe.PaymentIntent[]> {
  const created = await double.stripe.events
    .list({ type: 'payment_intent.created', limit: 100 })
    .autoPagingToArray({ limit: 10_000 });
  return created
    .map((event) => event.data.object as Stripe.PaymentIntent)
    .filter((intent) => intent.metadata.orderId === orderId);
}

async function missing(orderId: string): Promise<boolean> {
  return readOrderDocument(orderId).then(
    () => false,
    (error: { code?: number }) => error.code === 404,
  );
}

function webClientOf(customer: Customer): WebClient {
  return new WebClient()
    .setEndpoint(backend().endpoint)
    .setProject(backend().projectId)
    .setSession(customer.secret);
}

describe('checkout (a customer places an order and pays)', () => {
  beforeEach((context) => {
    if (noDouble) context.skip(noDouble);
  });

  it('is deployed for customers with sessions; Stripe reaches stripe-webhook at its URL', async () => {
    const functions = new Functions(serverClient());
    expect(await functions.get({ functionId: FUNCTIONS.checkout })).toMatchObject({
      execute: ['users'],
      enabled: true,
    });
    expect(await functions.get({ functionId: FUNCTIONS.stripeWebhook })).toMatchObject({
      execute: ['any'],
      enabled: true,
    });
    const { variables } = await functions.listVariables({ functionId: FUNCTIONS.stripeWebhook });
    const byKey = new Map(variables.map((variable) => [variable.key, variable]));
    expect(byKey.get('STRIPE_API_URL')?.value).toBe(double.api);
    expect(byKey.get('STRIPE_WEBHOOK_SECRET')?.secret).toBe(true);
    const endpoint = await double.stripe.webhookEndpoints.retrieve(
      byKey.get('STRIPE_WEBHOOK_ENDPOINT')!.value,
    );
    expect(endpoint.url).toBe(
      `${new URL(backend().endpoint).origin}/_functions/${FUNCTIONS.stripeWebhook}/`,
    );
    expect(endpoint.enabled_events).toEqual(
      expect.arrayContaining(['payment_intent.succeeded', 'charge.refunded']),
    );
  });

  it('creates a pending order priced from the catalog and a PaymentIntent keyed by the order id', async () => {
    const customers = shop();
    const customer = await customers.arrive();
    const body = cartBody();
    const answer = await customers.checkout(customer, body);
    expect(answer).toEqual({
      orderId: body.orderId,
      number: expect.any(Number) as number,
      clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/) as string,
      amountCents: 1080,
      currency: 'eur',
      status: 'pending_payment',
    });
    const order = await readOrderDocument(answer.orderId);
    expect(order).toMatchObject({
      number: answer.number,
      status: 'pending_payment',
      paymentStatus: 'requires_payment_method',
      customerName: 'Cleo Customer',
      customerEmail: 'cleo@example.test',
      customerId: customer.userId,
      subtotalCents: 1080,
      totalCents: 1080,
      itemsSummary: '2× Product 1, 1× Product 2',
      refundedCents: 0,
      rev: 0,
    });
    expect(JSON.parse(order.items)).toEqual([
      { productId: products[0]!.id, name: 'Product 1', unitPriceCents: 400, qty: 2 },
      { productId: products[1]!.id, name: 'Product 2', unitPriceCents: 280, qty: 1 },
    ]);
    expect(order.$permissions).toEqual([`read("user:${customer.userId}")`]);
    const intents = await intentsFor(answer.orderId);
    expect(intents.map((intent) => intent.id)).toEqual([order.paymentIntentId]);
    expect(await double.stripe.paymentIntents.retrieve(order.paymentIntentId!)).toMatchObject({
      amount: 1080,
      currency: 'eur',
      status: 'requires_payment_method',
      client_secret: answer.clientSecret,
      metadata: { orderId: answer.orderId },
    });
    const [created] = await activityOf(answer.orderId);
    expect(created).toMatchObject({
      $id: `${answer.orderId}.r0`,
      kind: 'created',
      actorName: 'Cleo Customer',
    });
  });

  it('resumes the same order and PaymentIntent on a double click or a reload', async () => {
    const customers = shop();
    const customer = await customers.arrive();
    const body = cartBody();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => customers.checkout(customer, body)),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const reload = await customers.checkout(customer, { ...body, items: body.items });
    expect(reload).toEqual(answers[0]);
    expect(await intentsFor(answers[0]!.orderId)).toHaveLength(1);
    const { total } = await new Databases(serverClient()).listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.equal('customerId', [customer.userId])],
    });
    expect(total).toBe(1);
  });

  it('resumes a checkout even after its product left the catalog; two carts racing for one order id make one order', async () => {
    const customers = shop();
    const customer = await customers.arrive();
    const [soon] = await createProducts([640]);
    const body = cartBody({ items: [{ productId: soon!.id, qty: 1 }] });
    const first = await customers.checkout(customer, body);
    await new Databases(serverClient()).updateDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.products,
      documentId: soon!.id,
      data: { active: false },
    });
    expect(await customers.checkout(customer, body)).toEqual(first);

    const orderId = ID.unique();
    const carts = [products[0]!, products[1]!, products[2]!].map((product) =>
      cartBody({ orderId, items: [{ productId: product.id, qty: 1 }] }),
    );
    const answers = await Promise.all(
      carts.map((cart) => execute(customer.client, FUNCTIONS.checkout, cart)),
    );
    const ok = answers.filter((answer) => answer.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((answer) => answer.body.clientSecret)).size).toBe(1);
    for (const refused of answers.filter((answer) => answer.status !== 200))
      expect([refused.status, refused.body.error?.code]).toEqual([400, 'VALIDATION']);
    expect(await intentsFor(orderId)).toHaveLength(1);
  });

  it('refuses a tampered price, an inactive product and an over-limit cart with CART_INVALID, creating nothing', async () => {
    const customers = shop();
    const customer = await customers.arrive();
    const line = (productId: string, qty = 1, unitPriceCents?: number) => ({
      productId,
      qty,
      ...(unitPriceCents === undefined ? {} : { unitPriceCents }),
    });
    const cases: [string, Record<string, unknown>, string, string][] = [
      [
        'tampered price',
        { items: [line(products[2]!.id, 1, 1)] },
        'items[0].unitPriceCents',
        'The price of Product 3 is now €9.50.',
      ],
      [
        'inactive product',
        { items: [line(inactive.id)] },
        'items[0].productId',
        'Product 1 is no longer available.',
      ],
      [
        'over-limit cart',
        { items: Array.from({ length: 51 }, (_, i) => line(`p${i}`)) },
        'items',
        'A cart holds at most 50 different items.',
      ],
      [
        'over-limit quantity',
        { items: [line(products[0]!.id, 100)] },
        'items[0].qty',
        'Choose a quantity from 1 to 99.',
      ],
      [
        'unknown product',
        { items: [line('no-such-product')] },
        'items[0].productId',
        'This product is not in the catalog.',
      ],
      ['bad email', { customerEmail: 'cleo' }, 'customerEmail', 'Enter a valid email address.'],
    ];
    for (const [label, overrides, field, message] of cases) {
      const body = cartBody(overrides);
      const answer = await execute(customer.client, FUNCTIONS.checkout, body);
      expect([answer.status, answer.body.error?.code], label).toEqual([400, 'CART_INVALID']);
      const fields = (
        answer.body.error?.details as { fields: { field: string; message: string }[] }
      ).fields;
      expect(fields, label).toContainEqual({ field, message });
      expect(await missing(body.orderId as string), label).toBe(true);
      expect(await intentsFor(body.orderId as string), label).toEqual([]);
    }
    const broken = await execute(customer.client, FUNCTIONS.checkout, 'not json');
    expect([broken.status, broken.body.error?.code]).toEqual([400, 'VALIDATION']);
  });

  it('lets only its customer and the desk read the order; others are refused by the backend', async () => {
    const customers = shop();
    const [cleo, eve] = await Promise.all([customers.arrive(), customers.arrive()]);
    const staff = await deskMember('Sam Staff', 'staff');
    const { orderId } = await customers.checkout(cleo, cartBody());
    const read = (client: WebClient) =>
      new WebDatabases(client).getDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId: orderId,
      });
    expect((await read(webClientOf(cleo))).$id).toBe(orderId);
    expect((await read(staff.client)).$id).toBe(orderId);
    await expect(read(webClientOf(eve))).rejects.toMatchObject({ code: 404 });
    await expect(
      new Databases(guestServerClient()).getDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId: orderId,
      }),
    ).rejects.toMatchObject({ code: 404 });
    const eveList = await new Databases(eve.client).listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.equal('$id', [orderId])],
    });
    expect(eveList.documents).toEqual([]);
    // Eve cannot take Cleo's checkout over by its id, nor change the order directly.
    const taken = await execute(eve.client, FUNCTIONS.checkout, cartBody({ orderId }));
    expect([taken.status, taken.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    await expect(
      new Databases(cleo.client).updateDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId: orderId,
        data: { status: 'paid' },
      }),
    ).rejects.toMatchObject({ code: 401 });
    // Guests cannot check out at all (`execute` grants sessions only).
    await expect(
      new Functions(guestServerClient()).createExecution({ functionId: FUNCTIONS.checkout }),
    ).rejects.toMatchObject({ code: 401 });
    expect((await readOrderDocument(orderId)).rev).toBe(0);
  });

  it('a payment reaches the desk and the customer live through the webhook; a decline first shows as payment_failed', async () => {
    const customers = shop();
    const [cleo, eve] = await Promise.all([customers.arrive(), customers.arrive()]);
    const staff = await deskMember('Dee Desk', 'staff');
    const answer = await customers.checkout(cleo, cartBody());
    const channel = `databases.${DATABASE_ID}.collections.${COLLECTIONS.orders}.documents.${answer.orderId}`;
    const desk = await listen(
      realtimeFor(staff.client),
      `databases.${DATABASE_ID}.collections.${COLLECTIONS.orders}.documents`,
    );
    const track = await listen(realtimeFor(webClientOf(cleo)), channel);
    const stranger = await listen(realtimeFor(webClientOf(eve)), channel);

    const declined = await customers.confirm(answer.clientSecret, TEST_CARDS.insufficientFunds);
    expect(declined).toMatchObject({
      ok: false,
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    const failed = await orderUntil(answer.orderId, (o) => o.status === 'payment_failed', 'failed');
    expect(failed).toMatchObject({ paymentStatus: 'failed', failureCode: 'insufficient_funds' });

    const paid = await customers.confirm(answer.clientSecret, TEST_CARDS.visa);
    expect(paid).toMatchObject({ ok: true, intent: { status: 'succeeded' } });
    const order = await orderUntil(answer.orderId, (o) => o.status === 'paid', 'paid');
    expect(order).toMatchObject({
      paymentStatus: 'succeeded',
      cardBrand: 'visa',
      cardLast4: '4242',
      failureCode: null,
      rev: 2,
      updatedByName: 'Stripe',
    });
    const sawPaid = (inbox: typeof desk.inbox) =>
      inbox.some((event) => (event.payload as Partial<OrderDocument>).status === 'paid');
    await until(() => sawPaid(desk.inbox) && sawPaid(track.inbox), 15_000, 'the paid event');
    expect(stranger.inbox).toEqual([]);
    expect(
      (await activityOf(answer.orderId)).map((record) => [record.kind, record.actorName]),
    ).toEqual([
      ['created', 'Cleo Customer'],
      ['payment_failed', 'Stripe'],
      ['paid', 'Stripe'],
    ]);
  });

  it('gives concurrent checkouts distinct order numbers', async () => {
    const customers = shop();
    const people = await Promise.all(Array.from({ length: 12 }, () => customers.arrive()));
    const answers = await Promise.all(
      people.map((person) => customers.checkout(person, cartBody())),
    );
    expect(new Set(answers.map((answer) => answer.number)).size).toBe(12);
    expect(new Set(answers.map((answer) => answer.orderId)).size).toBe(12);
  });
});
