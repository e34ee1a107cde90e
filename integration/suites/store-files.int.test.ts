import { Functions as WebFunctions, ID } from 'appwrite';
import { describe, expect, it } from 'vitest';
import { BUCKETS, FUNCTIONS } from '../../domain/ids.ts';
import { createAppwriteFiles, UploadCanceled, type FilesTransport } from '../../store/index.ts';
import { installBrowserGlobals, sleep } from '../support/browser.ts';
import { beforeAllOnTarget } from '../support/clients.ts';
import { createTestOrder, deskPerson, readTestOrder, type Person } from '../support/desk.ts';
import { fileExists, patternBytes } from '../support/storage.ts';

installBrowserGlobals();

const MB = 1024 * 1024;

function pdf(size: number, seed: number): File {
  const bytes = new Uint8Array(patternBytes(size, seed));
  bytes.set(new TextEncoder().encode('%PDF-1.4\n'), 0);
  return new File([bytes], `scan-${seed}.pdf`);
}

const exists = (fileId: string) => fileExists(BUCKETS.attachments, fileId);

describe('the store’s files transport on the Appwrite SDK (uploads, cancel, attach)', () => {
  let ana: Person;
  let files: FilesTransport;

  beforeAllOnTarget(async () => {
    ana = await deskPerson('Ana Files', 'staff');
    files = createAppwriteFiles({
      client: ana.client,
      functions: new WebFunctions(ana.client),
    });
  });

  it('uploads a 12 MB file in chunks with growing progress, then attaches it', async () => {
    const order = await createTestOrder();
    const fileId = ID.unique();
    const seen: number[] = [];
    const uploaded = await files.upload(BUCKETS.attachments, fileId, pdf(12 * MB, 1), (f) =>
      seen.push(f),
    ).done;
    expect(uploaded).toMatchObject({ id: fileId, sizeBytes: 12 * MB, mimeType: 'application/pdf' });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen[0]).toBeCloseTo(5 / 12);
    expect(seen.at(-1)).toBe(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const answer = await files.attach(order.$id, fileId);
    expect(answer.attachment).toMatchObject({ $id: fileId, orderId: order.$id });
    expect(await readTestOrder(order.$id)).toMatchObject({ attachmentCount: 1 });
  });

  it('cancels after the first chunk: nothing more is sent and nothing is left', async () => {
    const fileId = ID.unique();
    let cancel: Promise<void> | null = null;
    const upload = files.upload(BUCKETS.attachments, fileId, pdf(22 * MB, 2), () => {
      cancel ??= upload.cancel();
    });
    await expect(upload.done).rejects.toBeInstanceOf(UploadCanceled);
    await cancel;
    expect(await exists(fileId)).toBe(false);
    await sleep(300);
    expect(await exists(fileId)).toBe(false);
  });

  it('cancels with chunks in flight: it waits for them, then deletes what arrived', async () => {
    const fileId = ID.unique();
    let cancel: Promise<void> | null = null;
    let progress = 0;
    const upload = files.upload(BUCKETS.attachments, fileId, pdf(22 * MB, 3), () => {
      progress += 1;
      if (progress === 2) cancel = upload.cancel();
    });
    await expect(upload.done).rejects.toBeInstanceOf(UploadCanceled);
    await cancel;
    expect(await exists(fileId)).toBe(false);
    await sleep(300);
    expect(await exists(fileId)).toBe(false);
  });

  it('says the bucket’s refusal as the product does', async () => {
    const upload = files.upload(
      BUCKETS.attachments,
      ID.unique(),
      new File([new Uint8Array([77, 90])], 'setup.exe'),
      () => {},
    );
    await expect(upload.done).rejects.toMatchObject({
      code: 'UPLOAD_TYPE',
      message: 'Files up to 50 MB: images, PDF or text.',
    });
    const refused = await new WebFunctions(ana.client).createExecution({
      functionId: FUNCTIONS.attachmentAction,
      body: JSON.stringify({ action: 'attach', orderId: 'x', fileId: 'missing' }),
    });
    expect(refused.responseStatusCode).toBe(400);
  });
});
