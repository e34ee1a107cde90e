/** The product's message for a failed 3-D Secure (docs/product.md §8, `PAYMENT_AUTH_FAILED`). */
export const PAYMENT_AUTH_FAILED_MESSAGE =
  'Card authentication failed. Try again or use another card.';

/** A Stripe.js error as `confirmPayment` gives it. */
export interface StripeJsError {
  type?: string;
  code?: string;
  decline_code?: string;
  message?: string;
}

/**
 * What the customer reads after `confirmPayment` failed: a failed or abandoned 3-D Secure is
 * the product's `PAYMENT_AUTH_FAILED`; every other error (declines, card field errors) is shown
 * as Stripe phrases it (`PAYMENT_DECLINED` shows Stripe's message).
 */
export function paymentErrorMessage(error: StripeJsError): {
  code: 'PAYMENT_AUTH_FAILED' | 'PAYMENT_DECLINED' | 'VALIDATION' | 'SERVER_ERROR';
  message: string;
} {
  if (error.code === 'payment_intent_authentication_failure')
    return { code: 'PAYMENT_AUTH_FAILED', message: PAYMENT_AUTH_FAILED_MESSAGE };
  const message = error.message?.trim() || 'The payment did not go through. Try again.';
  if (error.type === 'card_error') return { code: 'PAYMENT_DECLINED', message };
  if (error.type === 'validation_error') return { code: 'VALIDATION', message };
  return { code: 'SERVER_ERROR', message };
}

/**
 * What the payment form shows under the Payment Element after `confirmPayment` failed, or null
 * when there is nothing to add: a card field's error (`validation_error`: incomplete or invalid
 * number, expiry in the past, …) is shown by the Payment Element itself, next to its fields,
 * and shown again here it would be read twice. Declines, a failed 3-D Secure and every other
 * error come from the payment, not a field, and are shown here (as {@link paymentErrorMessage}).
 */
export function paymentFormError(error: StripeJsError): string | null {
  if (error.type === 'validation_error') return null;
  return paymentErrorMessage(error).message;
}
