import { AppError } from './errors.ts';
import { formatMoney } from './money.ts';
import type { Order, OrderStatus, PaymentStatus } from './order.ts';

type PaymentFacts = Pick<
  Order,
  'status' | 'paymentStatus' | 'paymentIntentId' | 'totalCents' | 'refundedCents'
>;

/** Stripe's PaymentIntent statuses. */
export type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled';

/**
 * The order's `paymentStatus` for a PaymentIntent status. A PaymentIntent back in
 * `requires_payment_method` with a `last_payment_error` is a failed attempt (`failed`).
 */
export function paymentStatusOf(status: IntentStatus, hasPaymentError: boolean): PaymentStatus {
  switch (status) {
    case 'requires_payment_method':
      return hasPaymentError ? 'failed' : 'requires_payment_method';
    case 'requires_confirmation':
      return 'requires_payment_method';
    case 'requires_capture':
      return 'processing';
    default:
      return status;
  }
}

/**
 * How a payment moves (docs/product.md §5, mirroring Stripe): `requires_payment_method →
 * processing | requires_action → succeeded | failed`; a failed attempt can be retried;
 * `succeeded` and `canceled` are final.
 */
export const PAYMENT_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  requires_payment_method: ['processing', 'requires_action', 'succeeded', 'failed', 'canceled'],
  processing: ['succeeded', 'failed', 'canceled'],
  requires_action: ['processing', 'succeeded', 'failed', 'canceled'],
  failed: ['requires_payment_method', 'processing', 'requires_action', 'succeeded', 'canceled'],
  succeeded: [],
  canceled: [],
};

/** Whether a payment may move from `from` to `to`. */
export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return PAYMENT_TRANSITIONS[from].includes(to);
}

/** How much of a payment has been refunded. */
export type RefundState = 'none' | 'partial' | 'full';

/** `none`, `partial` or `full` for `refundedCents` of `totalCents`. */
export function refundState(refundedCents: number, totalCents: number): RefundState {
  if (refundedCents <= 0) return 'none';
  return refundedCents >= totalCents ? 'full' : 'partial';
}

/** What is left to refund on an order, in cents. */
export function refundableCents(order: Pick<Order, 'totalCents' | 'refundedCents'>): number {
  return Math.max(0, order.totalCents - order.refundedCents);
}

/** Order statuses in which the payment was taken and can be refunded. */
export const REFUNDABLE_STATUSES: readonly OrderStatus[] = [
  'paid',
  'preparing',
  'ready',
  'fulfilled',
];

/** The result of a refund: its amount, the new total refunded and the order's status after it. */
export interface RefundPlan {
  amountCents: number;
  refundedCents: number;
  state: RefundState;
  status: OrderStatus;
}

/**
 * Plans a refund of `amountCents` (all that is left when omitted) on `order`: only a paid order
 * can be refunded, by a positive whole number of cents, up to what is left. A full refund makes
 * the order `refunded`; a partial one keeps its status.
 */
export function planRefund(
  order: Pick<Order, 'status' | 'paymentStatus' | 'totalCents' | 'refundedCents' | 'currency'>,
  amountCents?: number,
): RefundPlan | AppError {
  if (!REFUNDABLE_STATUSES.includes(order.status) || order.paymentStatus !== 'succeeded') {
    const message =
      order.status === 'refunded'
        ? 'This order was already refunded in full.'
        : 'Only a paid order can be refunded.';
    return new AppError('INVALID_TRANSITION', message);
  }
  const left = refundableCents(order);
  const amount = amountCents ?? left;
  if (!Number.isInteger(amount) || amount < 1)
    return new AppError('VALIDATION', 'Enter an amount to refund.', { field: 'amountCents' });
  if (amount > left)
    return new AppError(
      'VALIDATION',
      `You can refund at most ${formatMoney(left, order.currency)}.`,
      { field: 'amountCents', refundableCents: left },
    );
  const refundedCents = order.refundedCents + amount;
  const state = refundState(refundedCents, order.totalCents);
  return {
    amountCents: amount,
    refundedCents,
    state,
    status: state === 'full' ? 'refunded' : order.status,
  };
}

/**
 * Whether the order's money was taken by card through Stripe: a PaymentIntent that succeeded.
 * Orders the admin scripts write (seed, simulator, tests) have no PaymentIntent: there is
 * nothing at Stripe to refund, so canceling them refunds nothing.
 */
export function paidThroughStripe(
  order: Pick<Order, 'paymentIntentId' | 'paymentStatus'>,
): boolean {
  return order.paymentIntentId !== null && order.paymentStatus === 'succeeded';
}

/** What canceling `order` refunds: all that is left of a card payment, 0 when there is none. */
export function cancelRefundCents(order: PaymentFacts): number {
  if (!REFUNDABLE_STATUSES.includes(order.status) || !paidThroughStripe(order)) return 0;
  return refundableCents(order);
}

/**
 * What is still to refund on an order canceled before its payment landed (the webhook records
 * such a payment, then refunds it in full), 0 otherwise.
 */
export function refundAfterCancelCents(order: PaymentFacts): number {
  if (order.status !== 'canceled' || !paidThroughStripe(order)) return 0;
  return refundableCents(order);
}

/**
 * The Stripe idempotency key of the refund made by the change from revision `rev` of an order
 * (`after-cancel` for the webhook's refund of a payment that landed on a canceled order): a
 * retried request never refunds twice, and two refunds decided on the same revision cannot both
 * go through with different amounts.
 */
export function refundIdempotencyKey(orderId: string, rev: number | 'after-cancel'): string {
  return `refund:${orderId}:${rev}`;
}
