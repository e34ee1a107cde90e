import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_KEYS } from '../../emulator/stripe/index.ts';
import { e2e, launch, screenshot } from './support/browser.ts';

// The Stripe.js double served by the local backend, driven in Chromium through the real
// `@stripe/stripe-js` loader (`loadStripe` from `@stripe/stripe-js/pure`): the page includes the
// double's <script> first, as the product does in local mode, so loadStripe finds window.Stripe
// and injects nothing. PaymentIntents are made and checked with the `stripe` Node SDK.

const PURE = resolve(import.meta.dirname, '../../node_modules/@stripe/stripe-js/dist/pure.mjs');

function page(scriptUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Stripe.js double</title>
<script src="${scriptUrl}"></script></head>
<body>
<form id="checkout"><div id="payment"></div><button type="submit">Pay</button></form>
<output id="result"></output>
<script type="module">
  import { loadStripe } from '/pure.mjs';
  const clientSecret = new URL(location.href).searchParams.get('cs');
  const stripe = await loadStripe(${JSON.stringify(LOCAL_KEYS.publishableKey)});
  const elements = stripe.elements({ clientSecret, appearance: { theme: 'stripe' } });
  const element = elements.create('payment');
  window.changes = [];
  element.on('change', (event) => window.changes.push(event));
  element.on('ready', () => { document.body.dataset.ready = 'true'; });
  element.mount('#payment');
  window.retrieve = () => stripe.retrievePaymentIntent(clientSecret);
  document.getElementById('checkout').addEventListener('submit', async (event) => {
    event.preventDefault();
    const { error, paymentIntent } = await stripe.confirmPayment({
      elements,
      redirect: 'if_required',
      confirmParams: { return_url: location.href },
    });
    document.getElementById('result').textContent = JSON.stringify(
      error
        ? { error: { type: error.type, code: error.code, decline_code: error.decline_code, message: error.message } }
        : { status: paymentIntent.status, id: paymentIntent.id },
    );
  });
</script></body></html>`;
}

describe('the Stripe.js double (browser)', () => {
  let browser: Browser;
  let server: Server;
  let appOrigin: string;
  let stripe: Stripe;
  let scriptUrl: string;
  const stripeRequests: string[] = [];

  beforeAll(async () => {
    const backendOrigin = new URL(e2e().backend.endpoint).origin;
    const info = (await (await fetch(`${backendOrigin}/stripe/`)).json()) as {
      api: string;
      script: string;
    };
    scriptUrl = info.script;
    const api = new URL(info.api);
    stripe = new Stripe(LOCAL_KEYS.secretKey, {
      host: api.hostname,
      port: Number(api.port),
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    server = createServer((req, res) => {
      if (req.url?.startsWith('/pure.mjs')) {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(PURE));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(scriptUrl));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    appOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });

  async function checkout(amount = 1250): Promise<{ page: Page; intent: Stripe.PaymentIntent }> {
    const intent = await stripe.paymentIntents.create({
      amount,
      currency: 'eur',
      metadata: { orderId: `e2e-${Date.now()}` },
    });
    const context = await browser.newContext();
    const opened = await context.newPage();
    opened.on('pageerror', (error) => console.error(`[stripe page] ${error.message}`));
    await opened.route('https://js.stripe.com/**', (route) => {
      stripeRequests.push(route.request().url());
      return route.abort();
    });
    await opened.goto(`${appOrigin}/?cs=${encodeURIComponent(intent.client_secret!)}`);
    await opened.locator('body[data-ready="true"]').waitFor();
    return { page: opened, intent };
  }

  async function typeCard(p: Page, number: string, expiry = '1234', cvc = '123'): Promise<void> {
    await p.getByLabel('Card number').fill(number);
    await p.getByLabel('Expiration date').fill(expiry);
    await p.getByLabel('Security code').fill(cvc);
  }

  async function result(p: Page): Promise<Record<string, unknown>> {
    const output = p.locator('#result');
    await output.filter({ hasText: /./ }).waitFor();
    return JSON.parse(await output.innerText()) as Record<string, unknown>;
  }

  it('pays with 4242 4242 4242 4242 through loadStripe, the Payment Element and confirmPayment', async () => {
    const { page: p, intent } = await checkout();
    expect(
      await p.evaluate(() => (window as unknown as { Stripe: { version: string } }).Stripe.version),
    ).toBe('endive');
    expect(await p.locator('script[src^="https://js.stripe.com"]').count()).toBe(0);
    await typeCard(p, '4242424242424242');
    expect(await p.getByLabel('Card number').inputValue()).toBe('4242 4242 4242 4242');
    expect(await p.getByLabel('Expiration date').inputValue()).toBe('12 / 34');
    const lastChange = await p.evaluate(() =>
      (window as unknown as { changes: { complete: boolean }[] }).changes.at(-1),
    );
    expect(lastChange).toMatchObject({ elementType: 'payment', complete: true, empty: false });
    await screenshot(p, 'stripe-double-payment-element');
    await p.getByRole('button', { name: 'Pay' }).click();
    expect(await result(p)).toEqual({ status: 'succeeded', id: intent.id });
    const paid = await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] });
    expect(paid.status).toBe('succeeded');
    expect((paid.latest_charge as Stripe.Charge).payment_method_details?.card?.last4).toBe('4242');
    const retrieved = await p.evaluate(() =>
      (
        window as unknown as { retrieve: () => Promise<{ paymentIntent: { status: string } }> }
      ).retrieve(),
    );
    expect(retrieved.paymentIntent.status).toBe('succeeded');
    expect(stripeRequests).toEqual([]);
    await p.context().close();
  });

  it('shows a field error for an incomplete card and sends nothing', async () => {
    const { page: p, intent } = await checkout();
    await typeCard(p, '4242 4242');
    await p.getByRole('button', { name: 'Pay' }).click();
    expect(await result(p)).toEqual({
      error: {
        type: 'validation_error',
        code: 'incomplete_number',
        message: 'Your card number is incomplete.',
      },
    });
    await p.getByRole('alert').filter({ hasText: 'Your card number is incomplete.' }).waitFor();
    expect(await p.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true');
    expect((await stripe.paymentIntents.retrieve(intent.id)).last_payment_error).toBeNull();
    await p.context().close();
  });

  it("returns Stripe's decline for 4000 0000 0000 0002, and pays on a retry with a good card", async () => {
    const { page: p, intent } = await checkout();
    await typeCard(p, '4000000000000002');
    await p.getByRole('button', { name: 'Pay' }).click();
    expect(await result(p)).toEqual({
      error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    });
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe(
      'requires_payment_method',
    );
    await p.evaluate(() => (document.getElementById('result')!.textContent = ''));
    await typeCard(p, '4242424242424242');
    await p.getByRole('button', { name: 'Pay' }).click();
    expect(await result(p)).toEqual({ status: 'succeeded', id: intent.id });
    await p.context().close();
  });

  it('asks for 3-D Secure in a dialog; completing it pays', async () => {
    const { page: p, intent } = await checkout();
    await typeCard(p, '4000002760003184');
    await p.getByRole('button', { name: 'Pay' }).click();
    const dialog = p.getByRole('dialog', { name: '3D Secure authentication' });
    await dialog.waitFor();
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_action');
    await screenshot(p, 'stripe-double-3ds');
    await dialog.getByRole('button', { name: 'Complete authentication' }).click();
    expect(await result(p)).toEqual({ status: 'succeeded', id: intent.id });
    expect(await dialog.count()).toBe(0);
    await p.context().close();
  });

  it('asks for 3-D Secure in a dialog; failing it returns the authentication failure', async () => {
    const { page: p, intent } = await checkout();
    await typeCard(p, '4000000000003220');
    await p.getByRole('button', { name: 'Pay' }).click();
    await p
      .getByRole('dialog', { name: '3D Secure authentication' })
      .getByRole('button', { name: 'Fail authentication' })
      .click();
    expect(await result(p)).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message:
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      },
    });
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe(
      'requires_payment_method',
    );
    await p.context().close();
  });
});
