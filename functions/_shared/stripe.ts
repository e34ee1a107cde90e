import Stripe from 'stripe';
import { stripeServerSettings, type StripeServerSettings } from '../../domain/stripe-config.ts';

/** The `stripe` SDK configured from the function's variables, with the settings it came from. */
export interface StripeAccess {
  stripe: Stripe;
  settings: StripeServerSettings;
}

let cached: { key: string; access: StripeAccess } | null = null;

/**
 * The `stripe` SDK as the function's variables configure it (`stripeServerSettings`): Stripe
 * itself with `STRIPE_SECRET_KEY`, or the local API double at `STRIPE_API_URL`. One client per
 * runtime process (its connections are kept alive between executions). Throws a readable error
 * when the variables are missing or malformed (provisioning sets them).
 */
export function stripeAccess(env: NodeJS.ProcessEnv = process.env): StripeAccess {
  const key = [env.STRIPE_SECRET_KEY, env.STRIPE_API_URL, env.STRIPE_WEBHOOK_SECRET].join('\n');
  if (cached?.key === key) return cached.access;
  const settings = stripeServerSettings(env);
  const stripe = new Stripe(settings.secretKey, {
    ...(settings.sdkOptions ?? {}),
    maxNetworkRetries: 2,
    timeout: 10_000,
    appInfo: { name: 'Livedesk' },
  });
  cached = { key, access: { stripe, settings } };
  return cached.access;
}
