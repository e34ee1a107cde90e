import { createHash } from 'node:crypto';
import { Databases, Query, type Client } from 'node-appwrite';
import type Stripe from 'stripe';
import { AppError } from '../../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import type { OrderDocument } from '../../../domain/order.ts';
import { refundAfterCancelCents, refundIdempotencyKey } from '../../../domain/payment.ts';
import {
  paymentEventFromStripe,
  reducePaymentEvent,
  cancelRefundInProgress,
  refundActor,
  STRIPE_ACTOR,
  type RecordedActor,
  type PaymentEvent,
} from '../../../domain/stripe-webhook.ts';
import {
  findDocument,
  functionClient,
  isAppwriteError,
  readOrder,
  refuse,
  serverError,
  toOrder,
} from '../../_shared/appwrite.ts';
import { commitOrderChange } from '../../_shared/order-writes.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';
import { stripeAccess } from '../../_shared/stripe.ts';

/** Attempts at applying one event when the order changes under it. */
const ATTEMPTS = 5;

/** What became of an event. */
export type EventOutcome =
  | { kind: 'applied'; rev: number }
  | { kind: 'ignored'; reason: string }
  | { kind: 'deferred'; reason: string };

/** The `stripe_events` document id of a Stripe event id (ids longer than Appwrite's 36 are hashed). */
export function stripeEventDocumentId(eventId: string): string {
  if (/^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/.test(eventId)) return eventId;
  return `e${createHash('sha256').update(eventId).digest('hex').slice(0, 35)}`;
}

async function alreadyProcessed(client: Client, eventId: string): Promise<boolean> {
  try {
    await new Databases(client).getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.stripeEvents,
      documentId: stripeEventDocumentId(eventId),
    });
    return true;
  } catch (error) {
    if (isAppwriteError(error, 404)) return false;
    throw error;
  }
}

async function markProcessed(
  client: Client,
  event: { id: string; type: string },
  orderId: string | null,
): Promise<void> {
  try {
    await new Databases(client).createDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.stripeEvents,
      documentId: stripeEventDocumentId(event.id),
      data: {
        type: event.type.slice(0, 128),
        orderId: orderId && orderId.length <= 36 ? orderId : null,
        processedAt: new Date().toISOString(),
      },
    });
  } catch (error) {
    // A concurrent delivery of the same event recorded it first.
    if (!isAppwriteError(error, 409)) throw error;
  }
}

/** The card of a PaymentIntent that succeeded (the event names its charge only by id). */
async function cardOf(
  stripe: Stripe,
  paymentIntentId: string,
): Promise<{ brand: string; last4: string } | null> {
  const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {
    expand: ['latest_charge'],
  });
  const charge = intent.latest_charge;
  const card = typeof charge === 'object' && charge ? charge.payment_method_details?.card : null;
  return card?.brand && card.last4 ? { brand: card.brand, last4: card.last4 } : null;
}

/**
 * The order an event is about: its `metadata.orderId` (a charge may not carry the metadata of its
 * PaymentIntent), else the order holding its PaymentIntent.
 */
async function orderIdOf(client: Client, payment: PaymentEvent): Promise<string | null> {
  if (payment.orderId) return payment.orderId;
  const { documents } = await new Databases(client).listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    queries: [
      Query.equal('paymentIntentId', [payment.paymentIntentId]),
      Query.select(['$id']),
      Query.limit(1),
    ],
  });
  return documents[0]?.$id ?? null;
}

/**
 * Applies one payment event to its order with the domain's reducer, writing the change and its
 * activity record only if nobody changed the order since it was read (read again and reduced
 * again otherwise). A payment that lands on an order canceled meanwhile is refunded in full.
 */
async function applyEvent(
  ctx: FunctionContext,
  client: Client,
  stripe: Stripe,
  event: PaymentEvent & { orderId: string },
): Promise<EventOutcome> {
  let payment = event;
  let cardLookedUp = false;
  let read = await findDocument<OrderDocument>(client, COLLECTIONS.orders, event.orderId);
  if (!read) return { kind: 'ignored', reason: 'no_such_order' };
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const now = Date.now();
    const decision = reducePaymentEvent(toOrder(read), payment, now);
    if (decision.kind === 'defer') return { kind: 'deferred', reason: decision.reason };
    if (decision.kind === 'ignore') {
      await refundIfCanceled(ctx, stripe, read);
      return { kind: 'ignored', reason: decision.reason };
    }
    if (payment.type === 'payment_intent.succeeded' && payment.card === null && !cardLookedUp) {
      cardLookedUp = true;
      payment = { ...payment, card: await cardOf(stripe, payment.paymentIntentId) };
      attempt--;
      continue;
    }
    let actor: RecordedActor = STRIPE_ACTOR;
    if (payment.type === 'charge.refunded') {
      const refunds = await refundsOf(stripe, payment.paymentIntentId);
      if (cancelRefundInProgress(refunds, read.refundedCents, payment.refundedCents, now / 1000))
        return { kind: 'deferred', reason: 'cancel_being_recorded' };
      actor = refundActor(refunds, read.refundedCents, payment.refundedCents);
    }
    const change =
      actor === STRIPE_ACTOR
        ? decision.change
        : {
            ...decision.change,
            patch: { ...decision.change.patch, updatedById: actor.id, updatedByName: actor.name },
          };
    const committed = await commitOrderChange(client, read, change, actor, now);
    if (committed !== 'conflict') {
      await refundIfCanceled(ctx, stripe, committed.order);
      return { kind: 'applied', rev: committed.order.rev };
    }
    read = await readOrder(client, read.$id);
  }
  throw new Error(`order ${event.orderId} kept changing; ${event.type} ${event.id} not applied`);
}

/** The PaymentIntent's refunds, oldest first. */
async function refundsOf(stripe: Stripe, paymentIntentId: string): Promise<Stripe.Refund[]> {
  const refunds = await stripe.refunds
    .list({ payment_intent: paymentIntentId, limit: 100 })
    .autoPagingToArray({ limit: 1000 });
  return refunds.reverse();
}

/** Refunds a payment that landed on a canceled order (idempotent: one refund per order). */
async function refundIfCanceled(
  ctx: FunctionContext,
  stripe: Stripe,
  order: OrderDocument,
): Promise<void> {
  const amount = refundAfterCancelCents(toOrder(order));
  if (amount === 0 || !order.paymentIntentId) return;
  const refund = await stripe.refunds.create(
    { payment_intent: order.paymentIntentId, amount, metadata: { orderId: order.$id } },
    { idempotencyKey: refundIdempotencyKey(order.$id, 'after-cancel') },
  );
  ctx.log(`order ${order.$id} was canceled before its payment landed: refunded ${refund.id}`);
}

/**
 * `stripe-webhook` (Stripe's deliveries, to the function's own URL: `execute: any`, no Appwrite
 * user): verifies the `Stripe-Signature` on the raw body with the endpoint's secret
 * (`stripe.webhooks.constructEvent`; 400 otherwise), skips an event already processed (its id in
 * `stripe_events`), and applies `payment_intent.succeeded | payment_failed | canceled` and
 * `charge.refunded` to the order named in the metadata with the domain's reducer, which never
 * moves an order backwards. Answers 200 once an event is applied or ignored (then recorded in
 * `stripe_events`), 503 for an event ahead of one not yet applied (a refund before its payment)
 * and 500 on failure, so that Stripe sends it again.
 */
export default async function stripeWebhook(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    if (ctx.req.method !== 'POST')
      return refuse(ctx, new AppError('VALIDATION', 'Stripe sends its events with POST.'));
    const { stripe, settings } = stripeAccess();
    let verified: Stripe.Event;
    try {
      verified = stripe.webhooks.constructEvent(
        ctx.req.bodyBinary,
        ctx.req.headers['stripe-signature'] ?? '',
        settings.webhookSecret,
      );
    } catch (error) {
      ctx.log(`refused a delivery: ${(error as Error).message}`);
      return refuse(
        ctx,
        new AppError('VALIDATION', `The Stripe signature was refused: ${(error as Error).message}`),
      );
    }
    const client = functionClient(ctx.req);
    if (await alreadyProcessed(client, verified.id))
      return ctx.res.json({ received: verified.id, outcome: { kind: 'ignored', reason: 'seen' } });
    const payment = paymentEventFromStripe(verified);
    const orderId = payment ? await orderIdOf(client, payment) : null;
    const outcome: EventOutcome =
      payment && orderId
        ? await applyEvent(ctx, client, stripe, { ...payment, orderId })
        : { kind: 'ignored', reason: payment ? 'no_order' : 'not_tracked' };
    if (outcome.kind === 'deferred') {
      ctx.log(`deferred ${verified.type} ${verified.id}: ${outcome.reason}`);
      return ctx.res.json({ received: verified.id, outcome }, 503);
    }
    await markProcessed(client, verified, orderId);
    ctx.log(`${verified.type} ${verified.id} → ${JSON.stringify(outcome)}`);
    return ctx.res.json({ received: verified.id, outcome });
  } catch (error) {
    return serverError(ctx, error);
  }
}
