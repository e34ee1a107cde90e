import { request } from 'node:http';
import { ID, Storage } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { backend, serverClient, uniqueTestId } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { chunkOf, getRaw, md5, patternBytes, postFile } from '../support/storage.ts';

/**
 * Sends the multipart request of one chunk but only `sentBytes` of its body, and leaves the
 * request open (the connection is cut when the backend dies).
 */
function startChunk(
  endpoint: string,
  headers: Record<string, string>,
  bucketId: string,
  fileId: string,
  chunk: { data: Uint8Array; contentRange: string },
): Promise<void> {
  const boundary = `----livedesk${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="fileId"\r\n\r\n${fileId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="crash.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${endpoint}/storage/buckets/${bucketId}/files`);
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + chunk.data.length + tail.length),
        'content-range': chunk.contentRange,
        'x-appwrite-id': fileId,
      },
    });
    req.on('error', () => {});
    req.write(head);
    req.write(chunk.data.subarray(0, chunk.data.length >> 1), () => resolve());
  });
}

describe('storage across a crash', () => {
  it('keeps acknowledged chunks through kill -9, never shows a half upload as finished, and finishes it with the remaining chunks', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const storage = new Storage(serverClient(own));
    const bucketId = (await storage.createBucket({ bucketId: uniqueTestId('kb'), name: 'Crash' }))
      .$id;
    const bytes = patternBytes(14 * 1024 * 1024, 21);
    const fileId = ID.unique();
    const send = (index: number) =>
      postFile({
        connection: own,
        bucketId,
        fileId,
        name: 'crash.bin',
        ...chunkOf(bytes, index),
        uploadId: fileId,
      });
    expect((await send(1)).body).toMatchObject({ chunksUploaded: 1, chunksTotal: 3 });
    expect((await send(3)).body).toMatchObject({ chunksUploaded: 2 });
    await startChunk(
      own.endpoint,
      { 'x-appwrite-project': own.projectId, 'x-appwrite-key': own.apiKey },
      bucketId,
      fileId,
      chunkOf(bytes, 2),
    );
    await own.crashAndRestart();

    const after = await storage.getFile({ bucketId, fileId });
    expect(after).toMatchObject({ chunksUploaded: 2, chunksTotal: 3, signature: '' });
    const listed = await storage.listFiles({ bucketId });
    expect(listed.files.filter((file) => file.chunksUploaded === file.chunksTotal)).toHaveLength(0);
    const early = await getRaw(`/storage/buckets/${bucketId}/files/${fileId}/download`, {}, own);
    expect(early.status).toBe(404);

    const last = await send(2);
    expect(last.status).toBe(201);
    expect(last.body).toMatchObject({ chunksUploaded: 3, signature: md5(bytes) });
    await own.crashAndRestart();
    const downloaded = await getRaw(
      `/storage/buckets/${bucketId}/files/${fileId}/download`,
      {},
      own,
    );
    expect(downloaded.status).toBe(200);
    expect(md5(downloaded.bytes)).toBe(md5(bytes));

    await storage.deleteFile({ bucketId, fileId });
    expect((await storage.getBucket({ bucketId })).totalSize).toBe(0);
  });
});
