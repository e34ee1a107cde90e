import { AppwriteException, ID, Permission, Query, Role, Storage } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { backend, beforeAllOnTarget, serverClient, uniqueTestId } from '../support/clients.ts';
import { createWebUser } from '../support/realtime.ts';
import {
  chunkOf,
  getRaw,
  md5,
  patternBytes,
  postFile,
  type RawAnswer,
} from '../support/storage.ts';
import { Storage as WebStorage } from 'appwrite';

const MB = 1024 * 1024;

async function refusal(promise: Promise<unknown>): Promise<AppwriteException> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppwriteException) return error;
    if (error && typeof error === 'object' && 'type' in error) return error as AppwriteException;
    throw error;
  }
  throw new Error('expected the request to be refused');
}

function expectRefused(answer: RawAnswer, status: number, type: string): void {
  expect({ status: answer.status, type: answer.body.type }).toEqual({ status, type });
}

/** Files through node-appwrite (API key) and the browser SDK (a user), and raw chunked requests. */
describe('storage files', () => {
  const storage = () => new Storage(serverClient());
  let bucketId: string;

  async function bucket(
    options: {
      maximumFileSize?: number;
      allowedFileExtensions?: string[];
      enabled?: boolean;
      permissions?: string[];
    } = {},
  ) {
    return storage().createBucket({
      bucketId: uniqueTestId('bk'),
      name: 'Files',
      permissions: [Permission.read(Role.users()), Permission.create(Role.users())],
      ...options,
    });
  }

  beforeAllOnTarget(async () => {
    bucketId = (await bucket()).$id;
  });

  it('creates, gets, lists, updates, downloads and deletes a small file (node-appwrite)', async () => {
    const bytes = Buffer.from('first line\nsecond line\n');
    const file = await storage().createFile({
      bucketId,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(bytes, 'notes.txt'),
    });
    expect(file).toMatchObject({
      bucketId,
      name: 'notes.txt',
      sizeOriginal: bytes.length,
      chunksTotal: 1,
      chunksUploaded: 1,
      signature: md5(bytes),
      mimeType: 'text/plain',
      $permissions: [],
    });
    expect(await storage().getFile({ bucketId, fileId: file.$id })).toEqual(file);
    const listed = await storage().listFiles({
      bucketId,
      queries: [Query.equal('name', ['notes.txt'])],
    });
    expect(listed.files.map((item) => item.$id)).toContain(file.$id);
    expect(listed.total).toBe(listed.files.length);

    const renamed = await storage().updateFile({
      bucketId,
      fileId: file.$id,
      name: 'renamed.txt',
      permissions: [Permission.read(Role.any())],
    });
    expect(renamed).toMatchObject({ name: 'renamed.txt', $permissions: ['read("any")'] });
    const downloaded = Buffer.from(await storage().getFileDownload({ bucketId, fileId: file.$id }));
    expect(downloaded.equals(bytes)).toBe(true);

    await storage().deleteFile({ bucketId, fileId: file.$id });
    expect((await refusal(storage().getFile({ bucketId, fileId: file.$id }))).type).toBe(
      'storage_file_not_found',
    );
    const after = await storage().listFiles({
      bucketId,
      queries: [Query.equal('$id', [file.$id])],
    });
    expect(after.total).toBe(0);
  });

  it('uploads 12 MB in 5 MiB chunks through both SDKs and gives the same bytes back', async () => {
    const bytes = patternBytes(12 * MB + 321, 7);
    const progress: number[] = [];
    const viaNode = await storage().createFile({
      bucketId,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(bytes, 'big.bin'),
      onProgress: (event) => progress.push(event.chunksUploaded),
    });
    expect(viaNode).toMatchObject({
      chunksTotal: 3,
      chunksUploaded: 3,
      sizeOriginal: bytes.length,
      signature: md5(bytes),
    });
    expect(progress.at(-1)).toBe(3);

    const user = await createWebUser('Uploader');
    const viaWeb = await new WebStorage(user.client).createFile({
      bucketId,
      fileId: ID.unique(),
      file: new File([new Uint8Array(bytes)], 'big-web.bin'),
    });
    expect(viaWeb).toMatchObject({ chunksTotal: 3, chunksUploaded: 3, signature: md5(bytes) });
    expect(viaWeb.$permissions).toEqual([
      `read("user:${user.userId}")`,
      `update("user:${user.userId}")`,
      `delete("user:${user.userId}")`,
    ]);
    for (const fileId of [viaNode.$id, viaWeb.$id]) {
      const downloaded = Buffer.from(await storage().getFileDownload({ bucketId, fileId }));
      expect(md5(downloaded)).toBe(md5(bytes));
    }
  });

  /** Files sent in chunks (over 5 MiB) and in one request, alternately. */
  const ROUND_SIZES = Array.from({ length: 30 }, (_, round) =>
    round % 2 ? 5 * MB + round : 60 * 1024 + round,
  );

  it('keeps the new bytes of a file created again with its id at once after its deletion', async () => {
    const fileId = ID.unique();
    // Other uploads keep the backend's disk work busy meanwhile: the old bytes' removal lags.
    let busy = true;
    const others = Array.from({ length: 4 }, async (_, lane) => {
      const bytes = patternBytes(16 * MB, lane);
      while (busy)
        await storage().createFile({
          bucketId,
          fileId: ID.unique(),
          file: InputFile.fromBuffer(bytes, 'other.bin'),
        });
    });
    try {
      for (const [round, size] of ROUND_SIZES.entries()) {
        const bytes = patternBytes(size, round + 1);
        const file = await storage().createFile({
          bucketId,
          fileId,
          file: InputFile.fromBuffer(bytes, `round-${round}.bin`),
        });
        expect(file, `round ${round}`).toMatchObject({ sizeOriginal: size, signature: md5(bytes) });
        const downloaded = Buffer.from(await storage().getFileDownload({ bucketId, fileId }));
        expect(md5(downloaded), `round ${round}: the bytes downloaded`).toBe(md5(bytes));
        await storage().deleteFile({ bucketId, fileId });
      }
    } finally {
      busy = false;
      await Promise.all(others);
    }
  });

  it('answers where chunked uploads spent their time on the backend (test switch, bootstrap key only)', async () => {
    const connection = backend();
    const url = `${connection.endpoint.replace(/\/v1$/, '')}/_emulator/storage/timings`;
    expect((await fetch(url)).status).toBe(401);
    const bytes = patternBytes(11 * MB, 9);
    await storage().createFile({
      bucketId,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(bytes, 'timed.bin'),
    });
    const report = (await (
      await fetch(url, { headers: { 'x-appwrite-key': connection.apiKey } })
    ).json()) as {
      chunkAnswer: { count: number; median: number; max: number };
      finishes: { md5: number; flush: number; total: number }[];
    };
    // other suites upload beside this one: at least this upload's 3 chunks and 1 finish
    expect(report.chunkAnswer.count).toBeGreaterThanOrEqual(3);
    expect(report.chunkAnswer.max).toBeGreaterThanOrEqual(report.chunkAnswer.median);
    expect(report.finishes.length).toBeGreaterThanOrEqual(1);
    for (const finish of report.finishes)
      expect(finish.total).toBeGreaterThanOrEqual(Math.max(finish.md5, finish.flush));
  });

  it('takes chunks in any order, answers a repeated chunk as Appwrite does, and only then is the file finished', async () => {
    const bytes = patternBytes(11 * MB, 3);
    const fileId = ID.unique();
    const send = (index: number) =>
      postFile({ bucketId, fileId, name: 'parts.bin', ...chunkOf(bytes, index), uploadId: fileId });

    const third = await send(3);
    expect(third.status).toBe(201);
    expect(third.body).toMatchObject({ $id: fileId, chunksTotal: 3, chunksUploaded: 1 });
    const first = await send(1);
    expect(first.body).toMatchObject({ chunksUploaded: 2 });
    const again = await send(1);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ chunksUploaded: 2, chunksTotal: 3 });

    const unfinished = await storage().getFile({ bucketId, fileId });
    expect(unfinished.chunksUploaded).toBeLessThan(unfinished.chunksTotal);
    const early = await getRaw(`/storage/buckets/${bucketId}/files/${fileId}/download`);
    expect(early.status).toBe(404);

    const last = await send(2);
    expect(last.status).toBe(201);
    expect(last.body).toMatchObject({ chunksUploaded: 3, signature: md5(bytes) });
    const repeated = await send(2);
    expect(repeated.status).toBe(200);
    expect(repeated.body).toMatchObject({ chunksUploaded: 3 });
    const whole = await postFile({
      bucketId,
      fileId,
      name: 'parts.bin',
      data: bytes.subarray(0, 10),
    });
    expectRefused(whole, 409, 'storage_file_already_exists');
    const downloaded = await getRaw(`/storage/buckets/${bucketId}/files/${fileId}/download`);
    expect(md5(downloaded.bytes)).toBe(md5(bytes));
  });

  it('takes a first chunk whose fileId comes after the file (its id unknown while it arrives)', async () => {
    const bytes = patternBytes(8 * MB, 41);
    const fileId = ID.unique();
    const first = await postFile({
      bucketId,
      fileId,
      name: 'late-id.bin',
      ...chunkOf(bytes, 1),
      fileFirst: true,
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ $id: fileId, chunksUploaded: 1, chunksTotal: 2 });
    const last = await postFile({
      bucketId,
      fileId,
      name: 'late-id.bin',
      ...chunkOf(bytes, 2),
      uploadId: fileId,
      fileFirst: true,
    });
    expect(last.body).toMatchObject({ chunksUploaded: 2, signature: md5(bytes) });
    const downloaded = await getRaw(`/storage/buckets/${bucketId}/files/${fileId}/download`);
    expect(md5(downloaded.bytes)).toBe(md5(bytes));
  });

  it('takes the chunks of one upload sent all at once', async () => {
    const bytes = patternBytes(23 * MB, 11);
    const fileId = ID.unique();
    const first = await postFile({ bucketId, fileId, name: 'fan.bin', ...chunkOf(bytes, 1) });
    expect(first.status).toBe(201);
    const answers = await Promise.all(
      [5, 2, 4, 3].map((index) =>
        postFile({ bucketId, fileId, name: 'fan.bin', ...chunkOf(bytes, index), uploadId: fileId }),
      ),
    );
    expect(answers.map((item) => item.status)).toEqual([201, 201, 201, 201]);
    expect(answers.filter((item) => item.body.chunksUploaded === 5)).toHaveLength(1);
    const file = await storage().getFile({ bucketId, fileId });
    expect(file).toMatchObject({ chunksUploaded: 5, signature: md5(bytes) });
  });

  it('leaves nothing of a chunk refused once its bytes were read (permissions after the file, a short body) for a later upload of that id', async () => {
    const fileId = ID.unique();
    // chunk 3 of a 14 MB upload, its permissions (sent after the file) invalid: refused
    const stale = patternBytes(14 * MB, 31);
    expectRefused(
      await postFile({
        bucketId,
        fileId,
        name: 'late.bin',
        ...chunkOf(stale, 3),
        uploadId: fileId,
        permissions: ['read("nobody-knows-this-role")'],
      }),
      400,
      'general_argument_invalid',
    );
    // chunk 1 with fewer bytes than its range names: refused
    const short = chunkOf(stale, 1);
    expectRefused(
      await postFile({
        bucketId,
        fileId,
        name: 'late.bin',
        data: short.data.subarray(0, 1000),
        contentRange: short.contentRange,
        uploadId: fileId,
      }),
      400,
      'storage_invalid_content_range',
    );
    expect((await refusal(storage().getFile({ bucketId, fileId }))).type).toBe(
      'storage_file_not_found',
    );
    // the id then takes a smaller upload: none of the refused bytes are part of it
    const bytes = patternBytes(7 * MB, 32);
    for (const index of [2, 1]) {
      const answer = await postFile({
        bucketId,
        fileId,
        name: 'late.bin',
        ...chunkOf(bytes, index),
        uploadId: fileId,
      });
      expect(answer.status).toBe(201);
    }
    const file = await storage().getFile({ bucketId, fileId });
    expect(file).toMatchObject({
      chunksUploaded: 2,
      sizeOriginal: bytes.length,
      signature: md5(bytes),
    });
    const downloaded = await getRaw(`/storage/buckets/${bucketId}/files/${fileId}/download`);
    expect(downloaded.bytes.length).toBe(bytes.length);
    expect(md5(downloaded.bytes)).toBe(md5(bytes));
  });

  it('refuses each bad upload with Appwrite’s error and keeps nothing of it', async () => {
    const strict = await bucket({
      maximumFileSize: 6 * MB,
      allowedFileExtensions: ['png', 'txt'],
    });
    const disabled = await bucket({ enabled: false });
    const user = await createWebUser('Refused');
    const asUser = { 'x-appwrite-session': user.secret };
    const small = Buffer.from('hello');
    const fileId = () => ID.unique();

    expectRefused(
      await postFile({
        bucketId: uniqueTestId('none'),
        fileId: fileId(),
        name: 'a.txt',
        data: small,
      }),
      404,
      'storage_bucket_not_found',
    );
    expectRefused(
      await postFile({
        bucketId: disabled.$id,
        fileId: fileId(),
        name: 'a.txt',
        data: small,
        headers: asUser,
      }),
      404,
      'storage_bucket_not_found',
    );
    expect(
      (await postFile({ bucketId: disabled.$id, fileId: fileId(), name: 'a.txt', data: small }))
        .status,
    ).toBe(201);
    expectRefused(
      await postFile({ bucketId: strict.$id, fileId: fileId(), name: 'tool.exe', data: small }),
      400,
      'storage_file_type_unsupported',
    );
    expectRefused(
      await postFile({ bucketId: strict.$id, fileId: fileId(), name: 'noextension', data: small }),
      400,
      'storage_file_type_unsupported',
    );
    expect(
      (await postFile({ bucketId: strict.$id, fileId: fileId(), name: 'UPPER.TXT', data: small }))
        .status,
    ).toBe(201);
    expectRefused(
      await postFile({
        bucketId: strict.$id,
        fileId: fileId(),
        name: 'big.txt',
        data: patternBytes(6 * MB + 1),
      }),
      400,
      'storage_invalid_file_size',
    );
    const tooBig = patternBytes(13 * MB);
    expectRefused(
      await postFile({
        bucketId: strict.$id,
        fileId: fileId(),
        name: 'big.txt',
        ...chunkOf(tooBig, 1),
      }),
      400,
      'storage_invalid_file_size',
    );
    for (const contentRange of ['bytes 0-9/5', 'bytes=0-9/10', 'bytes 9-0/10', 'bytes 1-5/10']) {
      expectRefused(
        await postFile({
          bucketId: strict.$id,
          fileId: fileId(),
          name: 'a.txt',
          data: small,
          contentRange,
        }),
        400,
        'storage_invalid_content_range',
      );
    }
    expectRefused(
      await postFile({
        bucketId: strict.$id,
        fileId: fileId(),
        name: 'a.txt',
        data: small,
        contentRange: 'bytes 0-4/5',
        uploadId: '_bad id',
      }),
      400,
      'storage_invalid_appwrite_id',
    );
    const form = new FormData();
    form.append('fileId', 'unique()');
    const empty = await fetch(
      `${serverClient().config.endpoint}/storage/buckets/${strict.$id}/files`,
      {
        method: 'POST',
        headers: {
          'x-appwrite-project': serverClient().config.project,
          'x-appwrite-key': serverClient().config.key,
        },
        body: form,
      },
    );
    expect({ status: empty.status, type: ((await empty.json()) as { type: string }).type }).toEqual(
      {
        status: 400,
        type: 'storage_file_empty',
      },
    );
    const locked = await bucket({ permissions: [Permission.read(Role.users())] });
    expectRefused(
      await postFile({
        bucketId: locked.$id,
        fileId: fileId(),
        name: 'a.txt',
        data: small,
        headers: asUser,
      }),
      401,
      'user_unauthorized',
    );
    expectRefused(
      await postFile({
        bucketId: locked.$id,
        fileId: fileId(),
        name: 'a.txt',
        data: small,
        headers: {},
      }),
      401,
      'user_unauthorized',
    );

    const kept = await storage().listFiles({ bucketId: strict.$id });
    expect(kept.files.map((file) => file.name)).toEqual(['UPPER.TXT']);
    expect((await storage().listFiles({ bucketId: locked.$id })).total).toBe(0);
  });

  it('answers a Range request with 206 and the bytes asked for, and refuses what Appwrite refuses', async () => {
    const bytes = patternBytes(3 * MB, 5);
    const file = await storage().createFile({
      bucketId,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(bytes, 'range.bin'),
    });
    const path = `/storage/buckets/${bucketId}/files/${file.$id}/download`;
    const part = await getRaw(path, { range: 'bytes=1000-2999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-2999/${bytes.length}`);
    expect(part.headers.get('accept-ranges')).toBe('bytes');
    expect(part.bytes.equals(bytes.subarray(1000, 3000))).toBe(true);
    const open = await getRaw(path, { range: `bytes=${bytes.length - 10}-` });
    expect(open.bytes.equals(bytes.subarray(bytes.length - 10))).toBe(true);
    for (const range of ['bytes=0-0', `bytes=0-${bytes.length}`, 'items=0-5']) {
      const refused = await getRaw(path, { range });
      expect({
        range,
        status: refused.status,
        type: JSON.parse(refused.bytes.toString()).type,
      }).toEqual({
        range,
        status: 416,
        type: 'storage_invalid_range',
      });
    }
    const whole = await getRaw(path);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-disposition')).toBe('attachment; filename="range.bin"');
    expect(md5(whole.bytes)).toBe(md5(bytes));
    const view = await getRaw(`/storage/buckets/${bucketId}/files/${file.$id}/view`);
    expect(view.headers.get('content-type')).toBe('text/plain');
    expect(view.headers.get('content-disposition')).toBe('inline; filename="range.bin"');
  });

  it('previews an image at the asked size and format, and a non-image as a placeholder', async () => {
    const png = await sharp({
      create: { width: 400, height: 300, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer();
    const image = await storage().createFile({
      bucketId,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(png, 'photo.png'),
    });
    expect(image.mimeType).toBe('image/png');
    const preview = async (query: Record<string, string | number>) =>
      sharp(
        Buffer.from(await storage().getFilePreview({ bucketId, fileId: image.$id, ...query })),
      ).metadata();
    expect(await preview({ width: 100 })).toMatchObject({ width: 100, height: 75, format: 'png' });
    expect(await preview({ width: 120, height: 120, output: 'webp', quality: 50 })).toMatchObject({
      width: 120,
      height: 120,
      format: 'webp',
    });
    expect(await preview({ height: 30, output: 'jpg' })).toMatchObject({
      width: 40,
      height: 30,
      format: 'jpeg',
    });
    const text = await storage().createFile({
      bucketId,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(Buffer.from('not an image'), 'plain.txt'),
    });
    const placeholder = await sharp(
      Buffer.from(await storage().getFilePreview({ bucketId, fileId: text.$id, width: 60 })),
    ).metadata();
    expect(placeholder).toMatchObject({ width: 60, format: 'png' });
    const refused = await refusal(
      storage().getFilePreview({ bucketId, fileId: image.$id, width: 5000 }),
    );
    expect(refused.type).toBe('general_argument_invalid');
  });
});
