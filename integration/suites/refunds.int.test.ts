import { Databases, Query } from 'node-appwrite';
import type Stripe from 'stripe';
import { beforeEach, describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { TEST_CARDS, type PaidCheckout } from '../../scripts/lib/checkout-customers.ts';
import { refundActorMetadata } from '../../domain/stripe-webhook.ts';
import { Random } from '../../scripts/lib/random.ts';
import { beforeAllOnTarget, serverClient } from '../support/clients.ts';
import { poll } from '../support/functions.ts';
import {
  activityOf,
  backendDouble,
  createProducts,
  deskMember,
  execute,
  orderUntil,
  readOrderDocument,
  sessionClient,
  shop,
  stripeDoubleMissing,
  type BackendDouble,
} from '../support/payments.ts';
import type { WebUser } from '../support/realtime.ts';

// Refunds and cancels of card payments through order-action, against the local Stripe double:
// what Stripe refunds, what the order and its timeline show, and that the webhook's later
// charge.refunded adds nothing.

let double: BackendDouble;
let manager: WebUser;
let owner: WebUser;
let staff: WebUser;
let seed = 1;

let noDouble: string | null = null;

beforeAllOnTarget(async () => {
  noDouble = await stripeDoubleMissing();
  if (noDouble) return;
  double = await backendDouble();
  await createProducts([400, 280, 950]);
  [manager, owner, staff] = await Promise.all([
    deskMember('Mia Manager', 'manager'),
    deskMember('Oscar Owner', 'owner'),
    deskMember('Sam Staff', 'staff'),
  ]);
});

/** A customer's order, paid with 4242 and marked paid by the webhook. */
async function paidOrder(): Promise<{ paid: PaidCheckout; order: OrderDocument }> {
  const customers = shop();
  await customers.prepare();
  const paid = await customers.placeAndPay(new Random(seed++));
  const order = await orderUntil(paid.answer.orderId, (o) => o.status === 'paid', 'paid');
  return { paid, order };
}

/** A customer's order, checked out and not paid (its PaymentIntent open). */
async function unpaidCheckout(customerName: string, customerEmail: string) {
  const customers = shop();
  await customers.prepare();
  const customer = await customers.arrive();
  const answer = await customers.checkout(customer, {
    items: customers.cart(new Random(seed++)),
    customerName,
    customerEmail,
  });
  return { customers, answer };
}

function act(who: WebUser, order: OrderDocument, body: Record<string, unknown>) {
  return execute(sessionClient(who.secret), FUNCTIONS.orderAction, {
    orderId: order.$id,
    expectedRev: order.rev,
    ...body,
  });
}

async function refundsAtStripe(paymentIntentId: string): Promise<Stripe.Refund[]> {
  return (await double.stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })).data;
}

/** Waits until every charge.refunded event of the intent went through stripe-webhook. */
async function refundEventsProcessed(paymentIntentId: string, count: number): Promise<void> {
  const events = await poll(
    async () =>
      (await double.stripe.events.list({ type: 'charge.refunded', limit: 100 })).data.filter(
        (event) => (event.data.object as Stripe.Charge).payment_intent === paymentIntentId,
      ),
    (found) => found.length >= count,
    15_000,
    `${count} charge.refunded events`,
  );
  const databases = new Databases(serverClient());
  await poll(
    async () =>
      (
        await databases.listDocuments({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.stripeEvents,
          queries: [
            Query.equal(
              '$id',
              events.map((event) => event.id),
            ),
          ],
        })
      ).total,
    (total) => total === count,
    30_000,
    'the webhook to process the refunds',
  );
}

describe('refunds and cancels of card payments (order-action)', () => {
  beforeEach((context) => {
    if (noDouble) context.skip(noDouble);
  });

  it('a manager refunds part, then an owner the rest: one Stripe refund each, shown on the order and its timeline; the webhook adds nothing', async () => {
    const { order } = await paidOrder();
    const pi = order.paymentIntentId!;
    const part = await act(manager, order, { action: 'refund', amountCents: 300 });
    expect(part.status).toBe(200);
    expect(part.body).toMatchObject({ status: 'paid', refundedCents: 300, rev: order.rev + 1 });
    expect((await refundsAtStripe(pi)).map((refund) => refund.amount)).toEqual([300]);

    const rest = await act(owner, part.body as unknown as OrderDocument, { action: 'refund' });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      status: 'refunded',
      refundedCents: order.totalCents,
      rev: order.rev + 2,
      updatedByName: 'Oscar Owner',
    });
    const refunds = await refundsAtStripe(pi);
    expect(refunds.map((refund) => refund.amount).sort((a, b) => a - b)).toEqual(
      [300, order.totalCents - 300].sort((a, b) => a - b),
    );
    expect(refunds.every((refund) => refund.metadata?.orderId === order.$id)).toBe(true);

    await refundEventsProcessed(pi, 2);
    expect(await readOrderDocument(order.$id)).toMatchObject({
      status: 'refunded',
      refundedCents: order.totalCents,
      rev: order.rev + 2,
    });
    const timeline = await activityOf(order.$id);
    // Stripe's charge.refunded may reach stripe-webhook before order-action records the refund it
    // made: then the webhook records it — as the manager, named in the refund's metadata — and
    // order-action adds nothing: one record per refund, by who asked for it, either way.
    expect(timeline.map((record) => [record.kind, record.actorName])).toEqual([
      ['created', expect.any(String)],
      ['paid', 'Stripe'],
      ['refund', 'Mia Manager'],
      ['refund', 'Oscar Owner'],
    ]);
    // order-action adds the caller's role (`by`); a record written by the webhook has none.
    expect(JSON.parse(timeline[3]!.data)).toMatchObject({
      amountCents: order.totalCents - 300,
      refundedCents: order.totalCents,
      full: true,
    });
  });

  it('a refund whose charge.refunded is recorded by the webhook names the manager in its metadata; one made outside the desk is Stripe’s', async () => {
    const { order } = await paidOrder();
    const pi = order.paymentIntentId!;
    // What order-action sends to Stripe, as if it stopped before recording the refund itself.
    await double.stripe.refunds.create({
      payment_intent: pi,
      amount: 200,
      metadata: {
        orderId: order.$id,
        rev: String(order.rev),
        ...refundActorMetadata({ id: manager.userId, name: 'Mia Manager' }),
      },
    });
    await refundEventsProcessed(pi, 1);
    expect(await readOrderDocument(order.$id)).toMatchObject({
      refundedCents: 200,
      rev: order.rev + 1,
      updatedById: manager.userId,
      updatedByName: 'Mia Manager',
    });
    await double.stripe.refunds.create({ payment_intent: pi, amount: 100 });
    await refundEventsProcessed(pi, 2);
    const timeline = await activityOf(order.$id);
    expect(timeline.slice(-2).map((record) => [record.kind, record.actorName])).toEqual([
      ['refund', 'Mia Manager'],
      ['refund', 'Stripe'],
    ]);
    expect(await readOrderDocument(order.$id)).toMatchObject({
      refundedCents: 300,
      rev: order.rev + 2,
      updatedByName: 'Stripe',
    });
  });

  it('refuses more than what is left, a staff refund, a stale rev and a non-amount, refunding nothing', async () => {
    const { order } = await paidOrder();
    const cases: [WebUser, Record<string, unknown>, number, string][] = [
      [manager, { action: 'refund', amountCents: order.totalCents + 1 }, 400, 'VALIDATION'],
      [manager, { action: 'refund', amountCents: 0 }, 400, 'VALIDATION'],
      [staff, { action: 'refund', amountCents: 100 }, 403, 'FORBIDDEN'],
      [staff, { action: 'cancel' }, 403, 'FORBIDDEN'],
      [
        owner,
        { action: 'refund', amountCents: 100, expectedRev: order.rev - 1 },
        409,
        'ORDER_CONFLICT',
      ],
    ];
    for (const [who, body, status, code] of cases) {
      const answer = await act(who, order, body);
      expect([answer.status, answer.body.error?.code], JSON.stringify(body)).toEqual([
        status,
        code,
      ]);
    }
    const over = await act(manager, order, { action: 'refund', amountCents: order.totalCents + 1 });
    expect(over.body.error?.message).toMatch(/^You can refund at most €\d+\.\d\d\.$/);
    expect(await refundsAtStripe(order.paymentIntentId!)).toEqual([]);
    expect(await readOrderDocument(order.$id)).toMatchObject({ rev: order.rev, refundedCents: 0 });
  });

  it('the same refund sent twice at once is made and recorded once', async () => {
    const { order } = await paidOrder();
    const answers = await Promise.all([
      act(manager, order, { action: 'refund', amountCents: 150 }),
      act(manager, order, { action: 'refund', amountCents: 150 }),
    ]);
    // Each answers the order with the refund, or a conflict (the other was first): never two refunds.
    for (const answer of answers)
      if (answer.status !== 200)
        expect([answer.status, answer.body.error?.code]).toEqual([409, 'ORDER_CONFLICT']);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    expect((await refundsAtStripe(order.paymentIntentId!)).map((refund) => refund.amount)).toEqual([
      150,
    ]);
    await refundEventsProcessed(order.paymentIntentId!, 1);
    expect(await readOrderDocument(order.$id)).toMatchObject({
      refundedCents: 150,
      rev: order.rev + 1,
    });
    expect((await activityOf(order.$id)).filter((record) => record.kind === 'refund')).toHaveLength(
      1,
    );
  });

  it('a manager cancels a paid order: refunded in full at Stripe, canceled; the webhook adds nothing', async () => {
    const { order } = await paidOrder();
    const partly = await act(owner, order, { action: 'refund', amountCents: 100 });
    const canceled = await act(manager, partly.body as unknown as OrderDocument, {
      action: 'cancel',
    });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled', refundedCents: order.totalCents });
    expect(
      (await refundsAtStripe(order.paymentIntentId!)).reduce(
        (sum, refund) => sum + refund.amount,
        0,
      ),
    ).toBe(order.totalCents);
    await refundEventsProcessed(order.paymentIntentId!, 2);
    const after = await readOrderDocument(order.$id);
    expect(after).toMatchObject({
      status: 'canceled',
      refundedCents: order.totalCents,
      rev: order.rev + 2,
    });
    const last = (await activityOf(order.$id)).at(-1)!;
    expect([last.kind, JSON.parse(last.data)]).toEqual([
      'canceled',
      { from: 'paid', by: 'manager', refundCents: order.totalCents - 100 },
    ]);
  });

  it('canceling an unpaid order cancels its PaymentIntent, so that it can no longer be paid', async () => {
    const { customers, answer } = await unpaidCheckout('Una Unpaid', 'una@example.test');
    const order = await readOrderDocument(answer.orderId);
    const canceled = await act(manager, order, { action: 'cancel' });
    expect(canceled.body).toMatchObject({ status: 'canceled', refundedCents: 0 });
    expect((await double.stripe.paymentIntents.retrieve(order.paymentIntentId!)).status).toBe(
      'canceled',
    );
    const late = await customers.confirm(answer.clientSecret, TEST_CARDS.visa);
    expect(late).toMatchObject({ ok: false, code: 'payment_intent_unexpected_state' });
  });

  it('expire-pending cancels the PaymentIntent of an order it expires: a card entered late is declined', async () => {
    const { customers, answer } = await unpaidCheckout('Eve Expired', 'eve@example.test');
    await new Databases(serverClient()).updateDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: answer.orderId,
      data: { $createdAt: new Date(Date.now() - 31 * 60_000).toISOString() },
    });
    const run = await execute(serverClient(), FUNCTIONS.expirePending, {});
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ intentsCanceled: expect.any(Number) });
    const order = await readOrderDocument(answer.orderId);
    expect(order).toMatchObject({ status: 'canceled', paymentStatus: 'requires_payment_method' });
    expect((await double.stripe.paymentIntents.retrieve(order.paymentIntentId!)).status).toBe(
      'canceled',
    );
    const late = await customers.confirm(answer.clientSecret, TEST_CARDS.visa);
    expect(late).toMatchObject({ ok: false, code: 'payment_intent_unexpected_state' });
    expect((await readOrderDocument(answer.orderId)).refundedCents).toBe(0);
  });

  it('a payment that lands on an order canceled meanwhile is recorded and refunded in full', async () => {
    const { customers, answer } = await unpaidCheckout('Lou Late', 'lou@example.test');
    // Canceled with its PaymentIntent left open: as when expire-pending stops between its commit
    // and its PaymentIntent's cancel.
    await new Databases(serverClient()).updateDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: answer.orderId,
      data: { status: 'canceled', canceledAt: new Date().toISOString(), rev: 1 },
    });
    expect((await customers.confirm(answer.clientSecret, TEST_CARDS.visa)).ok).toBe(true);
    const after = await orderUntil(
      answer.orderId,
      (o) => o.refundedCents === o.totalCents,
      'the refund of the late payment',
    );
    expect(after).toMatchObject({ status: 'canceled', paymentStatus: 'succeeded', rev: 3 });
    const refunds = await refundsAtStripe(after.paymentIntentId!);
    expect(refunds.map((refund) => refund.amount)).toEqual([after.totalCents]);
    expect((await activityOf(answer.orderId)).map((record) => record.kind)).toEqual([
      'created',
      'paid',
      'refund',
    ]);
  });
});
