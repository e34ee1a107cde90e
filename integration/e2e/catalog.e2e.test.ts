import { Query, Storage } from 'node-appwrite';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCKETS } from '../../domain/ids.ts';
import { e2e, launch, screenshot, signedIn } from './support/browser.ts';
import { adminClient } from './support/orders.ts';

describe('the catalog (browser)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('lets a manager add, edit and deactivate a product, with field messages', async () => {
    const marco = await signedIn(browser, 'manager', '/products');
    const rows = marco.page.getByTestId('product-row');
    await rows.first().waitFor();
    const form = marco.page.getByRole('form', { name: 'Add a product' });
    await form.getByLabel('Name').fill('Cortado');
    await form.getByLabel('Price').fill('abc');
    await form.getByRole('button', { name: 'Add product' }).click();
    await form.getByText('Enter a price like 3.80.').waitFor();
    await form.getByLabel('Price').fill('3,40');
    await form.getByRole('button', { name: 'Add product' }).click();
    const cortado = rows.filter({ hasText: 'Cortado' });
    await cortado.waitFor();
    expect(await form.getByRole('status').innerText()).toBe('Cortado is in the catalog.');
    expect(await form.getByLabel('Name').inputValue()).toBe('');
    expect(await cortado.innerText()).toContain('€3.40');

    await cortado.getByRole('button', { name: 'Edit Cortado' }).click();
    const edit = marco.page.getByRole('form', { name: 'Edit Cortado' });
    await edit.getByLabel('Price').fill('3.60');
    await edit.getByRole('button', { name: 'Save' }).click();
    await cortado.filter({ hasText: '€3.60' }).waitFor();

    await cortado.getByRole('button', { name: 'Deactivate Cortado' }).click();
    await cortado.getByText('inactive').waitFor();
    await screenshot(marco.page, 'products');

    // By keyboard: Edit opens the form on its name, Escape closes it back onto Edit, and the
    // toggle keeps the focus while it works.
    const focused = () =>
      marco.page.evaluate(
        () =>
          document.activeElement?.getAttribute('aria-label') ??
          document.activeElement?.id ??
          document.activeElement?.tagName,
      );
    await cortado.getByRole('button', { name: 'Edit Cortado' }).focus();
    await marco.page.keyboard.press('Enter');
    const name = marco.page.getByRole('form', { name: 'Edit Cortado' }).getByLabel('Name');
    await expect.poll(() => name.evaluate((input) => input === document.activeElement)).toBe(true);
    await marco.page.keyboard.press('Escape');
    await expect.poll(focused).toBe('Edit Cortado');
    await cortado.getByRole('button', { name: 'Activate Cortado' }).focus();
    await marco.page.keyboard.press('Enter');
    await cortado.getByText('active', { exact: true }).waitFor();
    await expect.poll(focused).toBe('Deactivate Cortado');
    await marco.context.close();
  });

  it('refuses a text file named .png as an image, changing nothing and keeping no upload', async () => {
    const marco = await signedIn(browser, 'manager', '/products');
    const form = marco.page.getByRole('form', { name: 'Add a product' });
    const name = `Mate ${Date.now() % 100_000}`;
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Price').fill('3.90');
    await form.getByRole('button', { name: 'Add product' }).click();
    const row = marco.page.getByTestId('product-row').filter({ hasText: name });
    await row.waitFor();
    await row.getByLabel(`Image of ${name}`, { exact: true }).setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('this is not a png\n'),
    });
    await row
      .getByRole('alert')
      .getByText('Images up to 5 MB: JPEG, PNG, GIF or WebP.')
      .waitFor({ timeout: 30_000 });
    expect(await row.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    const upload = row.getByRole('button', { name: `Upload the image of ${name}` });
    expect(await upload.innerText()).toBe('Upload image');
    expect(await row.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await row.getByTestId('product-thumb').count()).toBe(0);
    const storage = new Storage(adminClient(e2e().backend));
    await expect
      .poll(async () => {
        const { files } = await storage.listFiles({
          bucketId: BUCKETS.productImages,
          queries: [Query.equal('name', 'fake.png')],
        });
        return files.length;
      })
      .toBe(0);
    await marco.context.close();
  });

  it('keeps the catalog from staff', async () => {
    const ana = await signedIn(browser, 'ana', '/products');
    await ana.page.getByText('You don’t have permission to manage the catalog.').waitFor();
    await ana.context.close();
  });

  it('keeps the keyboard on a menu card as Add turns into − / + and back', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${e2e().appUrl}/shop`);
    const add = page.getByRole('button', { name: /^Add / }).first();
    const name = (await add.getAttribute('aria-label'))!.slice('Add '.length);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await add.focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe(`One ${name} more`);
    await page.keyboard.press('Enter');
    await page.getByLabel(`2 ${name} in the cart`).waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe(`Add ${name}`);
    await context.close();
  });
});
