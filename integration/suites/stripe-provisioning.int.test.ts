import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Functions } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS } from '../../domain/ids.ts';
import { FUNCTIONS_DIR } from '../../scripts/lib/function-bundle.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import {
  ensureWebhookEndpoint,
  resolveStripeProvisioning,
  WEBHOOK_EVENTS,
  type StripeProvisioning,
} from '../../scripts/lib/stripe-provisioning.ts';
import { schema } from '../../scripts/schema.ts';
import { backend, serverClient, uniqueTestId } from '../support/clients.ts';
import { backendDouble, stripeDoubleMissing } from '../support/payments.ts';
import { startDouble, type DoubleUnderTest } from '../support/stripe.ts';

// How provisioning sets up Stripe: the webhook endpoint it registers for stripe-webhook (against
// a Stripe double of the test's own), and the Stripe variables of the functions.

function settings(t: DoubleUnderTest, extra: Partial<StripeProvisioning> = {}): StripeProvisioning {
  return {
    mode: 'local',
    variables: { STRIPE_API_URL: t.double.url },
    secrets: {},
    stripe: t.stripe,
    webhookUrl: 'http://127.0.0.1:1/_functions/stripe-webhook/',
    webhookSecret: null,
    backendEndpointSecret: null,
    ...extra,
  };
}

describe('provisioning: the stripe-webhook endpoint', () => {
  it('registers one endpoint for the URL, keeps it while the function has its secret, replaces it otherwise', async () => {
    await using t = await startDouble();
    const url = 'http://127.0.0.1:1/_functions/stripe-webhook/';
    const first = await ensureWebhookEndpoint(settings(t), url, 'p1', {
      endpointId: null,
      hasSecret: false,
    });
    expect(first.secret).toMatch(/^whsec_/);
    const created = await t.stripe.webhookEndpoints.retrieve(first.endpointId);
    expect(created).toMatchObject({
      url,
      status: 'enabled',
      enabled_events: [...WEBHOOK_EVENTS],
      metadata: { livedesk_project: 'p1', livedesk_function: FUNCTIONS.stripeWebhook },
    });
    const kept = await ensureWebhookEndpoint(settings(t), url, 'p1', {
      endpointId: first.endpointId,
      hasSecret: true,
    });
    expect(kept).toEqual({ endpointId: first.endpointId, secret: null, change: null });

    // Another project on the same Stripe account is left alone.
    const other = await ensureWebhookEndpoint(settings(t), url, 'p2', {
      endpointId: null,
      hasSecret: false,
    });
    // The function lost its secret, then the URL changed: a new endpoint each time, the old removed.
    const renewed = await ensureWebhookEndpoint(settings(t), url, 'p1', {
      endpointId: first.endpointId,
      hasSecret: false,
    });
    expect(renewed.endpointId).not.toBe(first.endpointId);
    expect(renewed.secret).toMatch(/^whsec_/);
    const moved = await ensureWebhookEndpoint(settings(t), 'http://127.0.0.1:2/hook', 'p1', {
      endpointId: renewed.endpointId,
      hasSecret: true,
    });
    const listed = await t.stripe.webhookEndpoints.list({ limit: 100 });
    expect(listed.data.map((endpoint) => endpoint.id).sort()).toEqual(
      [other.endpointId, moved.endpointId].sort(),
    );
  });

  it('in local mode, uses the endpoint the backend keeps for that URL, with the backend’s secret', async () => {
    await using t = await startDouble();
    const url = 'http://127.0.0.1:1/_functions/stripe-webhook/';
    const ours = await ensureWebhookEndpoint(settings(t), url, 'p1', {
      endpointId: null,
      hasSecret: false,
    });
    const backendOwn = await t.stripe.webhookEndpoints.create({ url, enabled_events: ['*'] });
    const local = settings(t, { backendEndpointSecret: 'whsec_local_livedesk' });
    const adopted = await ensureWebhookEndpoint(local, url, 'p1', {
      endpointId: ours.endpointId,
      hasSecret: true,
    });
    expect(adopted).toMatchObject({ endpointId: backendOwn.id, secret: 'whsec_local_livedesk' });
    expect((await t.stripe.webhookEndpoints.list()).data.map((endpoint) => endpoint.id)).toEqual([
      backendOwn.id,
    ]);
    expect(
      await ensureWebhookEndpoint(local, url, 'p1', { endpointId: backendOwn.id, hasSecret: true }),
    ).toEqual({ endpointId: backendOwn.id, secret: null, change: null });
  });
});

describe('provisioning: where the local backend’s Stripe is', () => {
  it('registers the backend’s own function URL, with or without STRIPE_API_URL (as .env sets it)', async (context) => {
    const missing = await stripeDoubleMissing();
    if (missing) return context.skip(missing);
    const double = await backendDouble();
    const url = `${new URL(backend().endpoint).origin}/_functions/${FUNCTIONS.stripeWebhook}/`;
    for (const env of [{}, { STRIPE_API_URL: double.api }])
      expect(await resolveStripeProvisioning(env, backend().endpoint)).toMatchObject({
        mode: 'local',
        variables: { STRIPE_API_URL: double.api },
        webhookUrl: url,
      });
  });
});

describe('provisioning: the Stripe variables of the functions', () => {
  it('a second run on the provisioned backend changes nothing (the webhook endpoint included)', async () => {
    const report = await new Provisioner(serverClient(), () => {}, { env: {} }).apply(schema);
    expect(report.changes).toEqual([]);
  });

  it('gives the secret key as a secret variable with Stripe, and takes it back for the local double', async (context) => {
    const missing = await stripeDoubleMissing();
    if (missing) return context.skip(missing);
    // A function of its own, built from the checkout function's source.
    const id = uniqueTestId('stripe-vars-');
    const dir = mkdtempSync(join(tmpdir(), 'livedesk-fns-'));
    symlinkSync(join(FUNCTIONS_DIR, FUNCTIONS.checkout), join(dir, id));
    const spec = { ...schema.functions.find((fn) => fn.id === FUNCTIONS.checkout)!, id };
    const only = { ...schema, collections: [], buckets: [], functions: [spec] };
    const double = await backendDouble();
    const base = {
      stripe: double.stripe,
      webhookUrl: null,
      webhookSecret: null,
      backendEndpointSecret: null,
    };
    const withStripe: StripeProvisioning = {
      ...base,
      mode: 'stripe',
      variables: {},
      secrets: { STRIPE_SECRET_KEY: 'sk_test_contract' },
    };
    const local: StripeProvisioning = {
      ...base,
      mode: 'local',
      variables: { STRIPE_API_URL: double.api },
      secrets: {},
    };
    const provision = (stripe: StripeProvisioning) =>
      new Provisioner(serverClient(), () => {}, { functionsDir: dir, stripe }).apply(only);
    const variables = async () =>
      Object.fromEntries(
        (await new Functions(serverClient()).listVariables({ functionId: id })).variables
          .filter((variable) => variable.key.startsWith('STRIPE_'))
          .map((variable) => [variable.key, variable.secret ? 'secret' : variable.value]),
      );
    try {
      expect((await provision(withStripe)).changes).toContain(
        `+ secret variable ${id}.STRIPE_SECRET_KEY`,
      );
      expect(await variables()).toEqual({
        STRIPE_SECRET_KEY: 'secret',
        STRIPE_SECRET_KEY_SHA256: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      });
      expect((await provision(withStripe)).changes).toEqual([]);
      const changed = await provision({
        ...withStripe,
        secrets: { STRIPE_SECRET_KEY: 'sk_test_rolled' },
      });
      expect(changed.changes).toContain(`~ secret variable ${id}.STRIPE_SECRET_KEY`);
      expect((await provision(local)).changes).toEqual(
        expect.arrayContaining([
          `- variable ${id}.STRIPE_SECRET_KEY`,
          `- variable ${id}.STRIPE_SECRET_KEY_SHA256`,
          `+ variable ${id}.STRIPE_API_URL`,
        ]),
      );
      expect(await variables()).toEqual({ STRIPE_API_URL: double.api });
    } finally {
      await new Functions(serverClient()).delete({ functionId: id });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
