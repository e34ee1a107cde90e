/**
 * The keys the local Stripe doubles accept, used when no real Stripe key is configured. They
 * look like test-mode keys and work nowhere else.
 */
export const LOCAL_STRIPE = {
  secretKey: 'sk_test_local_livedesk',
  publishableKey: 'pk_test_local_livedesk',
  webhookSecret: 'whsec_local_livedesk',
} as const;

/** How server code (the functions, the simulator) reaches Stripe. */
export interface StripeServerSettings {
  /** `stripe`: Stripe itself (test mode); `local`: the local Stripe doubles. */
  mode: 'stripe' | 'local';
  secretKey: string;
  webhookSecret: string;
  /** The `stripe` SDK's `host`/`port`/`protocol` options for the local API double (null: Stripe). */
  sdkOptions: { host: string; port: number; protocol: 'http' | 'https' } | null;
}

/** How the browser loads Stripe.js. */
export interface StripeBrowserSettings {
  mode: 'stripe' | 'local';
  publishableKey: string;
  /** Local mode: the Stripe.js double's script, to include before `loadStripe` runs. */
  doubleScriptUrl: string | null;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the server's Stripe settings: with `STRIPE_SECRET_KEY` set, Stripe itself (then
 * `STRIPE_WEBHOOK_SECRET` must be set too); otherwise the local doubles, at `STRIPE_API_URL`
 * (where the local backend's API double listens, e.g. `http://127.0.0.1:12111`; the backend
 * tells it at `GET /stripe/`), with the local keys and the signing secret of the endpoint the
 * webhook function was registered with (`STRIPE_WEBHOOK_SECRET`; the local one when unset).
 * Throws one error listing every problem.
 */
export function stripeServerSettings(env: Env): StripeServerSettings {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() ?? '';
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() ?? '';
  const problems: string[] = [];
  if (secretKey !== '') {
    if (!/^(sk|rk)_(test|live)_\w+$/.test(secretKey))
      problems.push('STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_… or rk_test_…)');
    if (!webhookSecret.startsWith('whsec_'))
      problems.push('STRIPE_WEBHOOK_SECRET must be set to the endpoint’s signing secret (whsec_…)');
    if (problems.length) throw new Error(`Invalid Stripe settings: ${problems.join('; ')}`);
    return { mode: 'stripe', secretKey, webhookSecret, sdkOptions: null };
  }
  let url: URL | null = null;
  try {
    url = new URL(env.STRIPE_API_URL ?? '');
  } catch {
    problems.push(
      'STRIPE_API_URL must name the local Stripe API double (e.g. http://127.0.0.1:12111) when STRIPE_SECRET_KEY is not set',
    );
  }
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:')
    problems.push(`STRIPE_API_URL must be an http(s) URL, got "${env.STRIPE_API_URL}"`);
  if (problems.length || !url) throw new Error(`Invalid Stripe settings: ${problems.join('; ')}`);
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return {
    mode: 'local',
    secretKey: LOCAL_STRIPE.secretKey,
    webhookSecret: webhookSecret.startsWith('whsec_') ? webhookSecret : LOCAL_STRIPE.webhookSecret,
    sdkOptions: {
      host: url.hostname,
      port: Number(url.port || (protocol === 'https' ? 443 : 80)),
      protocol,
    },
  };
}

/**
 * Reads the browser's Stripe settings: with `VITE_STRIPE_PUBLISHABLE_KEY` set, Stripe.js from
 * Stripe; otherwise the Stripe.js double the local backend serves at `/stripe/stripe.js` beside
 * `VITE_APPWRITE_ENDPOINT`.
 */
export function stripeBrowserSettings(env: Env): StripeBrowserSettings {
  const publishableKey = env.VITE_STRIPE_PUBLISHABLE_KEY?.trim() ?? '';
  if (publishableKey !== '') {
    if (!/^pk_(test|live)_\w+$/.test(publishableKey))
      throw new Error('VITE_STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_test_…)');
    return { mode: 'stripe', publishableKey, doubleScriptUrl: null };
  }
  let origin: string;
  try {
    origin = new URL(env.VITE_APPWRITE_ENDPOINT ?? '').origin;
  } catch {
    throw new Error(
      'VITE_APPWRITE_ENDPOINT must be set to find the local Stripe.js double when VITE_STRIPE_PUBLISHABLE_KEY is not set',
    );
  }
  return {
    mode: 'local',
    publishableKey: LOCAL_STRIPE.publishableKey,
    doubleScriptUrl: `${origin}/stripe/stripe.js`,
  };
}
