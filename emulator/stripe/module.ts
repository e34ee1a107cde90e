import { join } from 'node:path';
import type { BackendModule } from '../src/backend.ts';
import { LOCAL_KEYS, StripeDouble, type StripeDoubleOptions } from './index.ts';

/**
 * The doubles' settings from the backend's environment: `STRIPE_DOUBLE_PORT` (the API double's
 * port; 0, the default, picks a free one), `STRIPE_WEBHOOK_URL` (where events are delivered;
 * none by default) signed with `STRIPE_WEBHOOK_SECRET` when it is a local one (`whsec_local…`,
 * the default). The keys are always the local ones: a real Stripe key never reaches the doubles.
 */
export function doubleOptionsFromEnv(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  host: string,
): StripeDoubleOptions {
  const port = Number(env.STRIPE_DOUBLE_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`STRIPE_DOUBLE_PORT must be a port number, got "${env.STRIPE_DOUBLE_PORT}"`);
  const secret = env.STRIPE_WEBHOOK_SECRET?.startsWith('whsec_local')
    ? env.STRIPE_WEBHOOK_SECRET
    : LOCAL_KEYS.webhookSecret;
  const url = env.STRIPE_WEBHOOK_URL;
  return {
    dataDir: join(dataDir, 'stripe'),
    host,
    port,
    webhook: url ? { url, secret } : null,
  };
}

/** The running Stripe doubles, once the API double listens. */
export interface StripeService {
  double: StripeDouble | null;
}

/**
 * Runs the Stripe doubles inside the local backend: the API double on its own port (the Node
 * SDK's base path is always `/v1/`, which is Appwrite's), and everything under `/stripe/` on the
 * backend's port — the Stripe.js double at `/stripe/stripe.js`, the API for the browser at
 * `/stripe/v1/…`, and where the API double listens at `/stripe/`.
 */
export const stripeModule: BackendModule<'stripe'> = {
  name: 'stripe',
  routes: [],
  store: () => ({ double: null }),
  attach(backend, service) {
    const options = doubleOptionsFromEnv(process.env, backend.config.dataDir, backend.config.host);
    const starting = StripeDouble.start(options).then(
      (double) => {
        console.log(
          `  stripe:   API double at ${double.url}, Stripe.js double at /stripe/stripe.js`,
        );
        return double;
      },
      (error: unknown) => {
        // Without its doubles the backend cannot stand in for Stripe: stop, saying why.
        console.error(
          `[backend] the Stripe API double cannot listen on ${options.host}:${options.port} (STRIPE_DOUBLE_PORT): ${(error as Error).message}`,
        );
        process.exit(2);
      },
    );
    void starting.then((double) => (service.double = double));
    backend.httpFallbacks.push(async (req, res) => (await starting).handle(req, res, '/stripe'));
    return async () => (await starting).close();
  },
};
