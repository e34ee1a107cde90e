import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ID, Teams, Users } from 'node-appwrite';
import { account, e2e, launch, screenshot, signedIn } from './support/browser.ts';
import { adminClient, createPaidOrder } from './support/orders.ts';

describe('sign-in, session and roles (browser)', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (!e2e().unavailable) browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('refuses a wrong password with the catalogue message', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${e2e().appUrl}/login`);
    await page.getByLabel('Email').fill(account('ana').email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Email or password is incorrect.' }).waitFor();
    await screenshot(page, 'login-error');
    // Shorter than any password can be: the same message, not the backend's parameter check.
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Email or password is incorrect.' }).waitFor();
    expect(await page.getByText(/Invalid `password` param/).count()).toBe(0);
    await context.close();
  });

  it('puts the focus on what to fix when a form is refused', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('name') ?? '');
    await page.goto(`${e2e().appUrl}/login`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(focused).toBe('email');
    await page.getByLabel('Email').fill(account('ana').email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(focused).toBe('password');
    await page.goto(`${e2e().appUrl}/signup`);
    await page.getByLabel('Your name').fill('Fay Focus');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(focused).toBe('email');
    await context.close();
  });

  it('sends a browser with only a shopper’s guest session to sign in, and signs in over it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Following an order makes the browser a guest session (as paying does).
    await page.goto(`${e2e().appUrl}/track/no-such-order`);
    await page.getByText('Order not found').waitFor();
    await page.goto(`${e2e().appUrl}/orders?status=paid`);
    await page.getByRole('heading', { name: 'Sign in to the desk' }).waitFor();
    await page.getByLabel('Email').fill(account('ana').email);
    await page.getByLabel('Password').fill(e2e().password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/orders' && url.search === '?status=paid');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await context.close();
  });

  it('sends a signed-out deep link to sign-in and back to the page afterwards', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${e2e().appUrl}/orders?status=paid`);
    await page.waitForURL(/\/login\?redirectTo=/);
    await page.getByLabel('Email').fill(account('ana').email);
    await page.getByLabel('Password').fill(e2e().password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/orders' && url.search === '?status=paid');
    await context.close();
  });

  it('restores the session on reload and signs out', async () => {
    const ana = await signedIn(browser, 'ana');
    await ana.page.reload();
    await ana.page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await ana.page.getByText('Ana Silva').first().isVisible()).toBe(true);
    await ana.page.getByRole('button', { name: 'Sign out' }).click();
    await ana.page.getByRole('heading', { name: 'Sign in to the desk' }).waitFor();
    await ana.page.reload();
    await ana.page.getByRole('heading', { name: 'Sign in to the desk' }).waitFor();
    await ana.context.close();
  });

  it('sends someone whose session ended to sign in, then back to the order', async () => {
    const order = await createPaidOrder(e2e().backend, 'Sasha Session');
    const ana = await signedIn(browser, 'ana', `/orders/${order.id}?view=board`);
    await ana.page.getByRole('dialog').waitFor();
    await ana.page.getByRole('button', { name: 'Claim', exact: true }).waitFor();
    await new Users(adminClient(e2e().backend)).deleteSessions({ userId: account('ana').id });
    // The desk may notice the ended session by itself first (its realtime socket ends with it) and
    // leave before the click lands: either way it must go to sign in.
    const signInPage = ana.page.getByRole('heading', { name: 'Sign in to the desk' });
    await Promise.race([
      ana.page
        .getByRole('button', { name: 'Claim', exact: true })
        .click()
        .catch(() => {}),
      signInPage.waitFor(),
    ]);
    await signInPage.waitFor();
    await ana.page.getByText('Your session has ended. Sign in again.').waitFor();
    await ana.page.waitForURL(
      (url) => url.searchParams.get('redirectTo') === `/orders/${order.id}?view=board`,
    );
    await ana.page.getByLabel('Email').fill(account('ana').email);
    await ana.page.getByLabel('Password').fill(e2e().password);
    await ana.page.getByRole('button', { name: 'Sign in' }).click();
    await ana.page.waitForURL((url) => url.pathname === `/orders/${order.id}`);
    await ana.page
      .getByRole('dialog')
      .getByRole('button', { name: 'Claim', exact: true })
      .waitFor();
    await ana.context.close();
  });

  it('shows navigation by role: staff, manager, owner', async () => {
    const nav = async (who: 'ana' | 'manager' | 'owner') => {
      const desk = await signedIn(browser, who);
      const links = await desk.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link')
        .allInnerTexts();
      await desk.context.close();
      return links;
    };
    expect(await nav('ana')).toEqual(['Board', 'Orders']);
    expect(await nav('manager')).toEqual(['Board', 'Orders', 'Products', 'Exports']);
    expect(await nav('owner')).toEqual(['Board', 'Orders', 'Products', 'Exports', 'Team']);
  });

  it('follows an owner’s change of the member’s role, and closes the desk when they are removed', async () => {
    const admin = adminClient(e2e().backend);
    const email = `una-${Date.now()}@example.test`;
    const una = await new Users(admin).create({
      userId: ID.unique(),
      email,
      password: 'una-works-here',
      name: 'Una Moved',
    });
    const teams = new Teams(admin);
    const membership = await teams.createMembership({
      teamId: 'desk',
      roles: ['staff'],
      userId: una.$id,
    });
    const order = await createPaidOrder(e2e().backend, 'Rhea Role');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${e2e().appUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('una-works-here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.waitFor();
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Board', 'Orders']);

    // Promoted: the open desk becomes a manager's, no reload.
    await teams.updateMembership({
      teamId: 'desk',
      membershipId: membership.$id,
      roles: ['manager'],
    });
    await nav.getByRole('link', { name: 'Products' }).waitFor();

    // Removed: no event reaches them (their connection goes quiet); the next refusal closes the desk.
    await page.goto(`${e2e().appUrl}/orders/${order.id}`);
    const claim = page.getByRole('dialog').getByRole('button', { name: 'Claim', exact: true });
    await claim.waitFor();
    await teams.deleteMembership({ teamId: 'desk', membershipId: membership.$id });
    const closed = page.getByRole('heading', { name: 'You’re no longer on the desk' });
    await Promise.race([claim.click().catch(() => {}), closed.waitFor()]);
    await closed.waitFor();
    await page.getByText(`${email} was removed from the desk team`).waitFor();
    await screenshot(page, 'removed-member');
    await context.close();
  });

  it('tells a new account without a desk membership to ask an owner', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${e2e().appUrl}/signup`);
    await page.getByLabel('Your name').fill('Nora New');
    await page.getByLabel('Email').fill(`nora-${Date.now()}@example.test`);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Use at least 8 characters.').waitFor();
    await page.getByLabel('Password').fill('a-long-enough-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'You’re not on the desk yet' }).waitFor();
    await context.close();
  });

  it('lets an invited person join the desk from the invitation link', async () => {
    const owner = await signedIn(browser, 'owner', '/team');
    const email = `joiner-${Date.now()}@example.test`;
    await owner.page.getByLabel('Email').fill(email);
    await owner.page.getByLabel('Name (optional)').fill('Jo Joiner');
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    const row = owner.page.getByTestId('member-row').filter({ hasText: email });
    await row.getByText('invited').waitFor();

    // The local backend logs the invitation link (there is no email); the invitee opens it.
    const log = await (await fetch(`${e2e().controlUrl}/log`)).text();
    const line = log.split('\n').find((l) => l.includes(`invitation for ${email}`)) ?? '';
    const link = line.slice(line.lastIndexOf(' ') + 1);
    expect(link).toMatch(/\/join\?membershipId=/);
    // Opened in a browser signed in as someone else: it says so and offers to sign out.
    const ana = await signedIn(browser, 'ana', '/');
    const page = ana.page;
    await page.goto(link);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'This invitation is for another account. Sign out, then accept it.' })
      .waitFor();
    await screenshot(page, 'join-other-account');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Accept invitation' }).click();

    // The invitation made their account: they choose a password before the desk opens.
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(await page.getByLabel('Your name').inputValue()).toBe('Jo Joiner');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Save and open the desk' }).click();
    await page.getByText('Use at least 8 characters.').waitFor();
    await screenshot(page, 'join-choose-password');
    await page.getByLabel('Password', { exact: true }).fill('jo-joins-the-desk');
    await page.getByRole('button', { name: 'Save and open the desk' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByText('Jo Joiner').first().isVisible()).toBe(true);

    // …and sign in with it after signing out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('jo-joins-the-desk');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await ana.context.close();

    // The link opened again says it was accepted, and leads to sign in.
    const again = await browser.newContext();
    const second = await again.newPage();
    await second.goto(link);
    await second.getByRole('button', { name: 'Accept invitation' }).click();
    await second
      .getByRole('alert')
      .filter({ hasText: 'You have already accepted this invitation. Sign in to open the desk.' })
      .waitFor();
    await screenshot(second, 'join-accepted-before');
    await second.getByRole('link', { name: 'Sign in' }).click();
    await second.waitForURL(/\/login/);
    await again.close();

    await owner.page.reload();
    await row.getByText('active').waitFor();
    await owner.context.close();
  });

  it('says who is already on the team instead of inviting them again', async () => {
    const owner = await signedIn(browser, 'owner', '/team');
    await owner.page.getByTestId('member-row').first().waitFor();
    await owner.page.getByLabel('Email').fill(account('ana').email);
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    const field = owner.page.locator('.field').filter({ has: owner.page.getByLabel('Email') });
    await field.getByText(`${account('ana').name} is already on the team.`).waitFor();
    await screenshot(owner.page, 'team-already-member');
    expect(await owner.page.getByText(/Something went wrong/).count()).toBe(0);
    await owner.page.getByLabel('Email').fill('someone-else@example.test');
    expect(await field.getByText(/is already on the team/).count()).toBe(0);
    await owner.context.close();
  });

  it('lets the owner see the team with roles, invite someone and see them as invited', async () => {
    const owner = await signedIn(browser, 'owner', '/team');
    const rows = owner.page.getByTestId('member-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThanOrEqual(4);
    const email = `invitee-${Date.now()}@example.test`;
    await owner.page.getByLabel('Email').fill(email);
    await owner.page.getByLabel('Name (optional)').fill('Ivy Invitee');
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    const invited = rows.filter({ hasText: email });
    await invited.waitFor();
    expect(await invited.getByText('invited').isVisible()).toBe(true);
    await screenshot(owner.page, 'team');

    await invited.getByRole('button', { name: /Remove/ }).click();
    await invited.waitFor({ state: 'detached' });
    await owner.context.close();
  });
});
