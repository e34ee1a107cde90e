import { describe, expect, it } from 'vitest';
import { resolveStripeProvisioning, type StripeProvisioning } from './stripe-provisioning.ts';

const ENDPOINT = 'http://127.0.0.1:9/v1';

describe('resolveStripeProvisioning', () => {
  it('with a secret key: Stripe, with the secret of an endpoint set up by hand', async () => {
    const resolved = (await resolveStripeProvisioning(
      { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_cli' },
      ENDPOINT,
    )) as StripeProvisioning;
    expect(resolved).toMatchObject({
      mode: 'stripe',
      variables: {},
      secrets: { STRIPE_SECRET_KEY: 'sk_test_abc' },
      webhookUrl: null,
      webhookSecret: 'whsec_cli',
    });
  });

  it('with a secret key and STRIPE_WEBHOOK_URL: registers that URL (no secret needed up front)', async () => {
    const resolved = (await resolveStripeProvisioning(
      { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_URL: 'https://fn.example.test/' },
      ENDPOINT,
    )) as StripeProvisioning;
    expect(resolved).toMatchObject({ webhookUrl: 'https://fn.example.test/', webhookSecret: null });
    await expect(
      resolveStripeProvisioning({ STRIPE_SECRET_KEY: 'sk_test_abc' }, ENDPOINT),
    ).rejects.toThrow(/STRIPE_WEBHOOK_SECRET must be set/);
  });

  it('without a key: the local double at STRIPE_API_URL, its variable for the functions', async () => {
    const resolved = (await resolveStripeProvisioning(
      { STRIPE_API_URL: 'http://127.0.0.1:8788' },
      ENDPOINT,
    )) as StripeProvisioning;
    expect(resolved).toMatchObject({
      mode: 'local',
      variables: { STRIPE_API_URL: 'http://127.0.0.1:8788' },
      secrets: {},
      // Not the local backend (nothing answered /stripe/): nothing to register by default.
      webhookUrl: null,
      backendEndpointSecret: 'whsec_local_livedesk',
    });
  });

  it('says why it cannot when there is neither a key nor a double', async () => {
    expect(await resolveStripeProvisioning({}, ENDPOINT)).toEqual({
      unavailable:
        'no STRIPE_SECRET_KEY, no STRIPE_API_URL, and http://127.0.0.1:9 serves no local Stripe double (GET /stripe/)',
    });
  });
});
