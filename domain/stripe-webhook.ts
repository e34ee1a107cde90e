import type { Order, OrderStatus } from './order.ts';
import type { OrderChange } from './order-machine.ts';

/** Who Stripe's webhook acts as in `updatedBy*` and activity records. */
export const STRIPE_ACTOR = { id: 'stripe', name: 'Stripe' } as const;

/** Who a change is recorded as: an id and a name. */
export interface RecordedActor {
  id: string;
  name: string;
}

/** A Stripe refund as {@link refundActor} reads it (the fields of `Stripe.Refund` it needs). */
export interface RefundForActor {
  amount: number;
  status: string | null;
  metadata: Record<string, string> | null;
}

/**
 * The metadata `order-action` puts on the refunds it makes: the desk member who asked for it,
 * so that the webhook, when its `charge.refunded` lands first, records the refund as theirs.
 */
export function refundActorMetadata(actor: RecordedActor): Record<string, string> {
  return { actorId: actor.id, actorName: actor.name };
}

/**
 * The refunds (of `refunds`, the PaymentIntent's, oldest first) that take a charge's refunded
 * total from `fromCents` (what the order has recorded) to `toCents` (the event's running total):
 * those, failed and canceled ones left out, whose running total ends above `fromCents` and no
 * later than `toCents`.
 */
function refundsAdded<R extends RefundForActor>(
  refunds: readonly R[],
  fromCents: number,
  toCents: number,
): R[] {
  const added: R[] = [];
  let total = 0;
  for (const refund of refunds) {
    if (refund.status === 'failed' || refund.status === 'canceled') continue;
    total += refund.amount;
    if (total > fromCents && total <= toCents) added.push(refund);
  }
  return added;
}

/**
 * Who made the refunds that take a charge's refunded total from `fromCents` to `toCents` (see
 * {@link refundsAdded}). When all of them carry the same actor in their metadata
 * ({@link refundActorMetadata}), that actor; otherwise (refunds made outside the desk, or by
 * several people at once) {@link STRIPE_ACTOR}.
 */
export function refundActor(
  refunds: readonly RefundForActor[],
  fromCents: number,
  toCents: number,
): RecordedActor {
  const actors = new Map<string, RecordedActor>();
  const added = refundsAdded(refunds, fromCents, toCents);
  for (const refund of added) {
    const id = refund.metadata?.actorId;
    const name = refund.metadata?.actorName;
    if (!id || !name) return STRIPE_ACTOR;
    actors.set(id, { id, name });
  }
  return added.length > 0 && actors.size === 1 ? [...actors.values()][0]! : STRIPE_ACTOR;
}

/** The metadata key `order-action` sets (to `cancel`) on the refund a cancel makes. */
export const REFUND_FOR_CANCEL = 'intent';

/** How long the webhook leaves a cancel's refund to `order-action` (Stripe sends it again). */
export const CANCEL_RECORDING_GRACE_SECONDS = 60;

/**
 * Whether a refund that a `charge.refunded` event adds was made by a cancel in `order-action`
 * less than {@link CANCEL_RECORDING_GRACE_SECONDS} ago: the function is recording the cancel with
 * its refund, and the webhook recording it first would make the order `refunded` instead of
 * `canceled`. The webhook answers "not yet" (Stripe retries) and finds it recorded later; a
 * cancel that never got recorded is applied as a refund once the grace has passed.
 */
export function cancelRefundInProgress(
  refunds: readonly (RefundForActor & { created: number })[],
  fromCents: number,
  toCents: number,
  nowSeconds: number,
): boolean {
  return refundsAdded(refunds, fromCents, toCents).some(
    (refund) =>
      refund.metadata?.[REFUND_FOR_CANCEL] === 'cancel' &&
      nowSeconds - refund.created < CANCEL_RECORDING_GRACE_SECONDS,
  );
}

/** The Stripe events the `stripe-webhook` function reads, reduced to what an order needs. */
export type PaymentEvent = { id: string; created: number; orderId: string | null } & (
  | {
      type: 'payment_intent.succeeded';
      paymentIntentId: string;
      amountCents: number;
      card: { brand: string; last4: string } | null;
    }
  | {
      type: 'payment_intent.payment_failed';
      paymentIntentId: string;
      /** The decline code when there is one (`insufficient_funds`), else the error code. */
      failureCode: string;
      message: string;
    }
  | { type: 'payment_intent.canceled'; paymentIntentId: string }
  | {
      type: 'payment_intent.processing' | 'payment_intent.requires_action';
      paymentIntentId: string;
    }
  | {
      type: 'charge.refunded';
      paymentIntentId: string;
      /** The charge's total refunded so far (Stripe sends the running total, not the delta). */
      refundedCents: number;
    }
);

/** The order fields the reducer reads. */
export type PaymentOrder = Pick<
  Order,
  'status' | 'paymentStatus' | 'paymentIntentId' | 'totalCents' | 'refundedCents' | 'rev'
>;

/**
 * What to do with an event: apply `change` (the order's patch, `rev` + 1, and its one activity
 * record), `ignore` it (repeated, late, for another payment, or not tracked), or `defer` it (it
 * is ahead of an event not yet applied: answer non-2xx so that Stripe sends it again).
 * `refundNeeded` asks for a refund of a payment that succeeded on an order canceled meanwhile.
 */
export type PaymentDecision =
  | { kind: 'apply'; change: OrderChange; refundNeeded?: true }
  | { kind: 'ignore'; reason: string }
  | { kind: 'defer'; reason: string };

const AWAITING_PAYMENT: readonly OrderStatus[] = ['pending_payment', 'payment_failed'];
const PAID: readonly OrderStatus[] = ['paid', 'preparing', 'ready', 'fulfilled', 'refunded'];

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Reads a verified Stripe event (the JSON `stripe.webhooks.constructEvent` returns) into a
 * {@link PaymentEvent}, or null for events the desk does not use. The order id comes from the
 * PaymentIntent's (or charge's) `metadata.orderId`.
 */
export function paymentEventFromStripe(event: unknown): PaymentEvent | null {
  const e = record(event);
  const object = record(record(e.data).object);
  const id = text(e.id);
  const created = typeof e.created === 'number' ? e.created : 0;
  if (id === null) return null;
  const orderId = text(record(object.metadata).orderId);
  const base = { id, created, orderId };
  const intentId = text(object.id);
  switch (e.type) {
    case 'payment_intent.succeeded': {
      if (intentId === null) return null;
      const charge = record(object.latest_charge);
      const card = record(record(charge.payment_method_details).card);
      const brand = text(card.brand);
      const last4 = text(card.last4);
      return {
        ...base,
        type: 'payment_intent.succeeded',
        paymentIntentId: intentId,
        amountCents: Number(object.amount_received ?? object.amount ?? 0),
        card: brand && last4 ? { brand, last4 } : null,
      };
    }
    case 'payment_intent.payment_failed': {
      if (intentId === null) return null;
      const error = record(object.last_payment_error);
      return {
        ...base,
        type: 'payment_intent.payment_failed',
        paymentIntentId: intentId,
        failureCode: text(error.decline_code) ?? text(error.code) ?? 'payment_failed',
        message: text(error.message) ?? 'The payment failed.',
      };
    }
    case 'payment_intent.canceled':
    case 'payment_intent.processing':
    case 'payment_intent.requires_action':
      if (intentId === null) return null;
      return { ...base, type: e.type, paymentIntentId: intentId };
    case 'charge.refunded': {
      const intent = text(object.payment_intent);
      if (intent === null) return null;
      return {
        ...base,
        type: 'charge.refunded',
        paymentIntentId: intent,
        refundedCents: Number(object.amount_refunded ?? 0),
      };
    }
    default:
      return null;
  }
}

function apply(
  order: PaymentOrder,
  patch: Partial<Order>,
  activity: OrderChange['activity'],
): PaymentDecision {
  return {
    kind: 'apply',
    change: {
      patch: {
        ...patch,
        rev: order.rev + 1,
        updatedById: STRIPE_ACTOR.id,
        updatedByName: STRIPE_ACTOR.name,
      },
      activity,
    },
  };
}

/**
 * The webhook's reducer: the next state of `order` for `event`, at time `now`. Orders only move
 * forward, so a repeated or late event is ignored and the same set of events leads to the same
 * final order in any delivery order:
 * - `succeeded` pays an order awaiting payment (`paid`, card brand and last 4); on an order
 *   canceled before the payment landed it records the payment and asks for a refund;
 * - `payment_failed` marks an order awaiting payment `payment_failed` (once: it stays so, with
 *   the failure code of the first decline delivered, until an attempt succeeds);
 * - `canceled` cancels an order still awaiting payment;
 * - `charge.refunded` raises `refundedCents` to the charge's running total (never lowers it), and
 *   a full refund makes a paid order `refunded`; one that arrives before the payment is deferred;
 * - `processing` and `requires_action` are not tracked on the order.
 */
export function reducePaymentEvent(
  order: PaymentOrder,
  event: PaymentEvent,
  now: number,
): PaymentDecision {
  if (order.paymentIntentId !== null && order.paymentIntentId !== event.paymentIntentId)
    return { kind: 'ignore', reason: 'another_payment_intent' };
  const intent = { paymentIntentId: event.paymentIntentId };
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const card = event.card ? { cardBrand: event.card.brand, cardLast4: event.card.last4 } : {};
      if (AWAITING_PAYMENT.includes(order.status))
        return apply(
          order,
          {
            ...intent,
            ...card,
            status: 'paid',
            paymentStatus: 'succeeded',
            failureCode: null,
            paidAt: now,
          },
          { kind: 'paid', data: { amountCents: event.amountCents, eventId: event.id, ...card } },
        );
      if (order.status === 'canceled' && order.paymentStatus !== 'succeeded') {
        const decision = apply(
          order,
          { ...intent, ...card, paymentStatus: 'succeeded', paidAt: now },
          {
            kind: 'paid',
            data: { amountCents: event.amountCents, eventId: event.id, afterCancel: true, ...card },
          },
        );
        return { ...(decision as { kind: 'apply'; change: OrderChange }), refundNeeded: true };
      }
      return { kind: 'ignore', reason: 'already_paid' };
    }
    case 'payment_intent.payment_failed':
      if (order.status !== 'pending_payment')
        return {
          kind: 'ignore',
          reason: order.status === 'payment_failed' ? 'already_failed' : 'not_awaiting_payment',
        };
      return apply(
        order,
        {
          ...intent,
          status: 'payment_failed',
          paymentStatus: 'failed',
          failureCode: event.failureCode,
        },
        {
          kind: 'payment_failed',
          data: { failureCode: event.failureCode, message: event.message, eventId: event.id },
        },
      );
    case 'payment_intent.canceled':
      if (!AWAITING_PAYMENT.includes(order.status))
        return { kind: 'ignore', reason: 'not_awaiting_payment' };
      return apply(
        order,
        { ...intent, status: 'canceled', paymentStatus: 'canceled', canceledAt: now },
        {
          kind: 'canceled',
          data: { from: order.status, reason: 'payment_canceled', eventId: event.id },
        },
      );
    case 'charge.refunded': {
      if (!PAID.includes(order.status) && order.status !== 'canceled')
        return { kind: 'defer', reason: 'refund_before_payment' };
      if (order.status === 'canceled' && order.paymentStatus !== 'succeeded')
        return { kind: 'defer', reason: 'refund_before_payment' };
      if (event.refundedCents <= order.refundedCents)
        return { kind: 'ignore', reason: 'already_refunded' };
      const refundedCents = Math.min(event.refundedCents, order.totalCents);
      const full = refundedCents >= order.totalCents;
      const status: OrderStatus = full && order.status !== 'canceled' ? 'refunded' : order.status;
      return apply(
        order,
        { refundedCents, status },
        {
          kind: 'refund',
          data: {
            amountCents: refundedCents - order.refundedCents,
            refundedCents,
            full,
            eventId: event.id,
          },
        },
      );
    }
    case 'payment_intent.processing':
    case 'payment_intent.requires_action':
      return { kind: 'ignore', reason: 'not_tracked' };
  }
}
