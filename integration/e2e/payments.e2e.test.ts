import { Databases, Query } from 'node-appwrite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { e2e, launch, screenshot, signedIn, type Desk } from './support/browser.ts';
import { adminClient } from './support/orders.ts';

// Card payments end to end in Chromium: customers in their own browser contexts on /shop and
// /track/:orderId (anonymous sessions), staff and a manager on the desk at the same time. The
// payment goes through the real path: the checkout function, the Stripe.js double served by the
// local backend (installed before loadStripe), the Stripe API double, its signed webhook to the
// stripe-webhook function, and realtime to both sides.

const card = (page: Page, number: number) =>
  page.locator(`[data-testid="order-card"][data-order-number="${number}"]`);

/**
 * Waits for a newly paid order's card on a staff board. The Paid column lists the oldest payment
 * first and renders only the cards in view (a virtualized list): after other tests have left
 * many paid orders on the board, the newest one is at the bottom, out of view. So the column is
 * scrolled to its end until the card is there.
 */
async function onBoard(page: Page, number: number): Promise<void> {
  const list = page.getByTestId('column-paid').getByRole('list');
  await expect
    .poll(
      async () => {
        if ((await list.count()) > 0)
          await list.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
        return card(page, number).count();
      },
      { timeout: 10_000, interval: 200 },
    )
    .toBe(1);
}

let serial = 0;

/** A customer: a fresh browser context (its own anonymous session and sessionStorage). */
async function customer(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[customer] page error: ${error.message}`));
  // Offline by default: nothing may come from Stripe itself.
  await page.route('https://js.stripe.com/**', (route) => route.abort());
  return { context, page };
}

/** Fills a cart (2 lattes, 1 croissant) and the customer's fields on /shop, and checks out. */
async function checkOut(page: Page, name: string): Promise<string> {
  serial += 1;
  const email = `shopper${Date.now()}.${serial}@example.test`;
  await page.goto(`${e2e().appUrl}/shop`);
  await page.getByRole('button', { name: 'Add Latte' }).click();
  await page.getByRole('button', { name: 'One Latte more' }).click();
  await page.getByRole('button', { name: 'Add Croissant' }).click();
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Check out' }).click();
  await page.getByLabel('Card number').waitFor();
  return email;
}

async function typeCard(page: Page, number: string): Promise<void> {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiration date').fill('1234');
  await page.getByLabel('Security code').fill('123');
}

const pay = (page: Page) => page.getByRole('button', { name: /^Pay / }).click();

/** Waits for the track page and reads its order number and id. */
async function tracked(page: Page): Promise<{ orderId: string; number: number }> {
  await page.waitForURL(/\/track\//);
  const title = await page.getByRole('heading', { name: /^Order #\d+$/ }).innerText();
  return {
    orderId: decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!),
    number: Number(title.replace(/\D/g, '')),
  };
}

async function ordersOf(email: string): Promise<OrderDocument[]> {
  const list = await new Databases(adminClient(e2e().backend)).listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    queries: [Query.equal('customerEmail', email)],
  });
  return list.documents as unknown as OrderDocument[];
}

async function orderUntil(
  email: string,
  check: (order: OrderDocument) => boolean,
): Promise<OrderDocument> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const [order] = await ordersOf(email);
    if (order && check(order)) return order;
    if (Date.now() > deadline)
      throw new Error(`order of ${email}: ${order ? order.status : 'none'} after 15 s`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A customer who checks out and pays with 4242; their page ends on the order's track page. */
async function paidOrder(
  browser: Browser,
  name: string,
): Promise<{ orderId: string; number: number; email: string; page: Page }> {
  const { page } = await customer(browser);
  const email = await checkOut(page, name);
  await typeCard(page, '4242424242424242');
  await pay(page);
  const order = await tracked(page);
  await page.getByTestId('track-status').filter({ hasText: 'Paid' }).waitFor();
  return { ...order, email, page };
}

/** "€12.34" → 1234. */
function cents(text: string): number {
  return Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
}

describe('card payments: the shop, order tracking and refunds (browser)', () => {
  let browser: Browser;
  let ana: Desk;
  let marco: Desk;

  beforeAll(async () => {
    browser = await launch();
    ana = await signedIn(browser, 'ana');
    marco = await signedIn(browser, 'manager');
    for (const desk of [ana, marco])
      await desk.page
        .getByTestId('connection')
        .and(desk.page.locator('[data-state="live"]'))
        .waitFor();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('pays with 4242 4242 4242 4242; the order appears on the staff desk; a double click and a reload make one order', async () => {
    const { page } = await customer(browser);
    const email = await checkOut(page, 'Cleo Customer');
    expect(await page.locator('script[src*="/stripe/stripe.js"]').count()).toBe(1);
    // Back to the cart and a reload: the same cart resumes the same order.
    await page.getByRole('button', { name: 'Back to the cart' }).click();
    // The menu held back after the reload: Check out waits for it (busy, and still named so),
    // instead of checking the cart against an empty menu.
    const menu = '**/collections/products/documents?*';
    let sendMenu!: () => void;
    const menuSent = new Promise<void>((send) => (sendMenu = send));
    await page.route(menu, async (route) => {
      await menuSent;
      await route.continue();
    });
    await page.reload();
    const checkOutButton = page.getByRole('button', { name: 'Check out' });
    await checkOutButton.dblclick();
    await checkOutButton.and(page.locator('[aria-busy="true"]')).waitFor();
    // Unpriced meanwhile: no "No longer on the menu", no total of €0.00.
    expect(await page.getByRole('table', { name: 'Cart' }).innerText()).toContain('Loading…');
    expect(await page.getByTestId('cart-total').innerText()).toBe('—');
    sendMenu();
    await page.getByLabel('Card number').waitFor();
    await page.unroute(menu);
    expect(await page.getByTestId('checkout-error').count()).toBe(0);
    await screenshot(page, 'shop');
    await typeCard(page, '4242424242424242');
    await pay(page);
    const order = await tracked(page);
    await page.getByTestId('track-status').filter({ hasText: 'Paid' }).waitFor();
    await onBoard(ana.page, order.number);
    const orders = await ordersOf(email);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({
      $id: order.orderId,
      status: 'paid',
      paymentStatus: 'succeeded',
      cardBrand: 'visa',
      cardLast4: '4242',
      totalCents: 1080,
    });
    await screenshot(page, 'track');
  });

  it('shows a declined card as Stripe says it, leaves the order payment_failed, and a retry with a good card pays it', async () => {
    const { page } = await customer(browser);
    const email = await checkOut(page, 'Dora Declined');
    await typeCard(page, '4000000000000002');
    await pay(page);
    await page
      .getByTestId('payment-error')
      .filter({ hasText: 'Your card was declined.' })
      .waitFor();
    // Said once: a decline is the payment's, not a card field's (the card form shows nothing).
    expect(await page.getByText('Your card was declined.').count()).toBe(1);
    expect(await page.getByTestId('payment-element').innerText()).not.toContain('declined');
    // The keyboard is back on Pay (it was disabled while the payment ran), not at the page's start.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''))
      .toMatch(/^Pay /);
    const failed = await orderUntil(email, (o) => o.status === 'payment_failed');
    expect(failed.failureCode).toBe('generic_decline');
    await screenshot(page, 'shop-declined');
    await typeCard(page, '4242424242424242');
    await pay(page);
    const order = await tracked(page);
    expect(order.orderId).toBe(failed.$id);
    await onBoard(ana.page, order.number);
    expect(await ordersOf(email)).toHaveLength(1);
  });

  it('shows a card field’s error once, next to the card fields, and then pays', async () => {
    const { page } = await customer(browser);
    await checkOut(page, 'Finn Fields');
    const element = page.getByTestId('payment-element');
    const once = async (message: string) => {
      await element.getByRole('alert').filter({ hasText: message }).waitFor();
      expect(await page.getByText(message).count(), message).toBe(1);
      expect(await page.getByTestId('payment-error').count(), message).toBe(0);
    };
    await pay(page);
    await once('Your card number is incomplete.');
    await screenshot(page, 'shop-field-error');
    await page.getByLabel('Card number').fill('4242424242424241');
    await pay(page);
    await once('Your card number is invalid.');
    await typeCard(page, '4242424242424242');
    await page.getByLabel('Expiration date').fill('0120');
    await pay(page);
    await once("Your card's expiration year is in the past.");
    await typeCard(page, '4242424242424242');
    await pay(page);
    await tracked(page);
  });

  it('pays after 3-D Secure is completed, and shows PAYMENT_AUTH_FAILED when it fails', async () => {
    const approved = await customer(browser);
    const approvedEmail = await checkOut(approved.page, 'Theo Three');
    await typeCard(approved.page, '4000002760003184');
    await pay(approved.page);
    const dialog = approved.page.getByRole('dialog', { name: '3D Secure authentication' });
    await dialog.getByRole('button', { name: 'Complete authentication' }).click();
    const order = await tracked(approved.page);
    await onBoard(ana.page, order.number);
    expect((await orderUntil(approvedEmail, (o) => o.status === 'paid')).$id).toBe(order.orderId);

    const refused = await customer(browser);
    const refusedEmail = await checkOut(refused.page, 'Fay Failed');
    await typeCard(refused.page, '4000002760003184');
    await pay(refused.page);
    await refused.page
      .getByRole('dialog', { name: '3D Secure authentication' })
      .getByRole('button', { name: 'Fail authentication' })
      .click();
    await refused.page
      .getByTestId('payment-error')
      .filter({ hasText: 'Card authentication failed. Try again or use another card.' })
      .waitFor();
    expect(refused.page.url()).toMatch(/\/shop$/);
    const [unpaid] = await ordersOf(refusedEmail);
    expect(unpaid!.status).not.toBe('paid');
    expect(unpaid!.paymentStatus).not.toBe('succeeded');
  });

  it('a manager refunds part and then the rest; the desk and the customer’s page show it; staff see no refund', async () => {
    const { orderId, page: track } = await paidOrder(browser, 'Rita Refund');
    const metric = marco.page.locator('.metric', { hasText: 'Refunded' }).locator('.metric__value');
    const before = cents(await metric.innerText());

    await ana.page.goto(`${e2e().appUrl}/orders/${orderId}`);
    await ana.page.getByRole('dialog').getByTestId('payment').waitFor();
    expect(await ana.page.getByRole('button', { name: 'Refund…' }).count()).toBe(0);

    await marco.page.goto(`${e2e().appUrl}/orders/${orderId}`);
    const drawer = marco.page.getByRole('dialog');
    await drawer.getByTestId('payment').filter({ hasText: 'VISA •••• 4242 · Paid' }).waitFor();
    await drawer.getByRole('button', { name: 'Refund…' }).click();
    const amount = drawer.getByLabel(/Amount to refund/);
    expect(await amount.inputValue()).toBe('10.80');
    await amount.fill('20');
    await drawer.getByRole('button', { name: 'Continue' }).click();
    await drawer.getByRole('alert').filter({ hasText: 'You can refund at most €10.80.' }).waitFor();
    await amount.fill('3.50');
    await drawer.getByRole('button', { name: 'Continue' }).click();
    await drawer.getByRole('alertdialog', { name: 'Confirm refund' }).waitFor();
    await screenshot(marco.page, 'drawer-refund-confirm');
    await drawer.getByRole('button', { name: 'Yes, refund' }).click();
    await drawer
      .getByTestId('payment')
      .filter({ hasText: 'VISA •••• 4242 · Paid · refunded €3.50 of €10.80' })
      .waitFor();
    await track
      .getByTestId('track-refund')
      .filter({ hasText: 'Refunded €3.50 of €10.80' })
      .waitFor();
    await track.getByTestId('track-status').filter({ hasText: 'Paid' }).waitFor();

    await drawer.getByRole('button', { name: 'Refund…' }).click();
    expect(await drawer.getByLabel(/Amount to refund/).inputValue()).toBe('7.30');
    await drawer.getByRole('button', { name: 'Continue' }).click();
    await drawer.getByRole('button', { name: 'Yes, refund' }).click();
    await drawer.getByTestId('payment').filter({ hasText: 'refunded €10.80 of €10.80' }).waitFor();
    await drawer.getByTestId('refunds').filter({ hasText: '€7.30 refunded' }).waitFor();
    expect(await drawer.getByTestId('refunds').locator('li').count()).toBe(2);
    await screenshot(marco.page, 'drawer-refunded');
    await track
      .getByTestId('track-status')
      .filter({ hasText: 'This order was refunded' })
      .waitFor();
    await track
      .getByTestId('track-refund')
      .filter({ hasText: 'Refunded €10.80 of €10.80' })
      .waitFor();
    await screenshot(track, 'track-refunded');
    await expect.poll(async () => cents(await metric.innerText())).toBe(before + 1080);
  });

  it('on a phone, keeps the order in sight at the bottom while the cart is below the menu', async () => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.route('https://js.stripe.com/**', (route) => route.abort());
    await page.goto(`${e2e().appUrl}/shop`);
    await page.getByRole('button', { name: 'Add Latte' }).click();
    await page.getByRole('button', { name: 'One Latte more' }).click();
    const bar = page.getByRole('region', { name: 'Your order at a glance' });
    const latte = await page.getByRole('listitem', { name: 'Latte' }).innerText();
    const price = /€\d+\.\d\d/.exec(latte)![0];
    const twice = `€${(2 * Number(price.slice(1))).toFixed(2)}`;
    expect(await bar.getByTestId('cart-bar-summary').innerText()).toBe(`2 items · ${twice}`);
    await screenshot(page, 'shop-phone-cart-bar');
    await bar.getByRole('button', { name: 'Review order' }).click();
    await bar.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('cart-title');
    expect(await page.getByTestId('cart-total').innerText()).toBe(twice);
    await context.close();
  });

  it('names in the cart a product taken off the menu while it was there, and checks out without it', async () => {
    const databases = new Databases(adminClient(e2e().backend));
    const productId = `gone${Date.now()}`;
    const name = `Seasonal tart ${Date.now() % 10_000}`;
    await databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.products,
      documentId: productId,
      data: {
        name,
        description: '',
        priceCents: 450,
        currency: 'eur',
        active: true,
        sortOrder: 900,
      },
    });
    const { context, page } = await customer(browser);
    await page.goto(`${e2e().appUrl}/shop`);
    await page.getByRole('button', { name: `Add ${name}` }).click();
    await page.getByRole('button', { name: 'Add Latte' }).click();
    await page.getByLabel('Your name').fill('Tara Tart');
    await page.getByLabel('Email').fill(`tart${Date.now()}@example.test`);
    await databases.updateDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.products,
      documentId: productId,
      data: { active: false },
    });
    // The menu is live: the cart says so at once, and checking out is refused the same way.
    const cart = page.getByRole('table', { name: 'Cart' });
    await cart.getByText(`${name} is no longer available.`).waitFor();
    expect(await page.getByRole('button', { name: `Add ${name}` }).count()).toBe(0);
    await page.getByRole('button', { name: 'Check out' }).click();
    await cart.getByText(`${name} is no longer available.`).waitFor();
    await screenshot(page, 'shop-product-gone');
    await cart.getByRole('button', { name: `Remove ${name}` }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByLabel('Card number').waitFor();
    await context.close();
  });

  it('keeps the menu live: a new price, a product taken off and a new one show without a reload', async () => {
    const databases = new Databases(adminClient(e2e().backend));
    const stamp = Date.now();
    const product = (id: string, data: Record<string, unknown>) =>
      databases.createDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.products,
        documentId: id,
        data: { description: '', currency: 'eur', active: true, sortOrder: 901, ...data },
      });
    const change = (id: string, data: Record<string, unknown>) =>
      databases.updateDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.products,
        documentId: id,
        data,
      });
    const scone = `Live scone ${stamp % 10_000}`;
    await product(`scone${stamp}`, { name: scone, priceCents: 300 });
    const { context, page } = await customer(browser);
    await page.goto(`${e2e().appUrl}/shop`);
    const card = page.getByRole('listitem', { name: scone });
    await card.getByText('€3.00').waitFor();
    await change(`scone${stamp}`, { priceCents: 320 });
    await card.getByText('€3.20').waitFor();
    await change(`scone${stamp}`, { active: false });
    await card.waitFor({ state: 'detached' });
    const bun = `Live bun ${stamp % 10_000}`;
    await product(`bun${stamp}`, { name: bun, priceCents: 250 });
    await page.getByRole('listitem', { name: bun }).getByText('€2.50').waitFor();
    await context.close();
  });

  it("refuses another customer's track page", async () => {
    const { orderId } = await paidOrder(browser, 'Owen Owner');
    const other = await customer(browser);
    await other.page.goto(`${e2e().appUrl}/track/${orderId}`);
    await other.page.getByText('Order not found').waitFor();
    await other.page
      .getByText('an order can be followed only in the browser it was placed in', { exact: false })
      .waitFor();
    expect(await other.page.getByTestId('track-status').count()).toBe(0);
    await other.page.getByRole('link', { name: 'Order something from the shop' }).click();
    await other.page.waitForURL((url) => url.pathname === '/shop');
  });
});
