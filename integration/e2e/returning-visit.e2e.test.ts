import { Databases, Functions, Users } from 'node-appwrite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import { account, e2e, launch, signedIn } from './support/browser.ts';
import { keepServerSnapshot } from '../../scripts/lib/server-snapshot.ts';
import { adminClient, createPaidOrder, userClient } from './support/orders.ts';

// A returning user's desk (issue 20): the orders kept in IndexedDB paint the table at once, the
// catch-up brings what changed while away, and the id sweep removes what was deleted meanwhile.
// A first visit on a device starts the same way from the desk's server-kept snapshot.

const row = (page: Page, number: number) =>
  page.locator(`[data-testid="order-row"][data-order-number="${number}"]`);

/**
 * What the page's IndexedDB of snapshots holds: per snapshot (a header under its key, segments
 * under `[key, page]`, the first screen under `[key, 'screen']`), the text of its segments and
 * first screen, where every order's id is (none: no database).
 */
const snapshots = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('livedesk-snapshots');
        // Never create the app's database: a probe that finds none says so and leaves none.
        open.onupgradeneeded = () => open.transaction!.abort();
        open.onerror = () => resolve([]);
        open.onsuccess = () => {
          const db = open.result;
          const store = db.transaction('snapshots', 'readonly').objectStore('snapshots');
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onsuccess = () => {
            db.close();
            const texts = new Map<string, string>();
            keys.result.forEach((key, i) => {
              const owner = typeof key === 'string' ? key : String((key as unknown[])[0]);
              const value = values.result[i] as { text?: string; segment?: { text?: string } };
              const text = value.text ?? value.segment?.text ?? '';
              texts.set(owner, (texts.get(owner) ?? '') + text);
            });
            resolve([...texts.values()]);
          };
          values.onerror = () => reject(values.error);
        };
      }),
  );

/**
 * Before the app runs: records every state of the connection badge with the order rows shown
 * then (the numbers of `watched` among them), as the DOM changes (`window.__paints`).
 */
const recordPaints = (page: Page, watched: number[]) =>
  page.addInitScript((numbers: number[]) => {
    const paints: { state: string | null; rows: number; watched: number[]; first: boolean }[] = [];
    (window as unknown as { __paints: typeof paints }).__paints = paints;
    let last = '';
    new MutationObserver(() => {
      const state =
        document.querySelector<HTMLElement>('[data-testid="connection"]')?.dataset.state ?? null;
      const shown = document.querySelectorAll<HTMLElement>('[data-testid="order-row"]');
      const present = numbers.filter((n) =>
        [...shown].some((element) => element.dataset.orderNumber === String(n)),
      );
      const first = document.querySelector('[data-first-screen]') !== null;
      const key = `${state}|${shown.length}|${present.join()}|${first}`;
      if (key === last) return;
      last = key;
      paints.push({ state, rows: shown.length, watched: present, first });
    }).observe(document, { subtree: true, childList: true, attributes: true });
  }, watched);

const paints = (page: Page) =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          __paints: { state: string | null; rows: number; watched: number[]; first: boolean }[];
        }
      ).__paints,
  );

/** Ben claims the paid order `orderId` (rev 1) through order-action. */
async function claimAsBen(orderId: string): Promise<void> {
  const ben = await userClient(e2e().backend, account('ben').id);
  const claim = await new Functions(ben).createExecution({
    functionId: 'order-action',
    body: JSON.stringify({ orderId, action: 'claim', expectedRev: 1 }),
    async: false,
  });
  expect(claim.responseStatusCode).toBe(200);
}

describe('a returning visit (browser)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launch();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('paints the kept orders as Resyncing, catches up, removes an order deleted while away, and sign-out leaves nothing', async () => {
    const { backend } = e2e();
    const claimed = await createPaidOrder(backend, 'Carla Claimed');
    const deleted = await createPaidOrder(backend, 'Dora Deleted');
    const ana = await signedIn(browser, 'ana', '/orders');
    await row(ana.page, deleted.number).waitFor({ timeout: 15_000 });
    await ana.page.getByTestId('connection').and(ana.page.locator('[data-state="live"]')).waitFor();
    // A snapshot holding both is saved (at most one write per 5 s), then the page is closed.
    await expect
      .poll(
        async () =>
          (await snapshots(ana.page)).some(
            (text) => text.includes(claimed.id) && text.includes(deleted.id),
          ),
        { timeout: 30_000 },
      )
      .toBe(true);
    // Written by the page's snapshot writer worker, off its main thread.
    expect(ana.page.workers().map((worker) => worker.url())).toContainEqual(
      expect.stringContaining('idb-writer'),
    );
    await ana.page.close();

    // While away: Ben claims one order, a new one comes in, one is deleted.
    await claimAsBen(claimed.id);
    const created = await createPaidOrder(backend, 'Nora New');
    await new Databases(adminClient(backend)).deleteDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: deleted.id,
    });

    // Back: the kept orders are painted as "Resyncing", before any "Live".
    const page = await ana.context.newPage();
    await recordPaints(page, [claimed.number, deleted.number, created.number]);
    await page.goto(`${e2e().appUrl}/orders`);
    await row(page, created.number).waitFor({ timeout: 15_000 });
    await row(page, claimed.number).filter({ hasText: 'Ben' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('connection').and(page.locator('[data-state="live"]')).waitFor();
    // Deleted while away: no event and no later `$updatedAt`; the id sweep removes it.
    await row(page, deleted.number).waitFor({ state: 'detached', timeout: 30_000 });
    await page.waitForFunction(
      () => performance.getEntriesByName('livedesk:sweep-done').length > 0,
      undefined,
      { timeout: 30_000 },
    );

    const seen = await paints(page);
    const firstRows = seen.findIndex((paint) => paint.rows > 0);
    expect(firstRows).toBeGreaterThanOrEqual(0);
    expect(seen[firstRows]!.state).toBe('resyncing');
    expect(seen.slice(0, firstRows).some((paint) => paint.state === 'live')).toBe(false);
    // The snapshot's rows: the deleted order among them, the new one not yet.
    expect(seen[firstRows]!.watched).toContain(deleted.number);
    expect(seen[firstRows]!.watched).not.toContain(created.number);
    // The first screen kept with the snapshot came first, and only while resyncing.
    expect(seen.some((paint) => paint.first && paint.rows > 0)).toBe(true);
    expect(seen.filter((paint) => paint.first).every((paint) => paint.state === 'resyncing')).toBe(
      true,
    );
    // Gone for good, and not in the snapshot saved after the sweep.
    await expect
      .poll(async () => (await snapshots(page)).join().includes(deleted.id), { timeout: 30_000 })
      .toBe(false);
    expect(seen.at(-1)!.watched).not.toContain(deleted.number);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await snapshots(page)).toEqual([]);
    await ana.context.close();
  });

  it("a first visit on a new device starts from the desk's server-kept snapshot as Resyncing, then catches up", async () => {
    const { backend } = e2e();
    const claimed = await createPaidOrder(backend, 'Sami Snapshot');
    await keepServerSnapshot(adminClient(backend));
    // After the snapshot was written: Ben claims the order, a new one comes in.
    await claimAsBen(claimed.id);
    const created = await createPaidOrder(backend, 'Nia Newer');

    const requests: { url: string; status: number }[] = [];
    // The desk's address opened signed out: its download ahead of the session gets nothing (401),
    // so the desk asks again once signed in.
    const ana = await signedIn(browser, 'ana', '/orders', {
      fromPath: true,
      prepare: async (page) => {
        await recordPaints(page, [claimed.number, created.number]);
        page.on('response', (response) =>
          requests.push({ url: decodeURIComponent(response.url()), status: response.status() }),
        );
      },
    });
    await row(ana.page, created.number).waitFor({ timeout: 15_000 });
    await row(ana.page, claimed.number).filter({ hasText: 'Ben' }).waitFor({ timeout: 15_000 });
    await ana.page.getByTestId('connection').and(ana.page.locator('[data-state="live"]')).waitFor();

    const downloads = requests.filter(({ url }) =>
      url.includes('/storage/buckets/snapshots/files/orders/download'),
    );
    expect(downloads.map(({ status }) => status)).toEqual([401, 200]);
    // No load of the orders by `$createdAt` (the first load's reads; the id sweep's select only ids).
    const loads = requests.filter(
      ({ url }) =>
        url.includes('/collections/orders/documents') &&
        url.includes('greaterThanEqual') &&
        url.includes('$createdAt') &&
        !url.includes('"values":["$id"]'),
    );
    expect(loads).toEqual([]);
    const seen = await paints(ana.page);
    const firstRows = seen.findIndex((paint) => paint.rows > 0);
    expect(firstRows).toBeGreaterThanOrEqual(0);
    expect(seen[firstRows]!.state).toBe('resyncing');
    expect(seen[firstRows]!.watched).toContain(claimed.number);
    expect(seen.slice(0, firstRows).some((paint) => paint.state === 'live')).toBe(false);
    // Kept on this device once live, for the next visit.
    await expect
      .poll(async () => (await snapshots(ana.page)).join().includes(created.id), {
        timeout: 30_000,
      })
      .toBe(true);
    await ana.context.close();
  });

  it('an ended session on a returning visit deletes the kept orders and shows none of them', async () => {
    const { backend } = e2e();
    const ben = await signedIn(browser, 'ben', '/orders');
    await ben.page.getByTestId('order-row').first().waitFor({ timeout: 15_000 });
    await expect.poll(async () => (await snapshots(ben.page)).length, { timeout: 30_000 }).toBe(1);
    await ben.page.close();
    // While away the session ends (revoked here; an expiry looks the same to the app).
    await new Users(adminClient(backend)).deleteSessions({ userId: account('ben').id });

    const page = await ben.context.newPage();
    await recordPaints(page, []);
    await page.goto(`${e2e().appUrl}/orders`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect.poll(() => snapshots(page), { timeout: 15_000 }).toEqual([]);
    expect((await paints(page)).every((paint) => paint.rows === 0 && paint.state === null)).toBe(
      true,
    );
    await ben.context.close();
  });
});
