import Stripe from 'stripe';
import { FUNCTIONS } from '../../domain/ids.ts';
import { LOCAL_STRIPE, stripeServerSettings } from '../../domain/stripe-config.ts';

/** The events the `stripe-webhook` function applies (docs/stripe-doubles.md). */
export const WEBHOOK_EVENTS: readonly Stripe.WebhookEndpointCreateParams.EnabledEvent[] = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.refunded',
];

/** Every function variable provisioning manages for Stripe (others are left alone). */
export const STRIPE_VARIABLES = [
  'STRIPE_SECRET_KEY',
  'STRIPE_API_URL',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_WEBHOOK_ENDPOINT',
] as const;

/** How provisioning gives the functions Stripe, and reaches Stripe itself. */
export interface StripeProvisioning {
  /** `stripe`: Stripe in test mode (`STRIPE_SECRET_KEY`); `local`: the local API double. */
  mode: 'stripe' | 'local';
  /** Plain variables of every function that talks to Stripe (`STRIPE_API_URL` in local mode). */
  variables: Record<string, string>;
  /** Secret variables of every function that talks to Stripe (`STRIPE_SECRET_KEY`). */
  secrets: Record<string, string>;
  /** The SDK for provisioning's own calls (the webhook endpoint). */
  stripe: Stripe;
  /**
   * Where events go: the `stripe-webhook` function's URL, registered as a webhook endpoint
   * (null: nothing is registered, and {@link webhookSecret} is the secret of an endpoint set up
   * by hand — Stripe's dashboard, or `stripe listen --forward-to`).
   */
  webhookUrl: string | null;
  /** The signing secret to use when nothing is registered. */
  webhookSecret: string | null;
  /** Local mode: the secret of the endpoint the local backend keeps for its own `STRIPE_WEBHOOK_URL`. */
  backendEndpointSecret: string | null;
}

/** What provisioning does about Stripe: {@link StripeProvisioning}, or why it cannot. */
export type StripeResolution = StripeProvisioning | { unavailable: string };

type Env = Readonly<Record<string, string | undefined>>;

/** The SDK on `apiUrl` (the local double) or on Stripe (null). */
function sdk(secretKey: string, apiUrl: string | null): Stripe {
  if (apiUrl === null) return new Stripe(secretKey, { maxNetworkRetries: 2 });
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return new Stripe(secretKey, {
    host: url.hostname,
    port: Number(url.port || (protocol === 'https' ? 443 : 80)),
    protocol,
    maxNetworkRetries: 2,
  });
}

/** Asks the local backend where its Stripe API double listens (`GET /stripe/`), or null. */
async function discoverDouble(origin: string): Promise<string | null> {
  try {
    const response = await fetch(`${origin}/stripe/`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return null;
    const body = (await response.json()) as { api?: unknown };
    return typeof body.api === 'string' ? body.api : null;
  } catch {
    return null;
  }
}

/**
 * Reads how the functions reach Stripe: with `STRIPE_SECRET_KEY`, Stripe in test mode (then
 * either `STRIPE_WEBHOOK_URL`, the function's public URL that provisioning registers, or
 * `STRIPE_WEBHOOK_SECRET`, the secret of an endpoint set up by hand); otherwise the local API
 * double at `STRIPE_API_URL`, or where the local backend at `appwriteEndpoint` says its double
 * listens (`GET /stripe/`), with the webhook registered for the backend's own URL of
 * `stripe-webhook` (or `STRIPE_WEBHOOK_URL`). Malformed settings throw; a backend without a double
 * and no Stripe key is `unavailable` (the payment functions then answer that Stripe is not
 * configured).
 */
export async function resolveStripeProvisioning(
  env: Env,
  appwriteEndpoint: string,
): Promise<StripeResolution> {
  const origin = new URL(appwriteEndpoint).origin;
  const webhookUrl = env.STRIPE_WEBHOOK_URL?.trim() || null;
  if (env.STRIPE_SECRET_KEY?.trim()) {
    // A registered endpoint brings its own secret; without one, STRIPE_WEBHOOK_SECRET is required.
    const settings = stripeServerSettings(
      webhookUrl ? { ...env, STRIPE_WEBHOOK_SECRET: 'whsec_registered' } : env,
    );
    return {
      mode: 'stripe',
      variables: {},
      secrets: { STRIPE_SECRET_KEY: settings.secretKey },
      stripe: sdk(settings.secretKey, null),
      webhookUrl,
      webhookSecret: webhookUrl ? null : settings.webhookSecret,
      backendEndpointSecret: null,
    };
  }
  // The local backend says where its double listens; it also tells that the function's URL is
  // the backend's own (`/_functions/<id>/`).
  const discovered = await discoverDouble(origin);
  const apiUrl = env.STRIPE_API_URL?.trim() || discovered;
  if (!apiUrl)
    return {
      unavailable: `no STRIPE_SECRET_KEY, no STRIPE_API_URL, and ${origin} serves no local Stripe double (GET /stripe/)`,
    };
  const settings = stripeServerSettings({ STRIPE_API_URL: apiUrl });
  const localUrl = discovered ? `${origin}/_functions/${FUNCTIONS.stripeWebhook}/` : null;
  return {
    mode: 'local',
    variables: { STRIPE_API_URL: apiUrl },
    secrets: {},
    stripe: sdk(settings.secretKey, apiUrl),
    webhookUrl: webhookUrl ?? localUrl,
    webhookSecret: null,
    backendEndpointSecret: env.STRIPE_WEBHOOK_SECRET?.startsWith('whsec_local')
      ? env.STRIPE_WEBHOOK_SECRET
      : LOCAL_STRIPE.webhookSecret,
  };
}

/** The webhook endpoint `stripe-webhook` receives from, and its secret when it is new. */
export interface WebhookRegistration {
  endpointId: string;
  /** The signing secret, when the function must be given it (null: it has it already). */
  secret: string | null;
  /** What was done, for the report (null: nothing). */
  change: string | null;
}

function sameEvents(endpoint: Stripe.WebhookEndpoint): boolean {
  const events = endpoint.enabled_events;
  return events.includes('*') || WEBHOOK_EVENTS.every((type) => events.includes(type));
}

/**
 * Makes sure exactly one webhook endpoint of this project delivers to `url`, marked with
 * metadata `{livedesk_project, livedesk_function}`: kept when it is the one the function already
 * has the secret of (`known`), else created anew (Stripe shows an endpoint's secret only when it
 * creates it) and the project's older ones deleted. In local mode, an endpoint the local backend
 * keeps for that URL itself (its `STRIPE_WEBHOOK_URL`) is used with the backend's secret instead,
 * so that the function never receives the same events signed with two secrets.
 */
export async function ensureWebhookEndpoint(
  settings: StripeProvisioning,
  url: string,
  projectId: string,
  known: { endpointId: string | null; hasSecret: boolean },
): Promise<WebhookRegistration> {
  const { stripe } = settings;
  const endpoints = await stripe.webhookEndpoints.list({ limit: 100 }).autoPagingToArray({
    limit: 1000,
  });
  const enabled = endpoints.filter((endpoint) => endpoint.status === 'enabled');
  const isOurs = (endpoint: Stripe.WebhookEndpoint) =>
    endpoint.metadata?.livedesk_project === projectId &&
    endpoint.metadata?.livedesk_function === FUNCTIONS.stripeWebhook;
  const ours = endpoints.filter(isOurs);
  const removeOurs = async (keep: string | null) => {
    for (const endpoint of ours)
      if (endpoint.id !== keep) await stripe.webhookEndpoints.del(endpoint.id);
  };
  const backendOwn =
    settings.backendEndpointSecret &&
    enabled.find((endpoint) => !isOurs(endpoint) && endpoint.url === url);
  if (backendOwn) {
    await removeOurs(null);
    const same = known.endpointId === backendOwn.id && known.hasSecret;
    return {
      endpointId: backendOwn.id,
      secret: same ? null : settings.backendEndpointSecret,
      change: same ? null : `webhook endpoint ${backendOwn.id} (the backend's own) → ${url}`,
    };
  }
  const current = enabled.find(
    (endpoint) =>
      isOurs(endpoint) &&
      endpoint.id === known.endpointId &&
      endpoint.url === url &&
      sameEvents(endpoint),
  );
  if (current && known.hasSecret) {
    await removeOurs(current.id);
    return { endpointId: current.id, secret: null, change: null };
  }
  const created = await stripe.webhookEndpoints.create({
    url,
    enabled_events: [...WEBHOOK_EVENTS],
    description: `Livedesk ${projectId}: the stripe-webhook function`,
    metadata: { livedesk_project: projectId, livedesk_function: FUNCTIONS.stripeWebhook },
  });
  await removeOurs(created.id);
  if (!created.secret)
    throw new Error(`Stripe created webhook endpoint ${created.id} without a secret`);
  return {
    endpointId: created.id,
    secret: created.secret,
    change: `webhook endpoint ${created.id} → ${url}`,
  };
}
