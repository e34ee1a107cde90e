import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { AppwriteException, Client, Databases, Query } from 'node-appwrite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeepAliveClient } from './keep-alive-client.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let endpoint = '';
const seen: Seen[] = [];

/** Answers like Appwrite would: the document, a 404, a big integer, or a non-JSON body. */
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const json = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(text);
      };
      if (req.url!.includes('/documents/missing'))
        return json(
          404,
          '{"message":"Document with the requested ID could not be found.","code":404,"type":"document_not_found","version":"1.9.5"}',
        );
      if (req.url!.includes('/documents/big'))
        return json(200, '{"$id":"big","wide":9007199254740993,"small":42,"float":1.5}');
      if (req.url!.includes('/documents/text')) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        return res.end('Bad gateway');
      }
      json(201, `{"$id":"d1","echo":${body || 'null'}}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function clients(): { sdk: Client; fast: KeepAliveClient } {
  const configure = <T extends Client>(client: T): T =>
    client.setEndpoint(endpoint).setProject('p1').setKey('secret');
  return { sdk: configure(new Client()), fast: configure(new KeepAliveClient()) };
}

/** Runs `call` once with the SDK's transport and once with the keep-alive one. */
async function both<T>(call: (databases: Databases) => Promise<T>): Promise<[Seen, Seen, T, T]> {
  const { sdk, fast } = clients();
  seen.length = 0;
  const viaSdk = await call(new Databases(sdk));
  const viaFast = await call(new Databases(fast));
  fast.close();
  return [seen[0]!, seen[1]!, viaSdk, viaFast];
}

describe('KeepAliveClient', () => {
  it('sends the request the SDK sends and returns the same answer (JSON body)', async () => {
    const [a, b, x, y] = await both((databases) =>
      databases.createDocument({
        databaseId: 'db',
        collectionId: 'c',
        documentId: 'd1',
        data: { n: 1, list: ['a'], nothing: null },
      }),
    );
    expect(b.method).toBe(a.method);
    expect(b.url).toBe(a.url);
    expect(JSON.parse(b.body)).toEqual(JSON.parse(a.body));
    for (const header of [
      'x-appwrite-project',
      'x-appwrite-key',
      'x-appwrite-response-format',
      'x-sdk-version',
      'content-type',
      'user-agent',
    ])
      expect(b.headers[header]).toBe(a.headers[header]);
    expect(b.headers.connection).toBe('keep-alive');
    expect(y).toEqual(x);
    expect(String(y)).toBe(String(x));
  });

  it('puts GET params in the query string as the SDK does', async () => {
    const [a, b] = await both((databases) =>
      databases.listDocuments({
        databaseId: 'db',
        collectionId: 'c',
        queries: [Query.equal('status', ['paid', 'ready']), Query.limit(5)],
      }),
    );
    expect(b.url).toBe(a.url);
  });

  it('throws the AppwriteException the SDK throws', async () => {
    const { sdk, fast } = clients();
    const read = (client: Client) =>
      new Databases(client)
        .getDocument({ databaseId: 'db', collectionId: 'c', documentId: 'missing' })
        .then(
          () => null,
          (error: unknown) => error as AppwriteException,
        );
    const [x, y] = [await read(sdk), await read(fast)];
    fast.close();
    expect(y).toBeInstanceOf(AppwriteException);
    expect({ ...y, message: y!.message }).toEqual({ ...x, message: x!.message });
  });

  it('reads integers beyond 2^53 as bigints, as the SDK does', async () => {
    const [, , x, y] = await both((databases) =>
      databases.getDocument({ databaseId: 'db', collectionId: 'c', documentId: 'big' }),
    );
    expect((y as unknown as { wide: unknown }).wide).toBe(9007199254740993n);
    expect(y).toEqual(x);
  });

  it('reports a non-JSON error body as the message', async () => {
    const { fast } = clients();
    const error = await new Databases(fast)
      .getDocument({ databaseId: 'db', collectionId: 'c', documentId: 'text' })
      .catch((caught: unknown) => caught as AppwriteException);
    fast.close();
    expect(error).toMatchObject({ code: 502, message: 'Bad gateway' });
  });
});

describe('KeepAliveClient.from', () => {
  it('copies the endpoint, project, key and headers of a client', async () => {
    const { sdk } = clients();
    sdk.setLocale('fr');
    const copy = KeepAliveClient.from(sdk);
    expect(KeepAliveClient.from(copy)).toBe(copy);
    seen.length = 0;
    await new Databases(copy).createDocument({
      databaseId: 'db',
      collectionId: 'c',
      documentId: 'd1',
      data: { n: 1 },
    });
    copy.close();
    expect(seen[0]!.url).toBe('/v1/databases/db/collections/c/documents');
    expect(seen[0]!.headers).toMatchObject({
      'x-appwrite-project': 'p1',
      'x-appwrite-key': 'secret',
      'x-appwrite-locale': 'fr',
    });
  });
});

/**
 * A server that answers the first request of each connection and keeps it open, then closes the
 * connection without an answer when a second request comes on it (as a server closing an idle
 * kept-alive connection just as a request goes out on it). `resetFresh`: the first request of a
 * connection is dropped too.
 */
async function closingServer(resetFresh = false) {
  let requests = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    let served = 0;
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      while (buffer.includes('\r\n\r\n')) {
        buffer = buffer.slice(buffer.indexOf('\r\n\r\n') + 4);
        requests++;
        if (served++ > 0 || resetFresh) return void socket.destroy();
        const text = '{"$id":"d1"}';
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${text.length}\r\nconnection: keep-alive\r\n\r\n${text}`,
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}/v1`,
    counts: () => ({ requests, connections }),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('KeepAliveClient on a kept-alive connection the server closes', () => {
  const get = (endpoint: string) =>
    new Databases(
      new KeepAliveClient().setEndpoint(endpoint).setProject('p1').setKey('k'),
    ).getDocument({
      databaseId: 'db',
      collectionId: 'c',
      documentId: 'd1',
    });

  it('sends the request again, once, on a new connection', async () => {
    const server = await closingServer();
    try {
      expect(await get(server.endpoint)).toMatchObject({ $id: 'd1' });
      expect(await get(server.endpoint)).toMatchObject({ $id: 'd1' });
      expect(server.counts()).toEqual({ requests: 3, connections: 2 });
    } finally {
      await server.close();
    }
  });

  it('does not send again what failed on a new connection', async () => {
    const server = await closingServer(true);
    try {
      await expect(get(server.endpoint)).rejects.toMatchObject({ code: 'ECONNRESET' });
      expect(server.counts()).toEqual({ requests: 1, connections: 1 });
    } finally {
      await server.close();
    }
  });
});
