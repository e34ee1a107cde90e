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

/**
 * Cancels the PaymentIntent of an order canceled before it was paid, so that it cannot be paid
 * later. Best effort: an intent paid meanwhile (the webhook refunds it), already canceled, or a
 * Stripe that cannot be reached leaves the order canceled anyway; `log` says why. Returns whether
 * the intent was canceled.
 */
export async function cancelUnpaidIntent(
  paymentIntentId: string,
  log: (message: string) => void,
): Promise<boolean> {
  try {
    await stripeAccess().stripe.paymentIntents.cancel(paymentIntentId);
    return true;
  } catch (error) {
    log(`PaymentIntent ${paymentIntentId} not canceled: ${(error as Error).message}`);
    return false;
  }
}
