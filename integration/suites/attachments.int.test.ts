import {
  AppwriteException,
  Databases as WebDatabases,
  ID,
  Storage as WebStorage,
  type Models,
} from 'appwrite';
import { Databases, Functions, Storage } from 'node-appwrite';
import { afterEach, describe, expect, it } from 'vitest';
import { BUCKETS, COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import { LIMITS } from '../../domain/validation.ts';
import { installBrowserGlobals, until } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient } from '../support/clients.ts';
import {
  anonymousCustomer,
  callFunction,
  createTestOrder,
  deskPerson,
  readTestOrder,
  type FunctionAnswer,
  type Person,
} from '../support/desk.ts';
import { closeAll, listen, realtimeFor } from '../support/realtime.ts';
import { CHUNK, chunkOf, patternBytes, postFile, uploadAs } from '../support/storage.ts';

installBrowserGlobals();

const MB = 1024 * 1024;

/** Bytes that read as a PDF (`%PDF-` magic), `size` long. */
function pdfBytes(size: number, seed = 1): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(patternBytes(size, seed));
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'), 0);
  return bytes;
}

/** Uploads a file to the attachments bucket (or `bucketId`) with the person's browser SDK. */
const upload = (
  person: Person,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
  bucketId: string = BUCKETS.attachments,
) => uploadAs(person, bucketId, name, bytes);

type Answer = FunctionAnswer<{
  attachment: Record<string, unknown> & { $id: string };
  order: Record<string, unknown> & { rev: number; attachmentCount: number };
}>;

function act(person: Person, body: Record<string, unknown>): Promise<Answer> {
  return callFunction(person.client, FUNCTIONS.attachmentAction, body) as Promise<Answer>;
}

const attachments = new Databases(serverClient());
const readAttachment = (id: string) =>
  attachments
    .getDocument({ databaseId: DATABASE_ID, collectionId: COLLECTIONS.attachments, documentId: id })
    .catch(() => null);

describe('attachment-action (attachments written with their order and activity)', () => {
  let ana: Person;
  let ben: Person;
  let mia: Person;
  let outsider: Person;
  let customer: Person;

  beforeAllOnTarget(async () => {
    [ana, ben, mia, outsider] = await Promise.all([
      deskPerson('Ana Attach', 'staff'),
      deskPerson('Ben Attach', 'staff'),
      deskPerson('Mia Attach', 'manager'),
      deskPerson('Olga Outsider', null),
    ]);
    customer = await anonymousCustomer();
  });

  afterEach(async () => {
    await closeAll();
  });

  it('is deployed for signed-in users', async () => {
    const fn = await new Functions(serverClient()).get({ functionId: FUNCTIONS.attachmentAction });
    expect(fn).toMatchObject({ runtime: 'node-22', execute: ['users'], enabled: true });
  });

  it('attaches a chunked 12 MB PDF: record, count, rev and activity together; another screen sees it live', async () => {
    const order = await createTestOrder({ rev: 3 });
    const listening = await listen(
      realtimeFor(ben.client),
      `databases.${DATABASE_ID}.collections.${COLLECTIONS.attachments}.documents`,
    );
    const file = await upload(ana, 'Receipt.pdf', pdfBytes(12 * MB));
    expect(file).toMatchObject({ chunksTotal: 3, chunksUploaded: 3, mimeType: 'application/pdf' });

    const answer = await act(ana, { action: 'attach', orderId: order.$id, fileId: file.$id });
    expect(answer.status).toBe(200);
    expect(answer.body.attachment).toMatchObject({
      $id: file.$id,
      orderId: order.$id,
      fileId: file.$id,
      name: 'Receipt.pdf',
      sizeBytes: 12 * MB,
      mimeType: 'application/pdf',
      uploadedBy: ana.userId,
      deleted: false,
    });
    expect(answer.body.order).toMatchObject({
      rev: 4,
      attachmentCount: 1,
      updatedById: ana.userId,
    });
    const stored = await readTestOrder(order.$id);
    expect(stored).toMatchObject({ rev: 4, attachmentCount: 1 });
    const activity = await attachments.getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.activity,
      documentId: `${order.$id}.r4`,
    });
    expect(activity).toMatchObject({
      kind: 'attachment',
      actorId: ana.userId,
      actorName: 'Ana Attach',
    });
    expect(JSON.parse(String(activity.data))).toEqual({
      action: 'attached',
      attachmentId: file.$id,
      name: 'Receipt.pdf',
    });

    await until(
      () => listening.inbox.some((e) => (e.payload as { $id?: string }).$id === file.$id),
      10_000,
      'the attachment over realtime',
    );
    const event = listening.inbox.find((e) => (e.payload as { $id?: string }).$id === file.$id)!;
    expect(event.events.some((name) => name.endsWith('.create'))).toBe(true);

    // Attached, the file is the bucket's: its uploader can no longer delete it.
    const locked = await new Storage(serverClient()).getFile({
      bucketId: BUCKETS.attachments,
      fileId: file.$id,
    });
    expect(locked.$permissions).toEqual([]);
    await expect(
      new WebStorage(ana.client).deleteFile({ bucketId: BUCKETS.attachments, fileId: file.$id }),
    ).rejects.toMatchObject({ code: 401 });

    // Attaching again answers the same record and counts nothing twice.
    const again = await act(ana, { action: 'attach', orderId: order.$id, fileId: file.$id });
    expect(again.status).toBe(200);
    expect(again.body.order).toMatchObject({ rev: 4, attachmentCount: 1 });
  });

  it('refuses a missing, incomplete, wrong-type, wrong-bucket or foreign upload, writing nothing', async () => {
    const order = await createTestOrder({ rev: 1 });
    const expectRefused = async (
      person: Person,
      fileId: string,
      code: string,
      message?: string,
    ) => {
      const answer = await act(person, { action: 'attach', orderId: order.$id, fileId });
      expect(answer.status, `${fileId}: ${JSON.stringify(answer.body)}`).toBe(
        code === 'FORBIDDEN' ? 403 : 400,
      );
      expect(answer.body.error?.code).toBe(code);
      if (message) expect(answer.body.error?.message).toBe(message);
      expect(await readAttachment(fileId)).toBeNull();
    };

    // Missing.
    await expectRefused(ana, ID.unique(), 'VALIDATION');

    // Incomplete: the first of three chunks only.
    const partialId = ID.unique();
    const bytes = pdfBytes(12 * MB, 2);
    const first = chunkOf(bytes, 1);
    const sent = await postFile({
      bucketId: BUCKETS.attachments,
      fileId: partialId,
      name: 'half.pdf',
      data: first.data,
      contentRange: first.contentRange,
      headers: { 'x-appwrite-session': ana.secret },
    });
    expect(sent.status).toBe(201);
    await expectRefused(ana, partialId, 'VALIDATION', 'This upload is not complete yet.');

    // Content that is not what its name says (the bucket checks the extension only).
    const fake = await upload(
      ana,
      'invoice.pdf',
      new Uint8Array(
        Buffer.from(
          'MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00'.repeat(64),
          'latin1',
        ),
      ),
    );
    expect(fake.mimeType).not.toBe('application/pdf');
    await expectRefused(ana, fake.$id, 'UPLOAD_TYPE', 'Files up to 50 MB: images, PDF or text.');

    // In another bucket (a product image).
    const image = await upload(
      mia,
      'latte.png',
      new Uint8Array(await pngBytes()),
      BUCKETS.productImages,
    );
    await expectRefused(mia, image.$id, 'VALIDATION');

    // Someone else's upload.
    const anas = await upload(ana, 'mine.txt', new Uint8Array(Buffer.from('Ana’s note')));
    await expectRefused(
      ben,
      anas.$id,
      'FORBIDDEN',
      'Only the person who uploaded a file can attach it.',
    );

    const after = await readTestOrder(order.$id);
    expect(after).toMatchObject({ rev: 1, attachmentCount: 0 });
  });

  it('refuses a file over 50 MB (the function’s own check, behind the bucket’s)', async () => {
    const buckets = new Storage(serverClient());
    const bucket = await buckets.getBucket({ bucketId: BUCKETS.attachments });
    const big = pdfBytes(LIMITS.attachmentMaxBytes + 1, 3);
    // The bucket refuses it first.
    await expect(upload(ana, 'big.pdf', big)).rejects.toMatchObject({
      type: 'storage_invalid_file_size',
    });
    // With the bucket's limit raised for a moment, the function still refuses it.
    const order = await createTestOrder();
    await buckets.updateBucket({
      bucketId: bucket.$id,
      name: bucket.name,
      permissions: bucket.$permissions,
      fileSecurity: bucket.fileSecurity,
      maximumFileSize: LIMITS.attachmentMaxBytes + CHUNK,
      allowedFileExtensions: bucket.allowedFileExtensions,
    });
    let file: Models.File;
    try {
      file = await upload(ana, 'big.pdf', big);
    } finally {
      await buckets.updateBucket({
        bucketId: bucket.$id,
        name: bucket.name,
        permissions: bucket.$permissions,
        fileSecurity: bucket.fileSecurity,
        maximumFileSize: bucket.maximumFileSize,
        allowedFileExtensions: bucket.allowedFileExtensions,
      });
    }
    const answer = await act(ana, { action: 'attach', orderId: order.$id, fileId: file.$id });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'UPLOAD_TOO_LARGE',
      message: 'Files up to 50 MB: images, PDF or text.',
    });
    expect(await readAttachment(file.$id)).toBeNull();
    expect(await readTestOrder(order.$id)).toMatchObject({ attachmentCount: 0 });
  });

  it('refuses non-members, customers and guests; the bucket refuses their uploads', async () => {
    const order = await createTestOrder();
    const file = await upload(ana, 'note.txt', new Uint8Array(Buffer.from('for the kitchen')));
    for (const person of [outsider, customer]) {
      const answer = await act(person, { action: 'attach', orderId: order.$id, fileId: file.$id });
      expect(answer.status).toBe(403);
      expect(answer.body.error?.code).toBe('FORBIDDEN');
      await expect(upload(person, 'x.txt', new Uint8Array([65]))).rejects.toMatchObject({
        code: 401,
      });
    }
    expect(await readAttachment(file.$id)).toBeNull();
    const unknownAction = await act(ana, { action: 'steal', orderId: order.$id });
    expect(unknownAction.body.error).toMatchObject({
      code: 'VALIDATION',
      details: { field: 'action' },
    });
    const noOrder = await act(ana, {
      action: 'attach',
      orderId: 'no-such-order',
      fileId: file.$id,
    });
    expect(noOrder.status).toBe(404);
    expect(await readAttachment(file.$id)).toBeNull();
  });

  it('lets staff read attachments and their files; customers and outsiders neither', async () => {
    const order = await createTestOrder();
    const file = await upload(ana, 'label.txt', new Uint8Array(Buffer.from('Table 4')));
    expect(
      (await act(ana, { action: 'attach', orderId: order.$id, fileId: file.$id })).status,
    ).toBe(200);
    const read = (person: Person) =>
      new WebDatabases(person.client).getDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.attachments,
        documentId: file.$id,
      });
    expect(await read(ben)).toMatchObject({ orderId: order.$id });
    const url = new WebStorage(ben.client).getFileDownload({
      bucketId: BUCKETS.attachments,
      fileId: file.$id,
    });
    const download = await fetch(url, { headers: { 'x-appwrite-session': ben.secret } });
    expect(await download.text()).toBe('Table 4');
    for (const person of [customer, outsider]) {
      await expect(read(person)).rejects.toBeInstanceOf(AppwriteException);
      await expect(
        new WebStorage(person.client).getFile({ bucketId: BUCKETS.attachments, fileId: file.$id }),
      ).rejects.toMatchObject({ code: 404 });
    }
    // Only the function writes attachment records.
    await expect(
      new WebDatabases(ana.client).createDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.attachments,
        documentId: ID.unique(),
        data: {
          orderId: order.$id,
          fileId: 'f',
          name: 'forged.txt',
          sizeBytes: 1,
          mimeType: 'text/plain',
          uploadedBy: ana.userId,
        },
      }),
    ).rejects.toMatchObject({ code: 401 });
  });

  it('removes: a state change with count and activity, the file deleted; staff only their own', async () => {
    const order = await createTestOrder({ rev: 0 });
    const file = await upload(ana, 'menu.txt', new Uint8Array(Buffer.from('menu')));
    expect(
      (await act(ana, { action: 'attach', orderId: order.$id, fileId: file.$id })).status,
    ).toBe(200);

    const refused = await act(ben, { action: 'remove', attachmentId: file.$id });
    expect(refused.status).toBe(403);
    expect(await readTestOrder(order.$id)).toMatchObject({ rev: 1, attachmentCount: 1 });

    const removed = await act(mia, { action: 'remove', attachmentId: file.$id });
    expect(removed.status).toBe(200);
    expect(removed.body.attachment).toMatchObject({ $id: file.$id, deleted: true });
    expect(removed.body.order).toMatchObject({
      rev: 2,
      attachmentCount: 0,
      updatedById: mia.userId,
    });
    const activity = await attachments.getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.activity,
      documentId: `${order.$id}.r2`,
    });
    expect(JSON.parse(String(activity.data))).toMatchObject({
      action: 'removed',
      name: 'menu.txt',
    });
    await expect(
      new Storage(serverClient()).getFile({ bucketId: BUCKETS.attachments, fileId: file.$id }),
    ).rejects.toMatchObject({ code: 404 });

    // Removing again changes nothing.
    const again = await act(mia, { action: 'remove', attachmentId: file.$id });
    expect(again.status).toBe(200);
    expect(await readTestOrder(order.$id)).toMatchObject({ rev: 2, attachmentCount: 0 });
  });
});

/** A small PNG (sharp is a dev dependency of the project). */
async function pngBytes(): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#c0ffee' } })
    .png()
    .toBuffer();
}
