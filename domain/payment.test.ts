import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { PAYMENT_STATUSES, type OrderStatus } from './order.ts';
import {
  cancelRefundCents,
  canMovePayment,
  paymentStatusOf,
  planRefund,
  refundAfterCancelCents,
  refundableCents,
  refundIdempotencyKey,
  refundState,
  type RefundPlan,
} from './payment.ts';

const PAID = {
  status: 'paid' as OrderStatus,
  paymentStatus: 'succeeded' as const,
  totalCents: 2000,
  refundedCents: 0,
  currency: 'eur',
};

describe('the payment state machine', () => {
  it('maps PaymentIntent statuses, a returned intent with an error being a failure', () => {
    expect(paymentStatusOf('requires_payment_method', false)).toBe('requires_payment_method');
    expect(paymentStatusOf('requires_payment_method', true)).toBe('failed');
    expect(paymentStatusOf('requires_confirmation', false)).toBe('requires_payment_method');
    expect(paymentStatusOf('requires_action', false)).toBe('requires_action');
    expect(paymentStatusOf('processing', false)).toBe('processing');
    expect(paymentStatusOf('succeeded', false)).toBe('succeeded');
    expect(paymentStatusOf('canceled', false)).toBe('canceled');
  });

  it('moves forward, lets a failed attempt be retried, and never leaves succeeded or canceled', () => {
    expect(canMovePayment('requires_payment_method', 'requires_action')).toBe(true);
    expect(canMovePayment('requires_action', 'succeeded')).toBe(true);
    expect(canMovePayment('requires_action', 'failed')).toBe(true);
    expect(canMovePayment('failed', 'succeeded')).toBe(true);
    expect(canMovePayment('processing', 'requires_action')).toBe(false);
    for (const to of PAYMENT_STATUSES) {
      expect(canMovePayment('succeeded', to)).toBe(false);
      expect(canMovePayment('canceled', to)).toBe(false);
    }
  });
});

describe('refunds', () => {
  it('goes none → partial → full', () => {
    expect(refundState(0, 2000)).toBe('none');
    expect(refundState(1, 2000)).toBe('partial');
    expect(refundState(2000, 2000)).toBe('full');
    expect(refundableCents({ totalCents: 2000, refundedCents: 500 })).toBe(1500);
  });

  it('plans a partial refund keeping the status, then the rest making the order refunded', () => {
    const part = planRefund(PAID, 500) as RefundPlan;
    expect(part).toEqual({
      amountCents: 500,
      refundedCents: 500,
      state: 'partial',
      status: 'paid',
    });
    const rest = planRefund({ ...PAID, status: 'fulfilled', refundedCents: 500 }) as RefundPlan;
    expect(rest).toEqual({
      amountCents: 1500,
      refundedCents: 2000,
      state: 'full',
      status: 'refunded',
    });
  });

  it('refuses more than what is left, a non-positive or fractional amount, and unpaid orders', () => {
    const over = planRefund({ ...PAID, refundedCents: 500 }, 1501) as AppError;
    expect(over).toBeInstanceOf(AppError);
    expect(over.code).toBe('VALIDATION');
    expect(over.message).toBe('You can refund at most €15.00.');
    for (const amount of [0, -5, 2.5])
      expect((planRefund(PAID, amount) as AppError).message).toBe('Enter an amount to refund.');
    for (const status of ['pending_payment', 'payment_failed', 'canceled'] as OrderStatus[])
      expect((planRefund({ ...PAID, status }) as AppError).code).toBe('INVALID_TRANSITION');
    expect(
      (planRefund({ ...PAID, status: 'refunded', refundedCents: 2000 }) as AppError).message,
    ).toBe('This order was already refunded in full.');
  });
});

describe('refunds of canceled orders', () => {
  const card = { ...PAID, paymentIntentId: 'pi_1' };

  it('a cancel refunds what is left of a card payment, nothing without one', () => {
    expect(cancelRefundCents({ ...card, refundedCents: 500 })).toBe(1500);
    expect(cancelRefundCents({ ...card, paymentIntentId: null })).toBe(0);
    expect(cancelRefundCents({ ...card, status: 'pending_payment', paymentStatus: 'failed' })).toBe(
      0,
    );
  });

  it('a payment that landed on a canceled order is refunded until nothing is left', () => {
    expect(refundAfterCancelCents({ ...card, status: 'canceled' })).toBe(2000);
    expect(refundAfterCancelCents({ ...card, status: 'canceled', refundedCents: 2000 })).toBe(0);
    expect(refundAfterCancelCents({ ...card, status: 'paid' })).toBe(0);
    expect(refundAfterCancelCents({ ...card, status: 'canceled', paymentStatus: 'canceled' })).toBe(
      0,
    );
  });

  it('one Stripe idempotency key per order revision', () => {
    expect(refundIdempotencyKey('o1', 4)).toBe('refund:o1:4');
    expect(refundIdempotencyKey('o1', 'after-cancel')).toBe('refund:o1:after-cancel');
  });
});
