import { describe, expect, it } from 'vitest';
import { PAYMENT_AUTH_FAILED_MESSAGE, paymentErrorMessage } from './payment-error.ts';

describe('paymentErrorMessage', () => {
  it('shows a decline as Stripe phrases it', () => {
    expect(
      paymentErrorMessage({
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      }),
    ).toEqual({ code: 'PAYMENT_DECLINED', message: 'Your card has insufficient funds.' });
    expect(
      paymentErrorMessage({ type: 'validation_error', message: 'Your card number is incomplete.' }),
    ).toEqual({ code: 'VALIDATION', message: 'Your card number is incomplete.' });
  });

  it('turns a failed 3-D Secure into the product’s PAYMENT_AUTH_FAILED message', () => {
    expect(
      paymentErrorMessage({
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'We are unable to authenticate your payment method.',
      }),
    ).toEqual({ code: 'PAYMENT_AUTH_FAILED', message: PAYMENT_AUTH_FAILED_MESSAGE });
    expect(PAYMENT_AUTH_FAILED_MESSAGE).toBe(
      'Card authentication failed. Try again or use another card.',
    );
  });

  it('never shows an empty message', () => {
    expect(paymentErrorMessage({ type: 'api_error', message: ' ' }).message).toBe(
      'The payment did not go through. Try again.',
    );
  });
});
