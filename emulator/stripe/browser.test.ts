import { describe, expect, it } from 'vitest';
import { stripeJsDouble } from './browser.ts';

describe('stripeJsDouble', () => {
  it('is a classic script that defines window.Stripe (endive) bound to its API and key', () => {
    const source = stripeJsDouble({
      apiBase: 'http://127.0.0.1:1/stripe',
      publishableKey: 'pk_test_x',
    });
    const window = {
      document: {},
      fetch: () => Promise.reject(new Error('offline')),
    } as unknown as {
      Stripe: ((key: string) => Record<string, unknown>) & { version: string };
    };
    new Function('window', source)(window);
    expect(window.Stripe.version).toBe('endive');
    const stripe = window.Stripe('pk_test_x');
    for (const method of [
      'elements',
      'confirmPayment',
      'retrievePaymentIntent',
      'createToken',
      'createPaymentMethod',
      'confirmCardPayment',
    ])
      expect(typeof stripe[method], method).toBe('function');
    expect(() => window.Stripe('sk_test_x')).toThrow(/secret key/);
    expect(() => window.Stripe('pk_test_other')).toThrow(
      /only knows the publishable key pk_test_x/,
    );
  });
});
