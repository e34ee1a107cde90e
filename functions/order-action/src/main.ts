import type { Client } from 'node-appwrite';
import Stripe from 'stripe';
import { AppError } from '../../../domain/errors.ts';
import type { Order, OrderDocument } from '../../../domain/order.ts';
import {
  decideOrderAction,
  decideRefund,
  isOrderAction,
  recordTakenRefund,
  type Actor,
  type OrderActionRequest,
  type OrderChange,
  type RefundRequest,
} from '../../../domain/order-machine.ts';
import { refundIdempotencyKey } from '../../../domain/payment.ts';
import { REFUND_FOR_CANCEL, refundActorMetadata } from '../../../domain/stripe-webhook.ts';
import {
  answerFailure,
  callerId,
  functionClient,
  readOrder,
  toOrder,
} from '../../_shared/appwrite.ts';
import { commitOrderChange, type Committed } from '../../_shared/order-writes.ts';
import { loadDeskActor } from '../../_shared/desk-actor.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';
import { cancelUnpaidIntent, stripeAccess } from '../../_shared/stripe.ts';

/** Attempts at recording a refund already made at Stripe while others change the order. */
const RECORD_ATTEMPTS = 5;

const ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

/** Validates the request body `{orderId, action, expectedRev, amountCents?}`. */
export function parseRequest(bodyText: string): OrderActionRequest | RefundRequest {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new AppError('VALIDATION', 'The request body must be JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('VALIDATION', 'The request body must be a JSON object.');
  const { orderId, action, expectedRev, amountCents } = body as Record<string, unknown>;
  if (typeof orderId !== 'string' || !ID.test(orderId))
    throw new AppError('VALIDATION', 'orderId must be an order id.', { field: 'orderId' });
  if (action !== 'refund' && !isOrderAction(action))
    throw new AppError('VALIDATION', `Unknown action "${String(action)}".`, { field: 'action' });
  if (typeof expectedRev !== 'number' || !Number.isInteger(expectedRev) || expectedRev < 0)
    throw new AppError('VALIDATION', 'expectedRev must be a whole number ≥ 0.', {
      field: 'expectedRev',
    });
  if (
    amountCents !== undefined &&
    (typeof amountCents !== 'number' || !Number.isInteger(amountCents) || amountCents < 0)
  )
    throw new AppError('VALIDATION', 'amountCents must be a whole number ≥ 0.', {
      field: 'amountCents',
    });
  return {
    orderId,
    action: action as OrderActionRequest['action'] | 'refund',
    expectedRev,
    ...(amountCents === undefined ? {} : { amountCents }),
  } as OrderActionRequest | RefundRequest;
}

/** The cents a change refunds (a cancel of a card payment, or a refund). */
function refundOf(order: Order, change: OrderChange): number {
  return (change.patch.refundedCents ?? order.refundedCents) - order.refundedCents;
}

/**
 * Refunds `amount` of the order's payment at Stripe before anything is written, with one
 * idempotency key per order revision, so that a retried call never refunds twice, and the actor
 * in the refund's metadata. Stripe's refusals become the product's errors.
 */
async function refundAtStripe(
  read: OrderDocument,
  amount: number,
  actor: Actor,
  action: 'cancel' | 'refund',
): Promise<Stripe.Refund> {
  const { stripe } = stripeAccess();
  try {
    return await stripe.refunds.create(
      {
        payment_intent: read.paymentIntentId!,
        amount,
        // Who asked for it and why: the webhook records the refund as theirs if its event lands
        // first, and leaves a cancel's refund to this function while it records the cancel.
        metadata: {
          orderId: read.$id,
          rev: String(read.rev),
          ...refundActorMetadata(actor),
          ...(action === 'cancel' ? { [REFUND_FOR_CANCEL]: 'cancel' } : {}),
        },
      },
      { idempotencyKey: refundIdempotencyKey(read.$id, read.rev) },
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeIdempotencyError)
      throw new AppError('ORDER_CONFLICT', 'Someone refunded this order a moment ago.', {
        currentRev: read.rev,
        by: read.updatedByName ?? 'Someone',
      });
    if (error instanceof Stripe.errors.StripeInvalidRequestError) {
      if (error.code === 'charge_already_refunded')
        throw new AppError('INVALID_TRANSITION', 'This order was already refunded in full.');
      throw new AppError('VALIDATION', `Stripe refused the refund: ${error.message}`, {
        field: 'amountCents',
        stripeCode: error.code,
      });
    }
    throw error;
  }
}

/** What the charge has refunded in all, as Stripe counts it. */
async function refundedAtStripe(paymentIntentId: string): Promise<number> {
  const intent = await stripeAccess().stripe.paymentIntents.retrieve(paymentIntentId, {
    expand: ['latest_charge'],
  });
  const charge = intent.latest_charge;
  return typeof charge === 'object' && charge ? charge.amount_refunded : 0;
}

/**
 * Writes a change whose refund Stripe has already made. Someone may have changed the order
 * between the read and the write (or the webhook may have recorded the refund first): the money
 * has moved, so the refund is recorded on the order as it is now (`recordTakenRefund`) instead of
 * being refused as a conflict.
 */
async function commitAfterRefund(
  client: Client,
  read: OrderDocument,
  decision: OrderChange,
  action: 'cancel' | 'refund',
  actor: Actor,
): Promise<Committed> {
  let current = read;
  let change: OrderChange | null = decision;
  for (let attempt = 1; attempt <= RECORD_ATTEMPTS; attempt++) {
    const now = Date.now();
    if (change === null) return { order: current };
    const committed = await commitOrderChange(client, current, change, actor, now);
    if (committed !== 'conflict') return committed;
    current = await readOrder(client, read.$id);
    const total = await refundedAtStripe(read.paymentIntentId!);
    change = recordTakenRefund(toOrder(current), action, total, actor, now);
  }
  throw new Error(`order ${read.$id} kept changing; its refund is at Stripe but not recorded`);
}

/**
 * `order-action`: applies one workflow action, or a refund, to an order for the calling desk
 * member. Checks the caller's role, the order's `rev` and the state machine (`decideOrderAction`,
 * `decideRefund`); a cancel of a card payment and a refund are refunded at Stripe first; writes
 * the order with its activity record only if nobody changed it meanwhile (`commitOrderChange`),
 * and answers the updated order (200) or `{error: {code, message, details?}}`
 * (400/401/403/404/409/500).
 */
export default async function orderAction(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const userId = callerId(ctx.req, 'Sign in to work on orders.');
    const request = parseRequest(ctx.req.bodyText);
    const client = functionClient(ctx.req);
    const actor = await loadDeskActor(client, userId);
    const read = await readOrder(client, request.orderId);
    const now = Date.now();
    const order = toOrder(read);
    const decision =
      request.action === 'refund'
        ? decideRefund(order, request, actor)
        : decideOrderAction(order, request, actor, now);
    if (decision instanceof AppError) throw decision;
    const refund = refundOf(order, decision);
    let committed: Committed;
    if (refund > 0) {
      const made = await refundAtStripe(read, refund, actor, request.action as 'cancel' | 'refund');
      ctx.log(`${actor.name} refunded ${refund} of ${read.$id} at Stripe: ${made.id}`);
      committed = await commitAfterRefund(
        client,
        read,
        decision,
        request.action as 'cancel' | 'refund',
        actor,
      );
    } else {
      const written = await commitOrderChange(client, read, decision, actor, now);
      if (written === 'conflict') {
        ctx.log(`write conflict on ${read.$id}: changed after rev ${read.rev} was read`);
        throw await conflictAfterRace(client, read, request, actor, now);
      }
      committed = written;
      if (request.action === 'cancel' && read.paymentIntentId && read.paymentStatus !== 'succeeded')
        await cancelUnpaidIntent(read.paymentIntentId, (message) => ctx.log(message));
    }
    ctx.log(
      `${actor.name} (${actor.role}) ${request.action} ${read.$id} → rev ${committed.order.rev}`,
    );
    return ctx.res.json(committed.order);
  } catch (error) {
    return answerFailure(ctx, error);
  }
}

/** Someone wrote the order between our read and our write: say who, from a fresh read. */
async function conflictAfterRace(
  client: Client,
  read: OrderDocument,
  request: OrderActionRequest | RefundRequest,
  actor: Actor,
  now: number,
): Promise<AppError> {
  const fresh = await readOrder(client, read.$id);
  const again =
    request.action === 'refund'
      ? decideRefund(toOrder(fresh), request, actor)
      : decideOrderAction(toOrder(fresh), request, actor, now);
  if (again instanceof AppError) return again;
  const who = fresh.updatedByName ?? 'Someone';
  return new AppError('ORDER_CONFLICT', `${who} changed this order a moment ago.`, {
    currentRev: fresh.rev,
    by: who,
  });
}
