import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Databases } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import { activityIdFor, refuse, STATUS_OF, updateDocumentIfUnchanged } from './appwrite.ts';
import type { FunctionContext } from './runtime.ts';

describe('functions/_shared', () => {
  it('derives one activity id per order revision, within 36 characters', () => {
    expect(activityIdFor('6b0388c77b890c53228d', 7)).toBe('6b0388c77b890c53228d.r7');
    const long = activityIdFor('a'.repeat(36), 12);
    expect(long).toHaveLength(36);
    expect(long).toMatch(/^a[0-9a-f]{35}$/);
    expect(activityIdFor('a'.repeat(36), 13)).not.toBe(long);
  });

  it('answers refusals with the status of the wire contract', () => {
    expect(STATUS_OF).toMatchObject({
      AUTH_REQUIRED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      ORDER_CONFLICT: 409,
      INVALID_TRANSITION: 400,
      VALIDATION: 400,
      SERVER_ERROR: 500,
    });
    const ctx = {
      res: { json: (body: unknown, statusCode = 200) => ({ body, statusCode }) },
    } as unknown as FunctionContext;
    expect(
      refuse(ctx, new AppError('ORDER_CONFLICT', 'Ana claimed this order a moment ago.')),
    ).toEqual({
      statusCode: 409,
      body: { error: { code: 'ORDER_CONFLICT', message: 'Ana claimed this order a moment ago.' } },
    });
  });
});

describe('updateDocumentIfUnchanged', () => {
  it('sends the request Databases.updateDocument sends, with the X-Appwrite-Timestamp it read', async () => {
    const seen: {
      method: string;
      url: string;
      headers: IncomingMessage['headers'];
      body: string;
    }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"$id":"o1"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new Client()
      .setEndpoint(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)
      .setProject('p1')
      .setKey('secret');
    const data = { status: 'ready', rev: 3 };
    await new Databases(client).updateDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: 'o1',
      data,
    });
    const updatedAt = '2026-11-23T09:00:00.000+00:00';
    await updateDocumentIfUnchanged(client, COLLECTIONS.orders, 'o1', data, updatedAt);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));

    const [sdk, conditional] = seen;
    expect(conditional!.method).toBe(sdk!.method);
    expect(conditional!.url).toBe(sdk!.url);
    expect(JSON.parse(conditional!.body)).toEqual(JSON.parse(sdk!.body));
    for (const header of ['x-appwrite-project', 'x-appwrite-key', 'content-type', 'accept'])
      expect(conditional!.headers[header]).toBe(sdk!.headers[header]);
    expect(conditional!.headers['x-appwrite-timestamp']).toBe(updatedAt);
  });
});
