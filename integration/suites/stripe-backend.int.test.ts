import { describe, expect, it } from 'vitest';
import { LOCAL_KEYS } from '../../emulator/stripe/index.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { backend } from '../support/clients.ts';

// The Stripe doubles mounted on the local backend: everything under /stripe/ on the backend's
// own port (what the browser reaches), state kept in the backend's data folder.

describe('the local backend serves the Stripe doubles', () => {
  it('serves the Stripe.js double and the API for the browser under /stripe/, and keeps intents across a restart', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const origin = new URL(own.endpoint).origin;

    const info = (await (await fetch(`${origin}/stripe/`)).json()) as Record<string, string>;
    expect(info).toMatchObject({
      script: `${origin}/stripe/stripe.js`,
      browserApi: `${origin}/stripe`,
      publishableKey: LOCAL_KEYS.publishableKey,
    });
    expect(info.api).toMatch(/^http:\/\/[\d.]+:\d+$/);

    const script = await fetch(`${origin}/stripe/stripe.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    const source = await script.text();
    expect(source).toContain(`"apiBase":"${origin}/stripe"`);
    expect(source).toContain('window');

    const created = await fetch(`${origin}/stripe/v1/payment_intents`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${LOCAL_KEYS.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://127.0.0.1:5999',
      },
      body: 'amount=1500&currency=eur&metadata[orderId]=o-restart',
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5999');
    const intent = (await created.json()) as { id: string; client_secret: string };

    await own.restart();
    const read = await fetch(
      `${origin}/stripe/v1/payment_intents/${intent.id}?key=${LOCAL_KEYS.publishableKey}&client_secret=${intent.client_secret}`,
    );
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: intent.id, metadata: { orderId: 'o-restart' } });
    const missing = await fetch(`${origin}/stripe/v1/payment_intents/pi_nope`, {
      headers: { authorization: `Bearer ${LOCAL_KEYS.secretKey}` },
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe(
      'resource_missing',
    );
  });
});
