import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS } from '../../../scripts/lib/cdp.ts';
import type { E2eContext } from '../global-setup.ts';

/** The suite's context (app URL, backend, accounts). */
export function e2e(): E2eContext {
  return inject('e2e');
}

/** Launches headless Debian Chromium. */
export function launch(executablePath = e2e().chromium): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/** A demo account by role or first name (`ana`, `ben`, `manager`, `owner`). */
export function account(who: 'ana' | 'ben' | 'manager' | 'owner') {
  const email =
    who === 'manager' || who === 'owner' ? `${who}@livedesk.test` : `${who}@livedesk.test`;
  const found = e2e().accounts.find((a) => a.email === email);
  if (!found) throw new Error(`no demo account ${email}`);
  return found;
}

/** A person at a screen: their own browser context (cookies, storage) and page. */
export interface Desk {
  context: BrowserContext;
  page: Page;
  name: string;
}

/** How {@link signedIn} gets to the sign-in form. */
export interface SignInOptions {
  /** Given the page before it opens anything (init scripts, listeners). */
  prepare?: (page: Page) => Promise<void>;
  /**
   * Open `path` itself, signed out (the app shows the sign-in form there and the desk after it,
   * in one page load), instead of the sign-in page.
   */
  fromPath?: boolean;
}

/** Opens a fresh context, signs in as `who` through the login form and waits for the desk. */
export async function signedIn(
  browser: Browser,
  who: 'ana' | 'ben' | 'manager' | 'owner',
  path = '/',
  options: SignInOptions = {},
): Promise<Desk> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  await options.prepare?.(page);
  page.on('pageerror', (error) => console.error(`[${who}] page error: ${error.message}`));
  const { email, name } = account(who);
  const login = path === '/' ? '/login' : `/login?redirectTo=${encodeURIComponent(path)}`;
  await page.goto(`${e2e().appUrl}${options.fromPath ? path : login}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(e2e().password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  // The address is written to the history once the page is idle: a reload goes where it shows.
  await page.waitForURL((url) => url.pathname !== '/login');
  return { context, page, name };
}

/** Saves a screenshot under integration/e2e/artifacts/. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(e2e().artifacts, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
