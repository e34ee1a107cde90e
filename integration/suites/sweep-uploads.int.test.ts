import { ID } from 'appwrite';
import { Databases, Functions, Storage, type Models } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import { describe, expect, it } from 'vitest';
import { BUCKETS, COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import { ATTACH_WITHIN_MS, ATTACHMENT_RULE, ORPHAN_AFTER_MS } from '../../domain/files.ts';
import { readCheckedUpload } from '../../functions/_shared/uploads.ts';
import { sweepUploads } from '../../functions/sweep-uploads/src/main.ts';
import { installBrowserGlobals } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient } from '../support/clients.ts';
import { callFunction, createTestOrder, deskPerson, type Person } from '../support/desk.ts';
import { fileExists as exists, ONE_PIXEL_PNG as PNG, uploadAs } from '../support/storage.ts';

installBrowserGlobals();

// sweep-uploads against the backend. Other suites upload and attach files in these buckets at the
// same time, so each sweep run here with a clock moved on is scoped to this suite's own files; the
// deployed function runs on the real clock, when every file of a test run is younger than an hour.

const admin = serverClient();
const storage = new Storage(admin);
const databases = new Databases(admin);

const PDF = new TextEncoder().encode('%PDF-1.4\nreceipt\n');

/** A sweep of only `files`, as if it ran `msLater` from now. */
function sweepOf(files: Iterable<Models.File | string>, msLater: number) {
  const ids = new Set([...files].map((file) => (typeof file === 'string' ? file : file.$id)));
  return sweepUploads(admin, { now: Date.now() + msLater, scope: (file) => ids.has(file.$id) });
}

const LATER = 2 * ORPHAN_AFTER_MS;

describe('sweep-uploads (uploads no record names)', () => {
  let ana: Person;
  let mia: Person;

  beforeAllOnTarget(async () => {
    [ana, mia] = await Promise.all([
      deskPerson('Ana Sweep', 'staff'),
      deskPerson('Mia Sweep', 'manager'),
    ]);
  });

  it('is provisioned to run every hour, by the backend only', async () => {
    const fn = await new Functions(admin).get({ functionId: FUNCTIONS.sweepUploads });
    expect(fn).toMatchObject({ schedule: '41 * * * *', execute: [], enabled: true });
  });

  it('deletes the uploads no record names once untouched for an hour, and keeps every named one', async () => {
    const order = await createTestOrder();
    const attached = await uploadAs(ana, BUCKETS.attachments, 'Receipt.pdf', PDF);
    const attach = await callFunction(ana.client, FUNCTIONS.attachmentAction, {
      action: 'attach',
      orderId: order.$id,
      fileId: attached.$id,
    });
    expect(attach.status).toBe(200);
    const abandoned = await uploadAs(ana, BUCKETS.attachments, 'Abandoned.pdf', PDF);
    // A removed attachment whose file the function could not delete: its record no longer counts.
    const leftOver = await uploadAs(ana, BUCKETS.attachments, 'Removed.pdf', PDF);
    await databases.createDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.attachments,
      documentId: leftOver.$id,
      data: {
        orderId: order.$id,
        fileId: leftOver.$id,
        name: 'Removed.pdf',
        sizeBytes: PDF.length,
        mimeType: 'application/pdf',
        uploadedBy: ana.userId,
        deleted: true,
      },
    });
    const productId = ID.unique();
    const created = await callFunction(mia.client, FUNCTIONS.productAction, {
      action: 'create',
      productId,
      product: { name: 'Sweep latte', description: '', priceCents: 380, currency: 'eur' },
    });
    expect(created.status).toBe(200);
    const image = await uploadAs(mia, BUCKETS.productImages, 'latte.png', PNG);
    const replaced = await uploadAs(mia, BUCKETS.productImages, 'old-latte.png', PNG);
    const set = await callFunction(mia.client, FUNCTIONS.productAction, {
      action: 'update',
      productId,
      changes: { imageFileId: image.$id },
    });
    expect(set.status).toBe(200);
    const all = [attached, abandoned, leftOver, image, replaced];

    // Now, every one is younger than an hour: none goes.
    expect(await sweepOf(all, 0)).toEqual({ checked: 5, deleted: 0, complete: true });
    for (const file of all) expect(await exists(file.bucketId, file.$id)).toBe(true);

    expect(await sweepOf(all, LATER)).toEqual({ checked: 5, deleted: 3, complete: true });
    expect(await exists(BUCKETS.attachments, attached.$id)).toBe(true);
    expect(await exists(BUCKETS.productImages, image.$id)).toBe(true);
    expect(await exists(BUCKETS.attachments, abandoned.$id)).toBe(false);
    expect(await exists(BUCKETS.attachments, leftOver.$id)).toBe(false);
    expect(await exists(BUCKETS.productImages, replaced.$id)).toBe(false);

    // Again: nothing more to do.
    expect(await sweepOf(all, LATER)).toEqual({ checked: 2, deleted: 0, complete: true });
  }, 60_000);

  it('reads every page, on past the files it deletes', async () => {
    const order = await createTestOrder();
    const files: Models.File[] = [];
    for (let i = 0; i < 260; i++)
      files.push(
        await storage.createFile({
          bucketId: BUCKETS.attachments,
          fileId: ID.unique(),
          file: InputFile.fromBuffer(Buffer.from(PDF), `scan-${i}.pdf`),
        }),
      );
    // Every fifth is attached; the others — whole pages of them — are orphans.
    const named = files.filter((_, i) => i % 5 === 0);
    await databases.createDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.attachments,
      documents: named.map((file) => ({
        $id: file.$id,
        orderId: order.$id,
        fileId: file.$id,
        name: file.name,
        sizeBytes: PDF.length,
        mimeType: 'application/pdf',
        uploadedBy: 'sweep-test',
        deleted: false,
      })),
    });

    expect(await sweepOf(files, LATER)).toEqual({ checked: 260, deleted: 208, complete: true });
    for (const [i, file] of files.entries())
      expect(await exists(BUCKETS.attachments, file.$id), file.name).toBe(i % 5 === 0);
  }, 120_000);

  it('leaves the sweep no file being attached: an upload is attached within 50 minutes, or refused', async () => {
    const upload = await uploadAs(ana, BUCKETS.attachments, 'Late.pdf', PDF);
    const check = {
      bucketId: BUCKETS.attachments,
      fileId: upload.$id,
      rule: ATTACHMENT_RULE,
      field: 'fileId',
      missing: 'missing',
      tooOld: 'too old',
    };
    const written = Date.parse(upload.$updatedAt);
    expect((await readCheckedUpload(admin, check, written + ATTACH_WITHIN_MS)).$id).toBe(
      upload.$id,
    );
    const refusal = await readCheckedUpload(admin, check, written + ATTACH_WITHIN_MS + 1).catch(
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ code: 'VALIDATION', message: 'too old' });
    // The sweep would not delete it yet then, and deletes it only once attaching is refused.
    expect(await sweepOf([upload], ATTACH_WITHIN_MS + 60_000)).toMatchObject({ deleted: 0 });

    // A product keeps its image however old: an edit that names the same image does not read it.
    const productId = ID.unique();
    const image = await uploadAs(mia, BUCKETS.productImages, 'mocha.png', PNG);
    const created = await callFunction(mia.client, FUNCTIONS.productAction, {
      action: 'create',
      productId,
      product: { name: 'Sweep mocha', priceCents: 420, currency: 'eur', imageFileId: image.$id },
    });
    expect(created.status).toBe(200);
    await storage.deleteFile({ bucketId: BUCKETS.productImages, fileId: image.$id });
    const renamed = await callFunction(mia.client, FUNCTIONS.productAction, {
      action: 'update',
      productId,
      changes: { name: 'Sweep mocha (large)', imageFileId: image.$id },
    });
    expect(renamed.status).toBe(200);
    const other = await callFunction(mia.client, FUNCTIONS.productAction, {
      action: 'update',
      productId,
      changes: { imageFileId: ID.unique() },
    });
    expect(other.status).toBe(400);
  }, 60_000);

  it('runs as deployed on the real clock: a fresh upload no record names is kept', async () => {
    const fresh = await uploadAs(ana, BUCKETS.attachments, 'Fresh.pdf', PDF);
    const execution = await new Functions(admin).createExecution({
      functionId: FUNCTIONS.sweepUploads,
    });
    expect(execution.status, execution.errors).toBe('completed');
    const answer = JSON.parse(execution.responseBody) as Record<string, unknown>;
    expect(answer).toMatchObject({ complete: true });
    expect(answer.checked).toBeGreaterThanOrEqual(1);
    expect(await exists(BUCKETS.attachments, fresh.$id)).toBe(true);
  }, 60_000);
});
