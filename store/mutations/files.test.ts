import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import type { ExportFilter } from '../../domain/exports.ts';
import type { DocumentMeta } from '../../domain/schema.ts';
import { createDeskStore } from '../create-store.ts';
import {
  UploadCanceled,
  type AttachmentWrite,
  type FilesTransport,
  type FileUpload,
  type UploadedFile,
} from './files-transport.ts';

const MB = 1024 * 1024;
const AT = '2026-03-10T12:00:00.000+00:00';

/** A browser file as the store sees it: a name and a size. */
const file = (name: string, size: number) => ({ name, size, type: '' }) as unknown as File;

/** An upload the test finishes: progress, done, failed; `cancel` resolves when told. */
interface ScriptedUpload {
  bucketId: string;
  fileId: string;
  progress(fraction: number): void;
  finish(): void;
  failWith(error: unknown): void;
  canceled: boolean;
}

/** A {@link FilesTransport} whose answers the test gives: every call recorded. */
class ScriptedFiles implements FilesTransport {
  calls: { method: string; args: unknown[] }[] = [];
  uploads: ScriptedUpload[] = [];
  attachError: unknown = null;
  setImageError: unknown = null;
  #ids = 0;

  newId() {
    this.#ids += 1;
    return `f${this.#ids}`;
  }

  upload(bucketId: string, fileId: string, chosen: File, onProgress: (f: number) => void) {
    this.calls.push({ method: 'upload', args: [bucketId, fileId, chosen.name] });
    let resolve!: (file: UploadedFile) => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<UploadedFile>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    const scripted: ScriptedUpload = {
      bucketId,
      fileId,
      canceled: false,
      progress: onProgress,
      finish: () =>
        resolve({
          id: fileId,
          name: chosen.name,
          sizeBytes: chosen.size,
          mimeType: 'application/pdf',
        }),
      failWith: reject,
    };
    this.uploads.push(scripted);
    const upload: FileUpload = {
      done,
      cancel: async () => {
        scripted.canceled = true;
        reject(new UploadCanceled());
        this.calls.push({ method: 'cancel', args: [fileId] });
      },
    };
    return upload;
  }

  async deleteFile(bucketId: string, fileId: string) {
    this.calls.push({ method: 'deleteFile', args: [bucketId, fileId] });
  }

  async attach(orderId: string, fileId: string): Promise<AttachmentWrite> {
    this.calls.push({ method: 'attach', args: [orderId, fileId] });
    if (this.attachError) {
      const error = this.attachError;
      this.attachError = null;
      throw error;
    }
    return {
      attachment: attachmentDoc(fileId, orderId, false),
      order: orderDoc(orderId, 1, 4),
    };
  }

  async removeAttachment(attachmentId: string): Promise<AttachmentWrite> {
    this.calls.push({ method: 'removeAttachment', args: [attachmentId] });
    return { attachment: attachmentDoc(attachmentId, 'o1', true), order: orderDoc('o1', 0, 5) };
  }

  async setProductImage(productId: string, fileId: string | null) {
    this.calls.push({ method: 'setProductImage', args: [productId, fileId] });
    if (this.setImageError) throw this.setImageError;
    return productDoc(productId, fileId);
  }

  async startExport(exportId: string, filter: ExportFilter) {
    this.calls.push({ method: 'startExport', args: [exportId, filter] });
    return {
      $id: exportId,
      $createdAt: AT,
      $updatedAt: AT,
      requestedBy: 'u-mia',
      filter: JSON.stringify(filter),
      status: 'queued',
      rowCount: 0,
      fileId: null,
      error: null,
    } as DocumentMeta;
  }

  fileUrl(bucketId: string, fileId: string) {
    return `https://files.test/${bucketId}/${fileId}`;
  }

  methods() {
    return this.calls.map((call) => call.method);
  }
}

function attachmentDoc(id: string, orderId: string, deleted: boolean): DocumentMeta {
  return {
    $id: id,
    $createdAt: AT,
    $updatedAt: deleted ? '2026-03-10T12:01:00.000+00:00' : AT,
    orderId,
    fileId: id,
    name: 'receipt.pdf',
    sizeBytes: 10,
    mimeType: 'application/pdf',
    uploadedBy: 'u-ana',
    deleted,
  } as DocumentMeta;
}

function orderDoc(id: string, attachmentCount: number, rev: number): DocumentMeta {
  return {
    $id: id,
    $createdAt: AT,
    $updatedAt: `2026-03-10T12:0${rev}:00.000+00:00`,
    number: 1,
    status: 'paid',
    customerName: 'Cleo',
    customerEmail: 'cleo@example.test',
    items: '[]',
    itemsSummary: '',
    subtotalCents: 0,
    totalCents: 0,
    currency: 'eur',
    paymentStatus: 'succeeded',
    attachmentCount,
    rev,
  } as DocumentMeta;
}

function productDoc(id: string, imageFileId: string | null): DocumentMeta {
  return {
    $id: id,
    $createdAt: AT,
    $updatedAt: imageFileId ? `2026-03-10T12:0${imageFileId.length}:00.000+00:00` : AT,
    name: 'Tea',
    description: '',
    priceCents: 300,
    currency: 'eur',
    active: true,
    imageFileId,
    sortOrder: 1,
  } as DocumentMeta;
}

function setup() {
  const files = new ScriptedFiles();
  const store = createDeskStore({ files, actor: { id: 'u-ana', name: 'Ana', role: 'manager' } });
  // A drawer tracks order o1 (as loadOrderDetail does): its attachments are kept.
  store.setState({ details: { o1: { status: 'ready', error: null, missing: false, refs: 1 } } });
  return { files, store, state: () => store.getState() };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('uploadAttachments', () => {
  it('lists a file over 50 MB and an .exe as refused with the product’s message, sending nothing', () => {
    const { files, state } = setup();
    state().uploadAttachments('o1', [file('scan.pdf', 60 * MB), file('setup.exe', 10)]);
    const uploads = Object.values(state().uploads);
    expect(
      uploads.map((u) => [u.name, u.status, u.error?.code, u.error?.message, u.retry]),
    ).toEqual([
      ['scan.pdf', 'failed', 'UPLOAD_TOO_LARGE', 'Files up to 50 MB: images, PDF or text.', null],
      ['setup.exe', 'failed', 'UPLOAD_TYPE', 'Files up to 50 MB: images, PDF or text.', null],
    ]);
    expect(files.calls).toEqual([]);
    state().dismissUpload(uploads[0]!.id);
    expect(Object.keys(state().uploads)).toEqual([uploads[1]!.id]);
    expect(files.calls).toEqual([]);
  });

  it('shows progress, then attaches: the upload ends and the attachment and order are in the store', async () => {
    const { files, state } = setup();
    state().uploadAttachments('o1', [file('receipt.pdf', 12 * MB)]);
    const [upload] = files.uploads;
    expect(upload).toMatchObject({ bucketId: 'attachments', fileId: 'f1' });
    expect(state().uploads.f1).toMatchObject({ status: 'uploading', progress: null });
    upload!.progress(5 / 12);
    expect(state().uploads.f1!.progress).toBeCloseTo(5 / 12);
    upload!.finish();
    await tick();
    expect(files.calls.at(-1)).toEqual({ method: 'attach', args: ['o1', 'f1'] });
    expect(state().uploads).toEqual({});
    expect(state().attachments.get('f1')).toMatchObject({ orderId: 'o1', name: 'receipt.pdf' });
    expect(state().orders.get('o1')).toMatchObject({ attachmentCount: 1 });
  });

  it('cancels: the transport stops and cleans up, nothing is attached, the upload is gone', async () => {
    const { files, state } = setup();
    state().uploadAttachments('o1', [file('big.pdf', 40 * MB)]);
    files.uploads[0]!.progress(0.125);
    await state().cancelUpload('f1');
    await tick();
    expect(files.uploads[0]!.canceled).toBe(true);
    expect(files.methods()).toEqual(['upload', 'cancel']);
    expect(state().uploads).toEqual({});
  });

  it('retries a failed upload under a new id (deleting the old one) and a failed attach by attaching', async () => {
    const { files, state } = setup();
    state().uploadAttachments('o1', [file('a.pdf', 10)]);
    files.uploads[0]!.failWith(new AppError('OFFLINE', 'You’re offline.'));
    await tick();
    expect(state().uploads.f1).toMatchObject({ status: 'failed', retry: 'upload' });
    expect(state().uploads.f1!.error?.code).toBe('OFFLINE');

    state().retryUpload('f1');
    expect(Object.keys(state().uploads)).toEqual(['f2']);
    expect(files.calls.slice(1, 3)).toEqual([
      { method: 'deleteFile', args: ['attachments', 'f1'] },
      { method: 'upload', args: ['attachments', 'f2', 'a.pdf'] },
    ]);

    files.attachError = new AppError('VALIDATION', 'This upload is not complete yet.');
    files.uploads[1]!.finish();
    await tick();
    expect(state().uploads.f2).toMatchObject({ status: 'failed', retry: 'attach' });
    state().retryUpload('f2');
    await tick();
    expect(files.methods().filter((m) => m === 'upload')).toHaveLength(2);
    expect(files.methods().filter((m) => m === 'attach')).toHaveLength(2);
    expect(state().uploads).toEqual({});
    expect(state().attachments.get('f2')).toBeDefined();
  });

  it('offers no retry for a refusal the same file meets again, deleting a file refused at attach', async () => {
    const { files, state } = setup();
    const refusal = () => new AppError('UPLOAD_TYPE', 'Files up to 50 MB: images, PDF or text.');
    state().uploadAttachments('o1', [file('scan.pdf', 10), file('fake.pdf', 10)]);
    files.uploads[0]!.failWith(refusal());
    files.attachError = refusal();
    files.uploads[1]!.finish();
    await tick();
    expect(state().uploads.f1).toMatchObject({ status: 'failed', retry: null });
    expect(state().uploads.f2).toMatchObject({ status: 'failed', retry: null });
    expect(state().uploads.f2!.error?.code).toBe('UPLOAD_TYPE');
    expect(files.calls.filter((c) => c.method === 'deleteFile')).toEqual([
      { method: 'deleteFile', args: ['attachments', 'f2'] },
    ]);
    state().retryUpload('f2');
    state().dismissUpload('f1');
    state().dismissUpload('f2');
    await tick();
    expect(files.methods().filter((m) => m === 'attach')).toHaveLength(1);
    expect(files.methods().filter((m) => m === 'deleteFile')).toHaveLength(1);
    expect(state().uploads).toEqual({});
  });
});

describe('removeAttachment, startExport, product images', () => {
  it('removes an attachment: the record’s deleted flag and the order’s count from the answer', async () => {
    const { files, state } = setup();
    state().uploadAttachments('o1', [file('a.pdf', 10)]);
    files.uploads[0]!.finish();
    await tick();
    expect(await state().removeAttachment('f1')).toEqual({ ok: true });
    expect(state().attachments.get('f1')).toMatchObject({ deleted: true });
    expect(state().orders.get('o1')).toMatchObject({ attachmentCount: 0 });
    expect(state().running).toEqual({});
  });

  it('starts an export: its queued record is listed', async () => {
    const { files, state } = setup();
    const filter: ExportFilter = {
      statuses: [],
      createdFrom: null,
      createdBefore: null,
      assignee: 'any',
    };
    expect(await state().startExport(filter)).toEqual({ ok: true });
    expect(files.calls).toEqual([{ method: 'startExport', args: ['f1', filter] }]);
    expect(state().exportList.map((job) => [job.id, job.status])).toEqual([['f1', 'queued']]);
  });

  it('sets a product image, deleting the one it replaces; refuses one over 5 MB before sending', async () => {
    const { files, state, store } = setup();
    store.getState().applyRemote([
      {
        collection: 'products',
        kind: 'upsert',
        record: { ...recordOfProduct(), imageFileId: 'old' },
      },
    ]);
    const refused = await state().setProductImage('p1', file('menu.png', 5 * MB + 1));
    expect(!refused.ok && refused.error.code).toBe('UPLOAD_TOO_LARGE');
    expect(files.calls).toEqual([]);

    const setting = state().setProductImage('p1', file('tea.png', 1000));
    files.uploads[0]!.finish();
    expect(await setting).toEqual({ ok: true });
    expect(files.calls).toEqual([
      { method: 'upload', args: ['product-images', 'f2', 'tea.png'] },
      { method: 'setProductImage', args: ['p1', 'f2'] },
      { method: 'deleteFile', args: ['product-images', 'old'] },
    ]);
    expect(state().products.get('p1')!.imageFileId).toBe('f2');
    expect(state().fileUrl('product-images', 'f2', { kind: 'download' })).toBe(
      'https://files.test/product-images/f2',
    );
  });

  it('keeps the image when product-action refuses the content, deleting the upload and offering no retry', async () => {
    const { files, state, store } = setup();
    store.getState().applyRemote([
      {
        collection: 'products',
        kind: 'upsert',
        record: { ...recordOfProduct(), imageFileId: 'old' },
      },
    ]);
    const message = 'Images up to 5 MB: JPEG, PNG, GIF or WebP.';
    files.setImageError = new AppError('UPLOAD_TYPE', message);
    const setting = state().setProductImage('p1', file('fake.png', 18));
    files.uploads[0]!.finish();
    const result = await setting;
    expect(!result.ok && [result.error.code, result.error.message]).toEqual([
      'UPLOAD_TYPE',
      message,
    ]);
    expect(files.calls).toEqual([
      { method: 'upload', args: ['product-images', 'f1', 'fake.png'] },
      { method: 'setProductImage', args: ['p1', 'f1'] },
      { method: 'deleteFile', args: ['product-images', 'f1'] },
    ]);
    expect(state().uploads.f1).toMatchObject({ status: 'failed', retry: null });
    expect(state().products.get('p1')!.imageFileId).toBe('old');
    state().retryUpload('f1');
    state().dismissUpload('f1');
    await tick();
    expect(files.calls).toHaveLength(3);
    expect(state().uploads).toEqual({});
  });
});

function recordOfProduct() {
  return {
    id: 'p1',
    createdAt: Date.parse(AT) - 1000,
    updatedAt: Date.parse(AT) - 1000,
    name: 'Tea',
    description: '',
    priceCents: 300,
    currency: 'eur',
    active: true,
    imageFileId: null as string | null,
    sortOrder: 1,
  };
}
