import { ID, Users } from 'node-appwrite';
import { describe, expect, inject, it } from 'vitest';
import { backend, serverClient, uniqueTestId } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { CheckoutCustomers } from '../../scripts/lib/checkout-customers.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Random } from '../../scripts/lib/random.ts';
import { Seeder } from '../../scripts/lib/seeder.ts';
import { schema } from '../../scripts/schema.ts';

describe('a backend restarted or killed keeps its data', () => {
  it('keeps users across restart() and crashAndRestart() (SIGKILL)', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const users = new Users(serverClient(own));
    const create = (name: string) =>
      users.create({
        userId: ID.unique(),
        email: `${uniqueTestId('r')}@example.test`,
        password: 'password-123',
        name,
      });

    const before = await create('Before restart');
    await own.restart();
    expect((await users.get({ userId: before.$id })).name).toBe('Before restart');

    const acknowledged = await create('Before crash');
    await own.crashAndRestart();
    expect((await users.get({ userId: acknowledged.$id })).name).toBe('Before crash');
    expect((await users.get({ userId: before.$id })).name).toBe('Before restart');
  });
});

describe('a backend that exits before it is ready', () => {
  const badSetting = { BACKEND_ABUSE: 'sometimes' };
  const backendWords = 'BACKEND_ABUSE must be "enabled" or "disabled"';

  it('fails with its own words; a container is first started again on fresh ports', async (context) => {
    const kind = backend().kind;
    if (kind === 'local') {
      const { LocalBackend } = await import('../../scripts/lib/local-backend.ts');
      const error = await new LocalBackend({ env: badSetting }).start().then(
        () => null,
        (failure: unknown) => failure as Error,
      );
      expect(error?.message).toMatch(/exited early/);
      expect(error?.message).toContain(backendWords);
      return;
    }
    if (kind !== 'container') return context.skip(`the ${kind} target starts no backend per test`);
    const { LocalBackendContainer } = await import('../targets/container.ts');
    const image = inject('backendImage');
    const target = new LocalBackendContainer().withEnvironment(badSetting);
    const lines: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => void lines.push(args.join(' '));
    try {
      const error = await (image ? target.withImage(image) : target).start().then(
        () => null,
        (failure: unknown) => failure as Error,
      );
      expect(error?.message).toMatch(/Log stream ended/);
      expect(error?.message).toContain(backendWords);
    } finally {
      console.log = log;
    }
    expect(lines.filter((line) => line.includes('exited before it was ready'))).toHaveLength(2);
  });
});

describe('a restarted local backend keeps its Stripe API double where it was', () => {
  it('answers the same API address after restart(), so provisioned functions still reach it', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const origin = new URL(own.endpoint).origin;
    const api = async () =>
      ((await (await fetch(`${origin}/stripe/`)).json()) as { api: string }).api;
    const before = await api();
    expect(before).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await own.restart();
    expect(await api()).toBe(before);
    const health = await fetch(`${before}/v1/events?limit=1`, {
      headers: { authorization: 'Bearer sk_test_local_livedesk' },
    });
    expect(health.status).toBe(200);
  });
});

describe('a restarted local backend still takes card payments', () => {
  it('checks out, pays and applies the webhook after restart(), as before it', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const connection = {
      kind: own.kind,
      endpoint: own.endpoint,
      projectId: own.projectId,
      apiKey: own.apiKey,
    };
    const admin = serverClient(own);
    await new Provisioner(admin).apply(schema);
    await new Seeder(admin).ensureCatalog();
    const random = new Random(7);
    // One customer with a declined card first, then 4242: checkout, the Stripe double, its
    // signed webhook to stripe-webhook, and the order marked paid.
    const payOnce = async () => {
      const shop = new CheckoutCustomers(connection, {});
      await shop.prepare();
      const paid = await shop.placeAndPay(random, 1);
      return shop.waitForOrder(paid.customer, paid.answer.orderId, (o) => o.status === 'paid');
    };
    expect(await payOnce()).toMatchObject({ status: 'paid', paymentStatus: 'succeeded' });
    await own.restart();
    expect(await payOnce()).toMatchObject({ status: 'paid', paymentStatus: 'succeeded' });
    await own.crashAndRestart();
    expect(await payOnce()).toMatchObject({ status: 'paid', paymentStatus: 'succeeded' });
  });
});
