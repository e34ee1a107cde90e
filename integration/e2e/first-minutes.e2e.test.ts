import { Databases, ID, Users } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, e2e, launch, screenshot, signedIn, type Desk } from './support/browser.ts';
import { adminClient, createPaidOrder } from './support/orders.ts';

// What a person notices in the first minutes (issue 15, item 7), in Debian's Chromium.

/** The top of each element, in page pixels. */
const tops = (page: Page, selectors: string[]) =>
  page.evaluate(
    (list) => list.map((s) => document.querySelector(s)!.getBoundingClientRect().top),
    selectors,
  );

/** What has the focus: its role or tag and its order number, if any. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      role: element?.getAttribute('role') ?? element?.tagName.toLowerCase() ?? null,
      number: element?.dataset.orderNumber ?? null,
      inDialog: Boolean(element?.closest('dialog[open]')),
    };
  });

describe('the first minutes (browser)', () => {
  let browser: Browser;
  let ana: Desk;

  beforeAll(async () => {
    browser = await launch();
    ana = await signedIn(browser, 'ana');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the sign-in form does not move when its messages appear', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${e2e().appUrl}/login`);
    const parts = ['.auth__card', 'label[for] + input[type="password"]', 'button[type="submit"]'];
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const before = await tops(page, parts);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Enter a valid email address.').waitFor();
    await page.getByText('Enter your password.').waitFor();
    expect(await tops(page, parts)).toEqual(before);
    await page.getByLabel('Email').fill(account('ana').email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Email or password is incorrect.').waitFor();
    expect(await tops(page, parts)).toEqual(before);
    await context.close();
  });

  it('the sign-up form does not move when its field messages appear', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${e2e().appUrl}/signup`);
    const create = page.getByRole('button', { name: 'Create account' });
    await create.waitFor();
    const parts = ['.auth__card', 'input[type="password"]', 'button[type="submit"]'];
    const before = await tops(page, parts);
    await page.getByLabel('Your name').fill('   ');
    await create.click();
    await page.getByText('Enter a name.').waitFor();
    await page.getByText('Enter a valid email address.').waitFor();
    await page.getByText('Use at least 8 characters.').waitFor();
    expect(await tops(page, parts)).toEqual(before);
    await context.close();
  });

  it('a long email wraps inside the "not on the desk yet" card', async () => {
    const email = `${'a-very-long-mailbox-name'.repeat(3)}@${'subdomain.'.repeat(4)}example.test`;
    await new Users(adminClient(e2e().backend)).create({
      userId: ID.unique(),
      email,
      password: e2e().password,
      name: 'Lou Longmail',
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${e2e().appUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(e2e().password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'You’re not on the desk yet' }).waitFor();
    const overflow = await page.evaluate(() => {
      const card = document.querySelector('.auth__card')!;
      const strong = card.querySelector('strong')!.getBoundingClientRect();
      const box = card.getBoundingClientRect();
      return { scroll: card.scrollWidth - card.clientWidth, right: strong.right - box.right };
    });
    expect(overflow.scroll).toBe(0);
    expect(overflow.right).toBeLessThanOrEqual(0);
    await context.close();
  });

  it('staff see one primary action on an unclaimed order', async () => {
    const order = await createPaidOrder(e2e().backend, 'Pia Primary');
    await ana.page.goto(`${e2e().appUrl}/orders/${order.id}?view=board`);
    const actions = ana.page.getByRole('dialog').getByRole('region', { name: 'Actions' });
    await actions.getByRole('button', { name: 'Claim', exact: true }).waitFor();
    const primaries = actions.locator('.btn--primary');
    expect(await primaries.allInnerTexts()).toEqual(['Start preparing']);
    await ana.page.keyboard.press('Escape');
    await ana.page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('the drawer keeps the focus inside, closes on Esc and gives the focus back to the card', async () => {
    const order = await createPaidOrder(e2e().backend, 'Fay Focus');
    // Paid long ago, so it is the first card of the (virtualized) Paid column whatever else is there.
    await new Databases(adminClient(e2e().backend)).updateDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: order.id,
      data: { paidAt: '2026-01-01T08:00:00.000Z' } as Record<string, unknown>,
    });
    await ana.page.goto(`${e2e().appUrl}/`);
    const card = ana.page.locator(
      `[data-testid="order-card"][data-order-number="${order.number}"]`,
    );
    await card.waitFor({ timeout: 15_000 });
    await card.focus();
    await ana.page.keyboard.press('Enter');
    const dialog = ana.page.getByRole('dialog');
    await dialog.getByTestId('assignee').waitFor();
    expect(await dialog.evaluate((element) => (element as HTMLDialogElement).open)).toBe(true);
    // Tab through more stops than the drawer has: the focus never leaves it.
    for (let i = 0; i < 25; i++) {
      await ana.page.keyboard.press('Tab');
      const now = await focused(ana.page);
      if (now.role !== 'body') expect(now.inDialog, `Tab ${i + 1}`).toBe(true);
    }
    // The page behind is inert: a click on the header goes nowhere but closes the drawer.
    await ana.page.mouse.click(20, 450);
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(ana.page)).toMatchObject({ number: String(order.number) });

    await card.focus();
    await ana.page.keyboard.press('Enter');
    await dialog.getByTestId('assignee').waitFor();
    await ana.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(ana.page)).toMatchObject({ number: String(order.number) });
  });

  it('closing the drawer goes back to where it was opened from: Back does not open it again', async () => {
    const order = await createPaidOrder(e2e().backend, 'Cleo Close');
    const page = ana.page;
    await page.goto(`${e2e().appUrl}/orders?q=${encodeURIComponent('Cleo Close')}`);
    const row = page.locator(`[data-testid="order-row"][data-order-number="${order.number}"]`);
    await row.waitFor({ timeout: 15_000 });
    const entries = () => page.evaluate(() => history.length);
    const before = await entries();
    await row.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('assignee').waitFor();
    // The entry is written once the page has painted the drawer.
    await expect.poll(entries).toBe(before + 1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForURL(/\/orders\?q=Cleo/);
    expect(await entries()).toBe(before + 1);
    // It went back: Forward opens the order again.
    await page.goForward();
    await dialog.getByTestId('assignee').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/orders/${order.id}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Opened from a link: closing puts the list in its place.
    await page.goto(`${e2e().appUrl}/orders/${order.id}`);
    await dialog.getByTestId('assignee').waitFor({ timeout: 15_000 });
    const linked = await entries();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/orders');
    await expect.poll(entries).toBe(linked);
  });

  it('the table keeps its highlight on the same order as new orders arrive, and Esc returns to the rows', async () => {
    const first = await createPaidOrder(e2e().backend, 'Hana Highlight');
    await ana.page.goto(`${e2e().appUrl}/orders`);
    // The rows are in the page in the order of their slots; on screen by `aria-rowindex`.
    const topRow = ana.page.locator('[data-testid="order-row"][aria-rowindex="2"]');
    await ana.page
      .locator(`[data-testid="order-row"][data-order-number="${first.number}"]`)
      .waitFor({ timeout: 15_000 });
    await ana.page.getByRole('rowgroup').focus();
    await ana.page.keyboard.press('ArrowDown');
    const active = ana.page.locator('[data-testid="order-row"][aria-selected="true"]');
    const number = await active.getAttribute('data-order-number');
    expect(number).toBe(String(first.number));
    await ana.page.keyboard.press('Enter');
    await ana.page.getByRole('dialog').getByTestId('assignee').waitFor();
    for (const name of ['Newer One', 'Newer Two']) {
      const newer = await createPaidOrder(e2e().backend, name);
      await ana.page
        .locator(`[data-testid="order-row"][data-order-number="${newer.number}"]`)
        .waitFor({ state: 'attached', timeout: 15_000 });
    }
    expect(await topRow.getAttribute('data-order-number')).not.toBe(number);
    // The page holds the rows in the order of their slots; `aria-owns` gives them in the order
    // they are on screen.
    const owned = await ana.page.getByRole('rowgroup', { name: /^Order rows/ }).evaluate((list) =>
      (list.getAttribute('aria-owns') ?? '').split(' ').map((id) => {
        const row = document.getElementById(id)!;
        return {
          index: Number(row.getAttribute('aria-rowindex')),
          top: row.getBoundingClientRect().top,
        };
      }),
    );
    expect(owned.length).toBeGreaterThan(2);
    expect(owned.map((row) => row.index)).toEqual(owned.map((_, i) => owned[0]!.index + i));
    expect(owned.map((row) => row.top)).toEqual(
      [...owned.map((row) => row.top)].sort((a, b) => a - b),
    );
    expect(await active.count()).toBe(1);
    expect(await active.getAttribute('data-order-number')).toBe(number);
    await ana.page.keyboard.press('Escape');
    await ana.page.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await focused(ana.page)).role).toBe('rowgroup');
    // ↓ moves from the highlighted order, not from its old position.
    await ana.page.keyboard.press('ArrowUp');
    expect(await active.getAttribute('data-order-number')).not.toBe(number);
  });

  it('names an unknown filter value in the URL and shows every order instead of none', async () => {
    await ana.page.goto(`${e2e().appUrl}/orders?assignee=unassigned&status=paid,lost`);
    const notice = ana.page.getByTestId('unknown-filter-notice');
    await notice.waitFor();
    // (The assignee is judged once the team's members are loaded.)
    await expect
      .poll(() => notice.innerText(), { timeout: 15_000 })
      .toBe(
        'This link has values the table doesn’t know, so they were ignored: status “lost”, assignee “unassigned”.',
      );
    const table = ana.page.getByTestId('orders-table');
    await ana.page.getByTestId('order-row').first().waitFor();
    await screenshot(ana.page, 'table-unknown-filter');
    expect(Number(await table.getAttribute('data-row-count'))).toBeGreaterThan(0);
    expect(await ana.page.locator('#assignee-filter').inputValue()).toBe('');
    // Changing a filter writes a clean URL: the notice goes.
    await ana.page.locator('#assignee-filter').selectOption('none');
    await ana.page.waitForURL(/assignee=none/);
    expect(await notice.count()).toBe(0);
  });

  it('shows table dates in the browser’s locale, in the numeric form of its date inputs, and amounts too', async () => {
    for (const [locale, pattern, amount] of [
      ['en-US', /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} [AP]M$/, /^€[\d,]+\.\d{2}$/],
      ['de-DE', /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/, /^[\d.]+,\d{2}\u00a0€$/],
    ] as const) {
      const context = await browser.newContext({ locale, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${e2e().appUrl}/login?redirectTo=%2Forders`);
      await page.getByLabel('Email').fill(account('ana').email);
      await page.getByLabel('Password').fill(e2e().password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const cell = page.getByTestId('order-row').first().getByRole('cell').nth(1);
      await cell.waitFor({ timeout: 15_000 });
      expect(await cell.innerText()).toMatch(pattern);
      const total = page.getByTestId('order-row').first().getByRole('cell').nth(6);
      expect(await total.innerText()).toMatch(amount);
      expect(await page.evaluate(() => navigator.language)).toBe(locale);
      await context.close();
    }
  });
});
