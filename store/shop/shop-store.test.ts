import { describe, expect, it, vi } from 'vitest';
import type { Product } from '../../domain/entities.ts';
import { AppError } from '../../domain/errors.ts';
import type { Order } from '../../domain/order.ts';
import { makeOrder } from '../sync/testing/orders.ts';
import { Prng } from '../sync/testing/prng.ts';
import { createShopStore } from './shop-store.ts';
import type { CheckoutAnswer, ShopTransport } from './transport.ts';

const LATTE = {
  id: 'latte',
  name: 'Latte',
  priceCents: 400,
  currency: 'eur',
  active: true,
  sortOrder: 1,
  updatedAt: 1,
} as Product;
const BAGEL = {
  id: 'bagel',
  name: 'Bagel',
  priceCents: 280,
  currency: 'eur',
  active: true,
  sortOrder: 2,
  updatedAt: 1,
} as Product;

interface FakeTransport extends ShopTransport {
  calls: { orderId: string; items: unknown }[];
  /** Sends a product change to whoever follows the catalog. */
  productChanged(product: Product): void;
  menu: Product[];
  status: string;
  failWith: AppError | null;
  hold: boolean;
  release(): void;
}

/** A scripted transport: records calls; `checkout` answers with `status` (held until released). */
function fakeTransport(): FakeTransport {
  const calls: { orderId: string; items: unknown }[] = [];
  let ids = 0;
  let release: (() => void) | null = null;
  const followers = new Set<(product: Product) => void>();
  const t: FakeTransport = {
    calls,
    menu: [LATTE, BAGEL],
    productChanged: (product) => followers.forEach((follow) => follow(product)),
    followProducts: async (onProduct) => {
      followers.add(onProduct);
      return () => followers.delete(onProduct);
    },
    status: 'pending_payment',
    failWith: null,
    hold: false,
    release: () => release?.(),
    newId: () => `order-${++ids}`,
    ensureSession: async () => 'user-1',
    listProducts: async () => t.menu,
    productImageUrl: () => '',
    async checkout(request) {
      calls.push({ orderId: request.orderId, items: request.items });
      if (t.hold) await new Promise<void>((done) => (release = done));
      if (t.failWith) throw t.failWith;
      return {
        orderId: request.orderId,
        number: 1000 + calls.length,
        clientSecret: `pi_${request.orderId}_secret_x`,
        amountCents: 800,
        currency: 'eur',
        status: t.status,
      } satisfies CheckoutAnswer;
    },
    readOrder: async (): Promise<Order> => {
      throw new AppError('NOT_FOUND', 'This order does not exist.');
    },
    followOrder: async () => () => {},
  };
  return t;
}

function memory() {
  const data = new Map<string, string>();
  return {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

async function filled(transport = fakeTransport(), storage = memory()) {
  const store = createShopStore({ transport, storage });
  await store.getState().loadCatalog();
  store.getState().setQty('latte', 2);
  store.getState().setCustomer({ customerName: 'Cleo', customerEmail: 'cleo@example.test' });
  return { store, transport, storage };
}

describe('the shop store', () => {
  it('checks the cart and the customer here first, sending nothing when they are wrong', async () => {
    const { store, transport } = await filled();
    store.getState().setCustomer({ customerEmail: 'cleo@' });
    store.getState().setQty('latte', 0);
    await store.getState().startCheckout();
    expect(store.getState().fieldErrors).toEqual({
      items: 'Add at least one item to the cart.',
      customerEmail: 'Enter a valid email address.',
    });
    expect(transport.calls).toEqual([]);
  });

  it('makes one order for a double click, and resumes it after a reload', async () => {
    const { store, transport, storage } = await filled();
    transport.hold = true;
    const first = store.getState().startCheckout();
    const second = store.getState().startCheckout();
    expect(store.getState().checkout.status).toBe('starting');
    await vi.waitFor(() => expect(transport.calls).toHaveLength(1));
    transport.release();
    await Promise.all([first, second]);
    expect(transport.calls).toHaveLength(1);
    expect(store.getState().checkout).toMatchObject({
      status: 'open',
      pending: { orderId: 'order-1', clientSecret: 'pi_order-1_secret_x', number: 1001 },
    });
    transport.hold = false;
    const reloaded = createShopStore({ transport, storage });
    await reloaded.getState().loadCatalog();
    expect(reloaded.getState().cart.lines).toEqual([{ productId: 'latte', qty: 2 }]);
    await reloaded.getState().startCheckout();
    expect(transport.calls.map((c) => c.orderId)).toEqual(['order-1', 'order-1']);
    expect(transport.calls[1]!.items).toEqual([
      { productId: 'latte', qty: 2, unitPriceCents: 400 },
    ]);
  });

  it('checks a cart asked for before the menu is read against the menu once read, not an empty one', async () => {
    const transport = fakeTransport();
    const storage = memory();
    const { store: before } = await filled(transport, storage);
    let readMenu: (() => void) | null = null;
    transport.listProducts = () => new Promise((done) => (readMenu = () => done(transport.menu)));
    const reloaded = createShopStore({ transport, storage });
    expect(reloaded.getState().cart).toEqual(before.getState().cart);
    const loading = reloaded.getState().loadCatalog();
    const checkout = reloaded.getState().startCheckout();
    expect(reloaded.getState().checkout.status).toBe('starting');
    expect(transport.calls).toEqual([]);
    readMenu!();
    await Promise.all([loading, checkout]);
    expect(reloaded.getState().fieldErrors).toEqual({});
    expect(transport.calls).toEqual([
      { orderId: 'order-1', items: [{ productId: 'latte', qty: 2, unitPriceCents: 400 }] },
    ]);
    expect(reloaded.getState().checkout.status).toBe('open');
  });

  it('reads the menu for a checkout when nobody has, and sends nothing when it cannot', async () => {
    const transport = fakeTransport();
    const storage = memory();
    await filled(transport, storage);
    transport.listProducts = async () => {
      throw new AppError('OFFLINE', 'You appear to be offline.');
    };
    const reloaded = createShopStore({ transport, storage });
    await reloaded.getState().startCheckout();
    expect(reloaded.getState().catalog.status).toBe('error');
    expect(reloaded.getState().checkout.status).toBe('idle');
    expect(reloaded.getState().fieldErrors).toEqual({});
    expect(transport.calls).toEqual([]);
    transport.listProducts = async () => transport.menu;
    await reloaded.getState().startCheckout();
    expect(transport.calls).toHaveLength(1);
  });

  it('makes a new order when the cart changed, and after a canceled one', async () => {
    const { store, transport } = await filled();
    await store.getState().startCheckout();
    store.getState().closeCheckout();
    store.getState().setQty('bagel', 1);
    await store.getState().startCheckout();
    transport.failWith = new AppError('INVALID_TRANSITION', 'This order was canceled.');
    await store.getState().startCheckout();
    expect(store.getState().checkout).toMatchObject({
      status: 'idle',
      pending: null,
      error: { message: 'This order was canceled.' },
    });
    transport.failWith = null;
    await store.getState().startCheckout();
    expect(transport.calls.map((c) => c.orderId)).toEqual([
      'order-1',
      'order-2',
      'order-2',
      'order-3',
    ]);
  });

  it('shows the function’s field messages by product, and goes on to the order once paid', async () => {
    const { store, transport } = await filled();
    transport.failWith = new AppError('CART_INVALID', 'Latte is no longer available.', {
      fields: [{ field: 'items[0].productId', message: 'Latte is no longer available.' }],
    });
    await store.getState().startCheckout();
    expect(store.getState().fieldErrors).toEqual({
      'items.latte': 'Latte is no longer available.',
    });
    transport.failWith = null;
    transport.status = 'paid';
    await store.getState().startCheckout();
    expect(store.getState().checkout).toMatchObject({
      status: 'paid',
      pending: null,
      paidOrderId: 'order-1',
    });
    expect(store.getState().cart.lines).toEqual([]);
  });
});

describe('trackOrder', () => {
  it('follows first, reads once the subscription is made; an older revision never replaces a newer one', async () => {
    const rng = new Prng(3);
    const paid = makeOrder(rng, { id: 'o1', number: 7, createdAt: 1_000, status: 'paid' });
    const preparing = { ...paid, status: 'preparing' as const, rev: paid.rev + 1 };
    let push: ((order: Order) => void) | null = null;
    const calls: string[] = [];
    const transport: ShopTransport = {
      ...fakeTransport(),
      followOrder: async (_id, onOrder) => {
        calls.push('follow');
        push = onOrder;
        await new Promise((resolve) => setTimeout(resolve, 20)); // the subscription being made
        calls.push('followed');
        return () => calls.push('stop');
      },
      readOrder: async () => {
        calls.push('read');
        push!(preparing); // a change lands before the read answers
        return paid;
      },
    };
    const store = createShopStore({ transport, storage: null });
    const stop = store.getState().trackOrder('o1');
    await vi.waitFor(() => expect(store.getState().tracked.status).toBe('ready'));
    expect(calls).toEqual(['follow', 'followed', 'read']);
    expect(store.getState().tracked.order).toMatchObject({ status: 'preparing' });
    stop();
    expect(calls.at(-1)).toBe('stop');
  });

  it('says missing for an order this session may not read', async () => {
    const store = createShopStore({ transport: fakeTransport(), storage: null });
    store.getState().trackOrder('someone-elses');
    await vi.waitFor(() => expect(store.getState().tracked.status).toBe('missing'));
    expect(store.getState().tracked.error?.message).toBe('This order does not exist.');
  });
});

describe('followCatalog', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('keeps the menu live: a product repriced, taken off and added show at once', async () => {
    const transport = fakeTransport();
    const store = createShopStore({ transport, storage: memory() });
    const stop = store.getState().followCatalog();
    await settle();
    expect(store.getState().catalog.products.map((p) => p.id)).toEqual(['latte', 'bagel']);
    transport.productChanged({ ...LATTE, priceCents: 420, updatedAt: 2 });
    transport.productChanged({ ...BAGEL, active: false, updatedAt: 2 });
    expect(store.getState().catalog.products.map((p) => [p.id, p.priceCents, p.active])).toEqual([
      ['latte', 420, true],
      ['bagel', 280, false],
    ]);
    stop();
    transport.productChanged({ ...BAGEL, updatedAt: 3 });
    expect(store.getState().catalog.products.find((p) => p.id === 'bagel')?.active).toBe(false);
  });

  it('applies a change heard before the catalog was read, unless the read is newer', async () => {
    const transport = fakeTransport();
    transport.menu = [{ ...LATTE, updatedAt: 5 }];
    const store = createShopStore({ transport, storage: memory() });
    store.getState().followCatalog();
    await Promise.resolve();
    transport.productChanged({ ...LATTE, priceCents: 1, updatedAt: 4 });
    transport.productChanged({ ...BAGEL, updatedAt: 6 });
    await settle();
    expect(store.getState().catalog.products.map((p) => [p.id, p.priceCents])).toEqual([
      ['latte', 400],
      ['bagel', 280],
    ]);
  });
});
