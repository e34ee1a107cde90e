import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'appwrite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSnapshot, readPersisted, SNAPSHOT_VERSION } from '../sync/persist.ts';
import { encodeSnapshotFile } from '../sync/snapshot-file.ts';
import { makeOrder } from '../sync/testing/orders.ts';
import { Prng } from '../sync/testing/prng.ts';
import { downloadServerSnapshot } from './server-snapshot.ts';

const rng = new Prng(3);
const orders = Array.from({ length: 300 }, (_, i) =>
  Object.freeze(makeOrder(rng, { number: i + 1, createdAt: 5_000 + i, status: 'paid' })),
);
const file = encodeSnapshotFile(encodeSnapshot({ savedAt: 1, watermark: 5_299, orders }));

let server: Server;
let answer: 'file' | 'missing' | 'garbage' = 'file';
const asked: { url: string; project: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push({
      url: request.url ?? '',
      project: request.headers['x-appwrite-project'] as string,
    });
    if (answer === 'missing') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ message: 'File not found', code: 404, type: 'storage_file_not_found' }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    response.end(answer === 'file' ? file : Buffer.from('not a snapshot'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = () =>
  new Client()
    .setEndpoint(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)
    .setProject('p1');

describe("the desk's server-kept snapshot, downloaded", () => {
  it('is the file of the snapshots bucket, read as a stored snapshot', async () => {
    answer = 'file';
    const stored = await downloadServerSnapshot(client());
    expect(asked.at(-1)).toEqual({
      url: '/v1/storage/buckets/snapshots/files/orders/download',
      project: 'p1',
    });
    expect(readPersisted(stored, SNAPSHOT_VERSION)?.orders.toArray()).toEqual(orders);
  });

  it('is none when the backend has none, answers other bytes, or cannot be reached', async () => {
    answer = 'missing';
    expect(await downloadServerSnapshot(client())).toBeUndefined();
    answer = 'garbage';
    expect(await downloadServerSnapshot(client())).toBeUndefined();
    const closed = new Client().setEndpoint('http://127.0.0.1:1/v1').setProject('p1');
    expect(await downloadServerSnapshot(closed)).toBeUndefined();
  });
});
