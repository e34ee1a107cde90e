import { describe, expect, it } from 'vitest';
import { LOCAL_STRIPE, stripeBrowserSettings, stripeServerSettings } from './stripe-config.ts';

describe('stripeServerSettings', () => {
  it('uses Stripe itself when a secret key and webhook secret are set', () => {
    expect(
      stripeServerSettings({
        STRIPE_SECRET_KEY: 'sk_test_abc123',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      }),
    ).toEqual({
      mode: 'stripe',
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_x',
      sdkOptions: null,
    });
  });

  it('uses the local doubles at STRIPE_API_URL otherwise, with the local keys', () => {
    expect(stripeServerSettings({ STRIPE_API_URL: 'http://127.0.0.1:12111' })).toEqual({
      mode: 'local',
      secretKey: LOCAL_STRIPE.secretKey,
      webhookSecret: LOCAL_STRIPE.webhookSecret,
      sdkOptions: { host: '127.0.0.1', port: 12111, protocol: 'http' },
    });
  });

  it('in local mode, verifies webhooks with the secret of the endpoint the double created', () => {
    expect(
      stripeServerSettings({
        STRIPE_API_URL: 'http://127.0.0.1:8788',
        STRIPE_WEBHOOK_SECRET: 'whsec_9f',
      }).webhookSecret,
    ).toBe('whsec_9f');
    expect(
      stripeServerSettings({ STRIPE_API_URL: 'http://127.0.0.1:8788', STRIPE_WEBHOOK_SECRET: 'x' })
        .webhookSecret,
    ).toBe(LOCAL_STRIPE.webhookSecret);
  });

  it('says what is missing or malformed, all at once', () => {
    expect(() => stripeServerSettings({ STRIPE_SECRET_KEY: 'pk_test_1' })).toThrow(
      /STRIPE_SECRET_KEY must be a Stripe secret key.*STRIPE_WEBHOOK_SECRET must be set/,
    );
    expect(() => stripeServerSettings({})).toThrow(/STRIPE_API_URL must name the local Stripe/);
    expect(() => stripeServerSettings({ STRIPE_API_URL: 'ftp://x' })).toThrow(
      /must be an http\(s\) URL/,
    );
  });
});

describe('stripeBrowserSettings', () => {
  it('loads Stripe.js from Stripe with a publishable key', () => {
    expect(stripeBrowserSettings({ VITE_STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toEqual({
      mode: 'stripe',
      publishableKey: 'pk_test_abc',
      doubleScriptUrl: null,
    });
    expect(() => stripeBrowserSettings({ VITE_STRIPE_PUBLISHABLE_KEY: 'sk_test_abc' })).toThrow(
      /publishable key/,
    );
  });

  it('uses the Stripe.js double beside the local backend otherwise', () => {
    expect(stripeBrowserSettings({ VITE_APPWRITE_ENDPOINT: 'http://127.0.0.1:8787/v1' })).toEqual({
      mode: 'local',
      publishableKey: LOCAL_STRIPE.publishableKey,
      doubleScriptUrl: 'http://127.0.0.1:8787/stripe/stripe.js',
    });
  });
});
