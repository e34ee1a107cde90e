import type { Stripe } from '@stripe/stripe-js';
import { stripeBrowserSettings } from '../../domain/stripe-config.ts';

let loading: Promise<Stripe> | null = null;

function injectScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`The card form could not be loaded from ${src}.`));
    document.head.appendChild(script);
  });
}

/**
 * Stripe.js, loaded on first use (when a checkout opens, never with the page): with
 * `VITE_STRIPE_PUBLISHABLE_KEY`, `loadStripe` from `@stripe/stripe-js` fetches it from Stripe;
 * without, the local backend's Stripe.js double (`/stripe/stripe.js`) is installed as
 * `window.Stripe` first, so `loadStripe` finds it and loads nothing (docs/stripe-doubles.md).
 * A failure is not kept: the next call tries again.
 */
export function openStripe(): Promise<Stripe> {
  loading ??= (async () => {
    const settings = stripeBrowserSettings(import.meta.env as Record<string, string | undefined>);
    const w = window as unknown as { Stripe?: unknown };
    if (settings.doubleScriptUrl && !w.Stripe) await injectScript(settings.doubleScriptUrl);
    const { loadStripe } = await import('@stripe/stripe-js/pure');
    const stripe = await loadStripe(settings.publishableKey);
    if (!stripe) throw new Error('The card form could not be loaded.');
    return stripe;
  })();
  const attempt = loading;
  attempt.catch(() => {
    if (loading === attempt) loading = null;
  });
  return attempt;
}
