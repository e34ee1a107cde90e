import { describe, expect, it } from 'vitest';
import {
  PAYMENT_AUTH_FAILED_MESSAGE,
  paymentErrorMessage,
  paymentFormError,
} from './payment-error.ts';

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

describe('paymentFormError', () => {
  it('leaves a card field’s error to the Payment Element, which shows it next to the fields', () => {
    for (const message of [
      'Your card number is incomplete.',
      'Your card number is invalid.',
      "Your card's expiration year is in the past.",
    ])
      expect(paymentFormError({ type: 'validation_error', code: 'x', message })).toBeNull();
  });

  it('shows a decline, a failed 3-D Secure and any other error under the form', () => {
    expect(
      paymentFormError({
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      }),
    ).toBe('Your card was declined.');
    expect(
      paymentFormError({
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'We are unable to authenticate your payment method.',
      }),
    ).toBe(PAYMENT_AUTH_FAILED_MESSAGE);
    expect(paymentFormError({ type: 'api_connection_error', message: 'Network down.' })).toBe(
      'Network down.',
    );
  });
});
