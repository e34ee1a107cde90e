import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { flushOrder, signatureHeader } from './webhooks.ts';

const stripe = new Stripe('sk_test_unused');

describe('signatureHeader', () => {
  it('signs as Stripe does: the SDK verifies it, and refuses any other body or secret', () => {
    const payload = JSON.stringify(
      { id: 'evt_1', object: 'event', type: 'payment_intent.created' },
      null,
      2,
    );
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader(payload, 'whsec_test', now);
    expect(header).toMatch(new RegExp(`^t=${now},v1=[0-9a-f]{64}$`));
    expect(stripe.webhooks.constructEvent(payload, header, 'whsec_test').id).toBe('evt_1');
    expect(header).toBe(
      stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_test', timestamp: now }),
    );
    expect(() => stripe.webhooks.constructEvent(`${payload} `, header, 'whsec_test')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    expect(() => stripe.webhooks.constructEvent(payload, header, 'whsec_other')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });
});

describe('flushOrder', () => {
  it('keeps, reverses or shuffles (the same way for the same seed)', () => {
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(flushOrder(items, 'created', 1)).toEqual(items);
    expect(flushOrder(items, 'reverse', 1)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    const shuffled = flushOrder(items, 'shuffle', 42);
    expect([...shuffled].sort()).toEqual(items);
    expect(shuffled).not.toEqual(items);
    expect(flushOrder(items, 'shuffle', 42)).toEqual(shuffled);
    expect(flushOrder(items, 'shuffle', 43)).not.toEqual(shuffled);
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
