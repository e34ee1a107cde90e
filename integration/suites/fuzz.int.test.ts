import { request, Agent } from 'node:http';
import { Client, Databases, Functions, Query, Storage, Teams, Users, ID } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../../domain/ids.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Random } from '../../scripts/lib/random.ts';
import { Seeder } from '../../scripts/lib/seeder.ts';
import { DEMO_ACCOUNTS } from '../../scripts/lib/demo-data.ts';
import { schema } from '../../scripts/schema.ts';
import { backend, serverClient } from '../support/clients.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { rawExchange } from '../support/raw-http.ts';
import type { BackendConnection, StartedBackend } from '../targets/types.ts';
import { loadSize } from '../support/load-size.ts';

// A seeded fuzz test of the endpoints the product uses — account and sessions, documents of
// every collection (list with queries, get, create, update, upsert, delete, increment, bulk),
// transactions, function executions, files, teams and memberships, presences, and realtime
// messages — with malformed and hostile path ids, query strings, headers and bodies, sent as a
// guest, as a signed-in user outside the desk, as a staff member and with the API key (these two
// only read). Bounded in count and time. Every answer must be < 500, the backend must keep
// running, and the shop's data (documents, schema, team, buckets, functions) must be unchanged.

const SEED = Number(process.env.LIVEDESK_FUZZ_SEED ?? 20261123);
/** HTTP cases and realtime messages tried at most, and the time they may take. */
const HTTP_CASES = Number(process.env.LIVEDESK_FUZZ_CASES ?? loadSize(1500));
const REALTIME_MESSAGES = loadSize(300);
const BUDGET_MS = 90_000;

const HOSTILE = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '%E0%A4%A',
  '%zz',
  'a'.repeat(5000),
  '😀'.repeat(50),
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  'unique()',
  '{"method":"equal","attribute":"$id","values":["x"]}',
  '{"method":"__proto__","values":[]}',
  '[]',
  '{}',
  'null',
  'NaN',
  '-1',
  '1e309',
  '9'.repeat(40),
  'true',
  '\\',
  'ünïcödé',
];

/** A JSON value of at most `depth` levels, hostile keys and values included. */
function jsonValue(random: Random, depth: number): unknown {
  switch (random.int(0, depth > 0 ? 7 : 4)) {
    case 0:
      return null;
    case 1:
      return random.next() < 0.5;
    case 2:
      return random.pick([0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, 42]);
    case 3:
    case 4:
      return random.pick(HOSTILE);
    case 5:
      return Array.from({ length: random.int(0, 4) }, () => jsonValue(random, depth - 1));
    default: {
      // Null prototype: a `__proto__` key is an own key, sent as JSON like any other.
      const object = Object.create(null) as Record<string, unknown>;
      for (let i = random.int(0, 4); i > 0; i--)
        object[random.pick([...HOSTILE, 'data', 'queries', '$permissions', '$id', 'name'])] =
          jsonValue(random, depth - 1);
      return object;
    }
  }
}

/** A request body: JSON of the wrong shape, broken JSON, deep nesting, a large one, a form. */
function body(random: Random): { data: Buffer; type: string } | null {
  switch (random.int(0, 9)) {
    case 0:
      return null;
    case 1:
      return { data: Buffer.from('{"data": '), type: 'application/json' };
    case 2:
      return { data: Buffer.from('['.repeat(random.int(100, 20_000))), type: 'application/json' };
    case 3:
      return {
        data: Buffer.from(JSON.stringify({ data: 'x'.repeat(random.int(10_000, 1_000_000)) })),
        type: 'application/json',
      };
    case 4:
      return { data: Buffer.from([0xff, 0xfe, 0x00, 0x7b]), type: 'application/json' };
    case 5: {
      const boundary = 'fuzz' + random.int(0, 1e6);
      const name = random.pick(HOSTILE.filter((item) => !/[\r\n"\0]/.test(item)));
      const text = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${random.pick(HOSTILE)}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}${random.next() < 0.5 ? '--' : ''}\r\n`;
      return { data: Buffer.from(text), type: `multipart/form-data; boundary=${boundary}` };
    }
    case 6:
      return {
        data: Buffer.from(
          `${random.pick(HOSTILE)}=1&a[__proto__][b]=2&queries[]=${random.pick(HOSTILE)}`,
        ),
        type: 'application/x-www-form-urlencoded',
      };
    default:
      return {
        data: Buffer.from(JSON.stringify(jsonValue(random, 4))),
        type: random.pick([
          'application/json',
          'text/plain',
          '',
          'application/json; charset=latin1',
        ]),
      };
  }
}

/** A query string of hostile params (keys, nesting, queries, sizes). */
function queryString(random: Random): string {
  const parts: string[] = [];
  for (let i = random.int(0, 6); i > 0; i--) {
    const key = random.pick([
      'queries[]',
      'queries[0]',
      '__proto__[total]',
      'constructor[prototype][x]',
      'a[b][c][d][e][f][g][h]',
      'transactionId',
      'total',
      'search',
      'project',
      'jwt',
      random.pick(HOSTILE),
    ]);
    const value = random.next() < 0.5 ? JSON.stringify(jsonValue(random, 3)) : random.pick(HOSTILE);
    parts.push(
      `${encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${random.next() < 0.2 ? value : encodeURIComponent(value)}`,
    );
  }
  if (random.next() < 0.05) for (let i = 0; i < 1100; i++) parts.push(`p${i}=1`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Headers with hostile values (printable Latin-1, as a client can send them). */
function headers(random: Random, base: Record<string, string>): Record<string, string> {
  const out = { ...base };
  const printable = HOSTILE.filter((item) => /^[\x20-\x7e]*$/.test(item) && item.length < 200);
  for (let i = random.int(0, 3); i > 0; i--) {
    const name = random.pick([
      'x-appwrite-project',
      'x-appwrite-key',
      'x-appwrite-jwt',
      'x-appwrite-session',
      'x-fallback-cookies',
      'x-appwrite-timestamp',
      'x-appwrite-response-format',
      'content-range',
      'x-appwrite-id',
      'cookie',
      'origin',
      'x-forwarded-for',
    ]);
    out[name] =
      random.next() < 0.5 ? random.pick(printable) : `a_session_x=${random.pick(printable)}`;
  }
  return out;
}

/** The product's endpoints, as `METHOD path` with `{placeholders}`. */
const ENDPOINTS: readonly string[] = [
  'GET /account',
  'POST /account',
  'POST /account/sessions/email',
  'POST /account/sessions/anonymous',
  'GET /account/sessions',
  'DELETE /account/sessions/current',
  'POST /account/jwts',
  'PATCH /account/prefs',
  'PATCH /account/name',
  'GET /databases/livedesk/collections/{collection}/documents',
  'POST /databases/livedesk/collections/{collection}/documents',
  'PUT /databases/livedesk/collections/{collection}/documents',
  'PATCH /databases/livedesk/collections/{collection}/documents',
  'DELETE /databases/livedesk/collections/{collection}/documents',
  'GET /databases/livedesk/collections/{collection}/documents/{document}',
  'PATCH /databases/livedesk/collections/{collection}/documents/{document}',
  'PUT /databases/livedesk/collections/{collection}/documents/{document}',
  'DELETE /databases/livedesk/collections/{collection}/documents/{document}',
  'PATCH /databases/livedesk/collections/{collection}/documents/{document}/noteCount/increment',
  'POST /databases/transactions',
  'GET /databases/transactions',
  'PATCH /databases/transactions/{id}',
  'POST /databases/transactions/{id}/operations',
  'POST /functions/{function}/executions',
  'GET /functions/{function}/executions',
  'GET /storage/buckets/{bucket}/files',
  'POST /storage/buckets/{bucket}/files',
  'GET /storage/buckets/{bucket}/files/{id}/view',
  'GET /teams',
  'GET /teams/desk/memberships',
  'GET /presences',
  'PUT /presences/{id}',
  'GET /{id}/{id}',
];

interface Caller {
  name: 'guest' | 'outsider' | 'staff' | 'key';
  headers: Record<string, string>;
  readOnly: boolean;
}

/** Everything that makes up the shop's data, to compare before and after. */
async function snapshot(connection: BackendConnection): Promise<string> {
  const client = serverClient(connection);
  const databases = new Databases(client);
  const parts: unknown[] = [];
  for (const collectionId of Object.values(COLLECTIONS)) {
    parts.push(await databases.getCollection({ databaseId: DATABASE_ID, collectionId }));
    parts.push(
      await databases.listDocuments({
        databaseId: DATABASE_ID,
        collectionId,
        queries: [Query.limit(5000), Query.orderAsc('$id')],
      }),
    );
  }
  parts.push(await new Teams(client).list());
  parts.push(await new Teams(client).listMemberships({ teamId: DESK_TEAM_ID }));
  parts.push(await new Storage(client).listBuckets());
  parts.push(await new Functions(client).list());
  return JSON.stringify(parts, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

/** The bytes of a request, for {@link rawExchange}. */
function rawRequest(
  method: string,
  path: string,
  requestHeaders: Record<string, string>,
  payload: { data: Buffer; type: string } | null,
): Buffer {
  const lines = [`${method} /v1${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [name, value] of Object.entries(requestHeaders)) lines.push(`${name}: ${value}`);
  if (payload?.type) lines.push(`Content-Type: ${payload.type}`);
  lines.push(`Content-Length: ${payload?.data.length ?? 0}`, '', '');
  return Buffer.concat([
    Buffer.from(lines.join('\r\n'), 'latin1'),
    payload?.data ?? Buffer.alloc(0),
  ]);
}

function send(
  connection: BackendConnection,
  agent: Agent,
  method: string,
  path: string,
  requestHeaders: Record<string, string>,
  payload: { data: Buffer; type: string } | null,
): Promise<number> {
  const url = new URL(connection.endpoint);
  return new Promise((resolve) => {
    const headersOut: Record<string, string> = { ...requestHeaders };
    if (payload) {
      if (payload.type) headersOut['content-type'] = payload.type;
      headersOut['content-length'] = String(payload.data.length);
    }
    let req;
    try {
      req = request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path: `/v1${path}`,
          headers: headersOut,
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', () => resolve(res.statusCode ?? 0));
        },
      );
    } catch {
      // A header value Node's client refuses to send: not a case.
      resolve(-1);
      return;
    }
    req.setTimeout(30_000, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(payload?.data);
  });
}

async function fuzzRealtime(
  connection: BackendConnection,
  session: string,
  random: Random,
  count: number,
): Promise<{ sent: number; failures: string[] }> {
  const failures: string[] = [];
  const url = `${connection.endpoint.replace(/^http/, 'ws')}/realtime?project=${connection.projectId}`;
  let sent = 0;
  let socket: WebSocket | null = null;
  const open = async () => {
    socket = new WebSocket(url, { headers: { 'x-appwrite-session': session } });
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; data?: { code?: number } };
      if (
        message.type === 'error' &&
        (message.data?.code ?? 0) >= 500 &&
        (message.data?.code ?? 0) < 1000
      )
        failures.push(`realtime error ${JSON.stringify(message)}`);
    });
    socket.on('close', (code) => {
      if (code === 1011) failures.push('realtime socket closed with 1011 (server error)');
    });
    await new Promise<void>((resolve) => socket!.once('message', () => resolve()));
  };
  await open();
  for (; sent < count; sent++) {
    if (socket!.readyState !== WebSocket.OPEN) await open();
    const kind = random.int(0, 6);
    let message: string;
    if (kind === 0) message = random.pick(HOSTILE);
    else if (kind === 1) message = '['.repeat(random.int(10, 5000));
    else
      message = JSON.stringify({
        type: random.pick([
          'subscribe',
          'unsubscribe',
          'authentication',
          'presence',
          'ping',
          '__proto__',
          random.pick(HOSTILE),
        ]),
        data:
          random.next() < 0.3
            ? [
                {
                  channels: [random.pick(HOSTILE)],
                  queries: [random.pick(HOSTILE)],
                  subscriptionId: random.pick(HOSTILE),
                },
              ]
            : jsonValue(random, 4),
      });
    socket!.send(message);
    if (sent % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  (socket as WebSocket | null)?.terminate();
  return { sent, failures };
}

describe('fuzzing the endpoints the product uses', () => {
  it('answers every malformed or hostile request below 500, keeps running, and changes no data', async (context) => {
    await using own: StartedBackend | null = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const admin = new Client()
      .setEndpoint(own.endpoint)
      .setProject(own.projectId)
      .setKey(own.apiKey);
    await new Provisioner(admin).apply(schema);
    const seeder = new Seeder(admin);
    await seeder.ensureCatalog();
    await seeder.ensureAccounts();
    await seeder.seedOrders(20, { seed: SEED });
    const users = new Users(admin);
    const outsider = await users.create({
      userId: ID.unique(),
      email: 'outsider@example.test',
      password: 'password-123',
    });
    const outsiderSession = await users.createSession({ userId: outsider.$id });
    const staffAccount = DEMO_ACCOUNTS.find((account) => account.role === 'staff')!;
    const staffSession = await users.createSession({ userId: staffAccount.id });
    const orders = await new Databases(admin).listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.limit(5)],
    });
    const transaction = await new Databases(admin).createTransaction();
    // The scheduled expiry of pending orders would change data while the fuzz runs, and so would
    // the desk's snapshot (its file and its lease).
    await new Functions(admin).update({
      functionId: FUNCTIONS.expirePending,
      name: 'Expire pending orders',
      schedule: '',
    });
    await new Functions(admin).update({
      functionId: FUNCTIONS.deskSnapshot,
      name: 'Desk snapshot',
      schedule: '',
    });
    const before = await snapshot(own);

    const project = { 'x-appwrite-project': own.projectId };
    const callers: Caller[] = [
      { name: 'guest', headers: project, readOnly: false },
      {
        name: 'outsider',
        headers: { ...project, 'x-appwrite-session': outsiderSession.secret },
        readOnly: false,
      },
      {
        name: 'staff',
        headers: { ...project, 'x-appwrite-session': staffSession.secret },
        readOnly: true,
      },
      { name: 'key', headers: { ...project, 'x-appwrite-key': own.apiKey }, readOnly: true },
    ];
    const random = new Random(SEED);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const failures: string[] = [];
    let died: string | null = null;
    const stopWatching = own.onUnexpectedExit?.((reason) => (died = reason));
    const deadline = Date.now() + BUDGET_MS;
    let cases = 0;
    const statuses = new Map<number, number>();
    const values: Record<string, () => string> = {
      collection: () =>
        random.next() < 0.7 ? random.pick(Object.values(COLLECTIONS)) : random.pick(HOSTILE),
      document: () =>
        random.next() < 0.5 ? random.pick(orders.documents).$id : random.pick(HOSTILE),
      function: () =>
        random.next() < 0.7 ? random.pick(Object.values(FUNCTIONS)) : random.pick(HOSTILE),
      bucket: () =>
        random.next() < 0.7
          ? random.pick(['attachments', 'product-images', 'exports'])
          : random.pick(HOSTILE),
      id: () => (random.next() < 0.3 ? transaction.$id : random.pick(HOSTILE)),
    };
    const worker = async () => {
      while (cases < HTTP_CASES && Date.now() < deadline && !died) {
        cases++;
        const [method, template] = random.pick(ENDPOINTS).split(' ') as [string, string];
        const writes = method !== 'GET';
        const eligible = callers.filter((caller) => !(writes && caller.readOnly));
        const caller = random.pick(eligible);
        const path =
          template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name]!())) +
          queryString(random);
        const requestHeaders = headers(random, caller.headers);
        const payload = writes || random.next() < 0.2 ? body(random) : null;
        let status = await send(own, agent, method, path, requestHeaders, payload);
        if (status === -1) {
          cases--;
          continue;
        }
        if (status === 0) {
          // The connection ended without an answer the pooled client could read (Node's parser
          // refusing a request line answers 400 and closes at once): ask again on a socket of its own.
          status = (await rawExchange(own, rawRequest(method, path, requestHeaders, payload)))
            .status;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status >= 500 || status === 0)
          failures.push(`${status} ${method} ${path.slice(0, 200)} as ${caller.name}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    agent.destroy();
    const realtime = await fuzzRealtime(own, outsiderSession.secret, random, REALTIME_MESSAGES);
    stopWatching?.();

    console.log(
      `[fuzz] seed ${SEED}: ${cases} HTTP cases and ${realtime.sent} realtime messages, ${failures.length + realtime.failures.length} failure(s); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
    expect(died).toBeNull();
    expect([...failures, ...realtime.failures]).toEqual([]);
    const health = await fetch(`${own.endpoint}/health/version`);
    expect(health.status).toBe(200);
    expect(await snapshot(own)).toBe(before);
  }, 300_000);
});
