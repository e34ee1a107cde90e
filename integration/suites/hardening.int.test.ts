import { Databases, ID, Users } from 'node-appwrite';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { backend, serverClient, uniqueTestId } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { errorType, rawExchange } from '../support/raw-http.ts';
import type { BackendConnection } from '../targets/types.ts';

// Hostile input from any web page or client: what the backend parses (query strings, cookies,
// request lines, multipart fields) must never change how later requests behave, and must never
// answer 500 or stop the process. Tests that could break a shared backend start their own.

function headersOf(connection: BackendConnection, extra: Record<string, string> = {}) {
  return { 'x-appwrite-project': connection.projectId, ...extra };
}

async function health(connection: BackendConnection): Promise<number> {
  const response = await fetch(`${connection.endpoint}/health/version`, {
    signal: AbortSignal.timeout(5_000),
  });
  return response.status;
}

describe('hostile query strings', () => {
  it('a __proto__ or constructor key in a query string changes nothing for later requests', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const databases = new Databases(serverClient(own));
    await databases.create({ databaseId: 'kept', name: 'Kept' });
    const hostile = [
      '__proto__[total]=false',
      'constructor[prototype][total]=false',
      '__proto__[queries][0]=x',
      'a[__proto__][total]=false',
    ].join('&');
    const polluting = await fetch(`${own.endpoint}/databases?${hostile}`, {
      headers: headersOf(own, { 'x-appwrite-key': own.apiKey }),
    });
    expect(polluting.status).toBe(200);
    // The realtime endpoint reads its URL with the same parser.
    const socket = new WebSocket(
      `${own.endpoint.replace(/^http/, 'ws')}/realtime?project=${own.projectId}&${hostile}`,
    );
    await new Promise<void>((resolve) => {
      socket.once('message', () => resolve());
      socket.once('error', () => resolve());
      socket.once('close', () => resolve());
    });
    socket.terminate();

    const list = await databases.list();
    expect(list.total).toBe(1);
    expect(list.databases.map((database) => database.$id)).toEqual(['kept']);
  });
});

describe('malformed cookies, request lines and bodies', () => {
  it('a cookie with broken percent-encoding is ignored, not answered with a 500', async () => {
    const connection = backend();
    const users = new Users(serverClient(connection));
    const user = await users.create({
      userId: ID.unique(),
      email: `${uniqueTestId('ck')}@example.test`,
      password: 'password-123',
    });
    const session = await users.createSession({ userId: user.$id });
    const cookieName = `a_session_${connection.projectId}`;

    const guest = await fetch(`${connection.endpoint}/account`, {
      headers: headersOf(connection, { cookie: `${cookieName}=%E0%A4%A; other=%zz` }),
    });
    expect(guest.status).toBe(401);
    expect(((await guest.json()) as { type: string }).type).toBe('general_unauthorized_scope');

    const signedIn = await fetch(`${connection.endpoint}/account`, {
      headers: headersOf(connection, {
        cookie: `broken=%E0%A4%A; ${cookieName}=${session.secret}`,
      }),
    });
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { $id: string }).$id).toBe(user.$id);
  });

  it('a request line whose URL cannot be parsed gets a 400 and the backend keeps serving', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const plain = await rawExchange(
      own,
      'GET http://[::1/v1/health/version HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(plain.status).toBeGreaterThanOrEqual(400);
    expect(plain.status).toBeLessThan(500);
    const upgrade = await rawExchange(
      own,
      [
        'GET http://[::1/v1/realtime HTTP/1.1',
        'Host: 127.0.0.1',
        'Upgrade: websocket',
        'Connection: Upgrade',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
      2_000,
    );
    expect(upgrade.status === 0 || (upgrade.status >= 400 && upgrade.status < 500)).toBe(true);
    expect(await health(own)).toBe(200);
  });

  it('multipart fields named like prototype keys get a 4xx, not a 500', async () => {
    const connection = backend();
    for (const name of ['__proto__[]', '__proto__', 'constructor[]', 'toString[]']) {
      const form = new FormData();
      form.append(name, 'x');
      form.append('userId', 'unique()');
      const response = await fetch(`${connection.endpoint}/account`, {
        method: 'POST',
        headers: headersOf(connection),
        body: form,
      });
      expect(response.status, name).toBeGreaterThanOrEqual(400);
      expect(response.status, name).toBeLessThan(500);
    }
  });

  it('a header or body in a broken encoding gets a 4xx, not a 500', async () => {
    const connection = backend();
    const cases: { headers: Record<string, string>; body?: BodyInit }[] = [
      { headers: { 'content-type': 'application/json' }, body: Buffer.from([0xff, 0xfe, 0x7b]) },
      { headers: { 'content-type': 'multipart/form-data; boundary=' }, body: '--\r\n' },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=%&b[=1' },
      { headers: { 'x-fallback-cookies': 'null' } },
      { headers: { 'x-fallback-cookies': '{"a_session_x": {"__proto__": 1}}' } },
      { headers: { 'x-appwrite-timestamp': 'yesterday' } },
      { headers: { 'x-appwrite-jwt': 'a.b.c' } },
    ];
    for (const { headers, body } of cases) {
      const response = await fetch(`${connection.endpoint}/account`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: headersOf(connection, headers),
        body,
      });
      const label = JSON.stringify(headers);
      expect(response.status, label).toBeGreaterThanOrEqual(400);
      expect(response.status, label).toBeLessThan(500);
    }
    const encoded = await rawExchange(
      connection,
      [
        'POST /v1/account HTTP/1.1',
        'Host: 127.0.0.1',
        `X-Appwrite-Project: ${connection.projectId}`,
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
        'Connection: close',
        '',
        'zz',
        '{}',
        '0',
        '',
        '',
      ].join('\r\n'),
    );
    expect(encoded.status === 0 || (encoded.status >= 400 && encoded.status < 500)).toBe(true);
    expect(errorType(encoded)).not.toBe('general_unknown');
    expect(await health(connection)).toBe(200);
  });
});
