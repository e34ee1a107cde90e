import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'node-appwrite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDocument } from '../../domain/order.ts';
import type { OrderChange } from '../../domain/order-machine.ts';
import { commitOrderChange } from './order-writes.ts';

/** What the test server answers next, per request kind, and what it saw. */
const answers: { order: number; activity: number } = { order: 200, activity: 201 };
const seen: { method: string; url: string; headers: Record<string, unknown>; body: unknown }[] = [];
let server: Server;
let client: Client;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: JSON.parse(body),
      });
      const status = req.url!.includes('/collections/orders/') ? answers.order : answers.activity;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        status < 300
          ? JSON.stringify({ $id: 'o1', rev: 4, status: 'ready' })
          : JSON.stringify({ message: 'no', code: status, type: 'document_update_conflict' }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new Client()
    .setEndpoint(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)
    .setProject('p1')
    .setKey('secret');
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const read = { $id: 'o1', $updatedAt: '2026-11-23T09:00:00.000+00:00', rev: 3 } as OrderDocument;
const change: OrderChange = {
  patch: { rev: 4, updatedById: 'u1', updatedByName: 'Ana', status: 'ready' },
  activity: { kind: 'status', data: { from: 'preparing', to: 'ready' } },
};

describe('commitOrderChange (two conditional writes until transactions)', () => {
  it('writes the order as of the $updatedAt it read, then its activity record for the new rev', async () => {
    seen.length = 0;
    Object.assign(answers, { order: 200, activity: 201 });
    const committed = await commitOrderChange(client, read, change, { id: 'u1', name: 'Ana' }, 0);
    expect(committed).toMatchObject({ order: { $id: 'o1', rev: 4 }, activityError: null });
    const [order, activity] = seen;
    expect([order!.method, order!.url]).toEqual([
      'PATCH',
      '/v1/databases/livedesk/collections/orders/documents/o1',
    ]);
    expect(order!.headers['x-appwrite-timestamp']).toBe(read.$updatedAt);
    expect(order!.body).toEqual({
      data: { rev: 4, updatedById: 'u1', updatedByName: 'Ana', status: 'ready' },
    });
    expect(activity!.url).toBe('/v1/databases/livedesk/collections/activity/documents');
    expect(activity!.body).toMatchObject({
      documentId: 'o1.r4',
      data: { orderId: 'o1', kind: 'status', actorId: 'u1', actorName: 'Ana' },
    });
  });

  it('writes nothing more when the order changed since it was read', async () => {
    seen.length = 0;
    Object.assign(answers, { order: 409, activity: 201 });
    expect(await commitOrderChange(client, read, change, { id: 'u1', name: 'Ana' }, 0)).toBe(
      'conflict',
    );
    expect(seen).toHaveLength(1);
  });

  it('reports a missing activity record without hiding that the order changed', async () => {
    Object.assign(answers, { order: 200, activity: 500 });
    const committed = await commitOrderChange(client, read, change, { id: null, name: null }, 0);
    expect(committed).not.toBe('conflict');
    expect((committed as { activityError: unknown }).activityError).toMatchObject({ code: 500 });
  });
});
