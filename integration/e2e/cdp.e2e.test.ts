import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_ARGS,
  CdpConnection,
  CdpError,
  CdpPage,
  launchDebuggableChromium,
  type DebuggableChromium,
} from '../../scripts/lib/cdp.ts';
import { e2e } from './support/browser.ts';

describe('the DevTools client of bench:ui (scripts/lib/cdp.ts)', () => {
  let chromium: DebuggableChromium;
  let connection: CdpConnection;
  beforeAll(async () => {
    chromium = await launchDebuggableChromium(e2e().chromium, CHROMIUM_ARGS);
    connection = await CdpConnection.open(chromium.wsEndpoint);
  });
  afterAll(async () => {
    connection?.close();
    await chromium?.close();
  });

  it('opens a page with the viewport asked for, navigates and evaluates in it', async () => {
    const page = await CdpPage.open(connection, { width: 1111, height: 777 });
    await page.navigate(`${e2e().appUrl}/login`);
    await page.waitFor(() => document.querySelector('input[type="email"]') !== null, {
      timeoutMs: 30_000,
    });
    expect(await page.evaluate(() => [window.innerWidth, window.innerHeight])).toEqual([1111, 777]);
    expect(await page.evaluate(() => Promise.resolve(location.pathname))).toBe('/login');
  });

  it('reports exceptions of the page, errors of evaluation and refused commands', async () => {
    const page = await CdpPage.open(connection, { width: 800, height: 600 });
    const thrown: string[] = [];
    page.onError((message) => thrown.push(message));
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('thrown later');
      });
    });
    await page.waitFor(() => new Promise((resolve) => setTimeout(() => resolve(true), 50)), {
      timeoutMs: 5_000,
    });
    await expect.poll(() => thrown.join()).toContain('thrown later');
    await expect(
      page.evaluate(() => {
        throw new Error('thrown now');
      }),
    ).rejects.toThrow('in the page: Error: thrown now');
    const refused = await page.send('No.such').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CdpError);
    expect((refused as CdpError).message).toMatch(/^No\.such: .*wasn't found/);
    await expect(page.waitFor(() => false, { timeoutMs: 300, pollMs: 50 })).rejects.toThrow(
      /timed out after 300 ms/,
    );
  });

  it('refuses commands once the connection is closed, instead of waiting forever', async () => {
    const other = await CdpConnection.open(chromium.wsEndpoint);
    expect(await other.send<{ product: string }>('Browser.getVersion')).toMatchObject({
      product: expect.stringMatching(/Chrome/),
    });
    other.close();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the closing handshake is over
    await expect(other.send('Browser.getVersion')).rejects.toThrow(
      'Browser.getVersion: connection closed',
    );
  });

  it('fails with what Chromium said when it cannot start', async () => {
    await expect(launchDebuggableChromium('/nonexistent/chromium', [])).rejects.toThrow(
      /cannot start \/nonexistent\/chromium/,
    );
  });
});
