import { describe, expect, it } from 'vitest';
import { stripeEventDocumentId } from './main.ts';

describe('stripe_events ids', () => {
  it('keeps a Stripe event id, and hashes one Appwrite could not take', () => {
    expect(stripeEventDocumentId('evt_1NG8Du2eZvKYlo2CUI79vXWy')).toBe(
      'evt_1NG8Du2eZvKYlo2CUI79vXWy',
    );
    const long = stripeEventDocumentId(`evt_${'x'.repeat(40)}`);
    expect(long).toMatch(/^e[0-9a-f]{35}$/);
    expect(stripeEventDocumentId(`evt_${'y'.repeat(40)}`)).not.toBe(long);
  });
});
