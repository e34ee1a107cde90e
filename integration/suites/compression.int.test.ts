import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Databases, ID } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { backend, beforeAllOnTarget, serverClient, uniqueTestId } from '../support/clients.ts';

/** A raw GET with the API key and an `Accept-Encoding` of our choosing (fetch would decode). */
function get(
  path: string,
  acceptEncoding: string | null,
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  const { endpoint, projectId, apiKey } = backend();
  const url = new URL(`${endpoint}${path}`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        headers: {
          'X-Appwrite-Project': projectId,
          'X-Appwrite-Key': apiKey,
          ...(acceptEncoding === null ? {} : { 'Accept-Encoding': acceptEncoding }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('response compression (as Appwrite: by Accept-Encoding, above 1 KB)', () => {
  let databaseId = '';
  beforeAllOnTarget(async () => {
    databaseId = uniqueTestId('gz');
    const databases = new Databases(serverClient());
    await databases.create(databaseId, 'Compression');
    // A list answer well above the threshold: 30 collections.
    for (let i = 0; i < 30; i++)
      await databases.createCollection(databaseId, ID.unique(), `Collection number ${i}`);
  });

  it('compresses a large JSON answer with the coding asked for, the same JSON inside', async () => {
    const path = `/databases/${databaseId}/collections?total=true`;
    const plain = await get(path, null);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const json = JSON.parse(plain.body.toString('utf8')) as { total: number };
    expect(json.total).toBe(30);
    const decoders = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync };
    for (const [coding, decode] of Object.entries(decoders)) {
      const answer = await get(path, coding);
      expect(answer.headers['content-encoding']).toBe(coding);
      expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
      expect(answer.body.length).toBeLessThan(plain.body.length / 2);
      expect(JSON.parse(decode(answer.body).toString('utf8'))).toEqual(json);
    }
    // Preference by q-value; among equals the one named first (a browser's `gzip, deflate, br,
    // zstd`: gzip); a refused coding is not used.
    expect((await get(path, 'gzip;q=1, br;q=0.5')).headers['content-encoding']).toBe('gzip');
    expect((await get(path, 'gzip, deflate, br, zstd')).headers['content-encoding']).toBe('gzip');
    expect((await get(path, 'br, gzip')).headers['content-encoding']).toBe('br');
    expect((await get(path, 'br;q=0, *')).headers['content-encoding']).toBe('gzip');
    expect((await get(path, 'identity')).headers['content-encoding']).toBeUndefined();
  });

  it('sends a small answer as it is', async () => {
    const small = await get('/health/version', 'gzip, br');
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toEqual({ version: expect.any(String) });
  });

  it('answers the SDK (which asks for compression) with what it decodes', async () => {
    const list = await new Databases(serverClient()).listCollections(databaseId);
    expect(list.total).toBe(30);
  });
});
