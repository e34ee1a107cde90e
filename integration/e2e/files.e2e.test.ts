import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { Databases, Query, Storage } from 'node-appwrite';
import type { Browser, Route } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCKETS, COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import { STATUS_LABELS, type OrderStatus } from '../../domain/order.ts';
import { e2e, launch, screenshot, signedIn } from './support/browser.ts';
import { adminClient, createPaidOrder } from './support/orders.ts';

const MB = 1024 * 1024;
const PRODUCT_MESSAGE = 'Files up to 50 MB: images, PDF or text.';

/** A file on disk (Playwright takes large files by path), `size` bytes, PDF magic first. */
function pdfFile(dir: string, name: string, size: number): string {
  const bytes = Buffer.alloc(size, 0x41);
  bytes.write('%PDF-1.4\n', 0, 'latin1');
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const isChunk = (route: Route) =>
  route.request().method() === 'POST' &&
  /^bytes [1-9]\d*-/.test(route.request().headers()['content-range'] ?? '');

async function attachmentsOf(orderId: string) {
  return (
    await new Databases(adminClient(e2e().backend)).listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.attachments,
      queries: [Query.equal('orderId', orderId)],
    })
  ).documents;
}

async function filesNamed(name: string) {
  return (
    await new Storage(adminClient(e2e().backend)).listFiles({
      bucketId: BUCKETS.attachments,
      queries: [Query.equal('name', name)],
    })
  ).files;
}

describe('files in the desk (browser): attachments, product images, exports', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    browser = await launch();
    dir = mkdtempSync(join(tmpdir(), 'livedesk-e2e-files-'));
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('attaches a 12 MB PDF with visible progress; the other screen sees it appear', async () => {
    const order = await createPaidOrder(e2e().backend, 'Attach Customer');
    const ana = await signedIn(browser, 'ana', `/orders/${order.id}`);
    const ben = await signedIn(browser, 'ben', `/orders/${order.id}`);
    for (const desk of [ana, ben])
      await desk.page.getByRole('button', { name: 'Choose files' }).waitFor();

    // The chunks after the first wait until the progress has been seen (and pictured).
    let held = 0;
    let release = () => {};
    const progressSeen = new Promise<void>((resolve) => (release = resolve));
    await ana.page.route('**/storage/buckets/attachments/files', async (route) => {
      if (isChunk(route)) {
        held += 1;
        await progressSeen;
      }
      await route.continue();
    });
    await ana.page
      .getByLabel('Attach files')
      .setInputFiles(pdfFile(dir, 'delivery-note.pdf', 12 * MB));
    const bar = ana.page.getByRole('progressbar', { name: 'Uploading delivery-note.pdf' });
    await bar.and(ana.page.locator('[aria-valuenow="42"]')).waitFor();
    await ana.page.getByText('Uploading 42% of 12 MB').waitFor();
    await screenshot(ana.page, 'drawer-upload-progress');
    release();

    const attached = (desk: typeof ana) =>
      desk.page.getByTestId('attachment').filter({ hasText: 'delivery-note.pdf' });
    await attached(ana).waitFor({ timeout: 30_000 });
    await attached(ben).waitFor({ timeout: 30_000 });
    expect(held).toBe(2);
    expect(await attached(ben).innerText()).toContain('12 MB');
    await ben.page.getByText('Ana Silva attached delivery-note.pdf').waitFor();
    await expect(bar.count()).resolves.toBe(0);

    // Drag and drop: a text file dropped on the zone is attached too.
    const drop = await ben.page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['Allergy: nuts'], 'allergy.txt', { type: 'text/plain' }));
      return data;
    });
    await ben.page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer: drop });
    await ana.page.getByTestId('attachment').filter({ hasText: 'allergy.txt' }).waitFor();
    expect((await attachmentsOf(order.id)).map((a) => a.name).sort()).toEqual([
      'allergy.txt',
      'delivery-note.pdf',
    ]);
    await screenshot(ben.page, 'drawer-attachments');
    await ana.context.close();
    await ben.context.close();
  });

  it('cancels an upload half-way: nothing is left behind', async () => {
    const order = await createPaidOrder(e2e().backend, 'Cancel Customer');
    const ana = await signedIn(browser, 'ana', `/orders/${order.id}`);
    await ana.page.getByRole('button', { name: 'Choose files' }).waitFor();
    const heldChunks: Route[] = [];
    await ana.page.route('**/storage/buckets/attachments/files', async (route) => {
      if (isChunk(route)) heldChunks.push(route);
      else await route.continue();
    });
    await ana.page.getByLabel('Attach files').setInputFiles(pdfFile(dir, 'cancel-me.pdf', 22 * MB));
    await ana.page.getByText('Uploading 23% of 22 MB').waitFor();
    await expect.poll(() => heldChunks.length, { timeout: 30_000 }).toBe(4);
    await ana.page.getByRole('button', { name: 'Cancel cancel-me.pdf' }).click();
    await ana.page.getByText('Canceling…').waitFor();
    // The chunks already sent reach the backend; the app waits for them, then deletes the file.
    for (const route of heldChunks) await route.continue();
    await ana.page.getByTestId('upload').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await filesNamed('cancel-me.pdf')).toEqual([]);
    expect(await attachmentsOf(order.id)).toEqual([]);
    await ana.context.close();
  });

  it('refuses a 60 MB file and an .exe with the product’s message, sending nothing', async () => {
    const order = await createPaidOrder(e2e().backend, 'Refused Customer');
    const ana = await signedIn(browser, 'ana', `/orders/${order.id}`);
    await ana.page.getByRole('button', { name: 'Choose files' }).waitFor();
    const sent: string[] = [];
    ana.page.on('request', (request) => {
      if (request.url().includes('/storage/')) sent.push(request.url());
    });
    const exe = join(dir, 'setup.exe');
    writeFileSync(exe, Buffer.from('MZ'));
    await ana.page
      .getByLabel('Attach files')
      .setInputFiles([pdfFile(dir, 'huge-scan.pdf', 60 * MB), exe]);
    const refused = ana.page.getByTestId('upload');
    await expect.poll(() => refused.count()).toBe(2);
    for (const name of ['huge-scan.pdf', 'setup.exe'])
      expect(await refused.filter({ hasText: name }).innerText()).toContain(PRODUCT_MESSAGE);
    await screenshot(ana.page, 'drawer-upload-refused');
    expect(sent).toEqual([]);
    await ana.page.getByRole('button', { name: 'Dismiss setup.exe' }).click();
    await expect.poll(() => refused.count()).toBe(1);
    await ana.context.close();
  });

  it('refuses a file whose content is not what its name says, without offering to try again, and leaves nothing behind', async () => {
    const order = await createPaidOrder(e2e().backend, 'Disguised Customer');
    const ana = await signedIn(browser, 'ana', `/orders/${order.id}`);
    await ana.page.getByRole('button', { name: 'Choose files' }).waitFor();
    const disguised = join(dir, 'disguised.pdf');
    writeFileSync(disguised, Buffer.alloc(4096, 0x00));
    await ana.page.getByLabel('Attach files').setInputFiles(disguised);
    const refused = ana.page.getByTestId('upload').filter({ hasText: 'disguised.pdf' });
    await refused.getByText(PRODUCT_MESSAGE).waitFor();
    expect(await refused.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await expect.poll(() => filesNamed('disguised.pdf')).toEqual([]);
    expect(await attachmentsOf(order.id)).toEqual([]);
    await ana.page.getByRole('button', { name: 'Dismiss disguised.pdf' }).click();
    await refused.waitFor({ state: 'detached' });
    await ana.context.close();
  });

  it('lets a manager upload a product image and see its thumbnail', async () => {
    const marco = await signedIn(browser, 'manager', '/products');
    const row = marco.page.getByTestId('product-row').first();
    await row.waitFor();
    const name = (await row.locator('td').nth(1).innerText()).trim();
    const png = join(dir, 'product.png');
    await sharp({ create: { width: 400, height: 300, channels: 3, background: '#d08a3c' } })
      .png()
      .toFile(png);
    await row.getByLabel(`Image of ${name}`, { exact: true }).setInputFiles(png);
    const thumb = row.getByTestId('product-thumb');
    await thumb.waitFor({ timeout: 30_000 });
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(96);
    await screenshot(marco.page, 'products-images');
    await marco.context.close();
  });

  it('lets a manager export the last 30 days and download a CSV whose rows match the orders', async () => {
    const marco = await signedIn(browser, 'manager', '/exports');
    await marco.page.getByRole('button', { name: 'Start export' }).click();
    const row = marco.page.getByTestId('export-row').first();
    await row.and(marco.page.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
    // The filter in the desk's words, its days as the date inputs and the Started column show
    // them (the browser's locale: en-US here).
    const [from, to] = await marco.page.locator('input[type="date"]').evaluateAll((inputs) =>
      (inputs as HTMLInputElement[]).map(({ value }) => {
        const [y, m, d] = value.split('-');
        return `${m}/${d}/${y}`;
      }),
    );
    expect(await row.innerText()).toContain(`All statuses · ${from} – ${to} · anyone`);
    await screenshot(marco.page, 'exports');
    const [download] = await Promise.all([
      marco.page.waitForEvent('download'),
      row.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const rows = parse(csv, { bom: true, columns: true }) as Record<string, string>[];

    const record = (
      await new Databases(adminClient(e2e().backend)).listDocuments({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.exports,
        queries: [Query.orderDesc('$createdAt'), Query.limit(1)],
      })
    ).documents[0]!;
    const filter = JSON.parse(String(record.filter)) as {
      createdFrom: string;
      createdBefore: string;
    };
    const orders = (
      await new Databases(adminClient(e2e().backend)).listDocuments({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        queries: [
          Query.greaterThanEqual('$createdAt', filter.createdFrom),
          Query.lessThan('$createdAt', filter.createdBefore),
          Query.limit(5000),
        ],
      })
    ).documents as unknown as { number: number; totalCents: number; status: string }[];
    expect(orders.length).toBeGreaterThan(50);
    expect(rows).toHaveLength(orders.length);
    expect(Number((await row.locator('td').nth(4).innerText()).replace(/,/g, ''))).toBe(
      orders.length,
    );
    const byNumber = new Map(rows.map((r) => [Number(r.Order), r]));
    for (const order of orders) {
      const csvRow = byNumber.get(order.number);
      expect(csvRow, `order #${order.number}`).toBeDefined();
      expect(csvRow!.Total).toBe((order.totalCents / 100).toFixed(2));
      expect(csvRow!.Status).toBe(STATUS_LABELS[order.status as OrderStatus]);
    }
    await marco.context.close();
  });
});
