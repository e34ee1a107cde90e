import { performance } from 'node:perf_hooks';
import { LocalBackend, type StartedLocalBackend } from './lib/local-backend.ts';
import { numberArg, parseArgs } from './lib/env.ts';
import { percentile } from './lib/stats.ts';
import { stopDescendantsOnSignal } from './lib/processes.ts';

stopDescendantsOnSignal();

/**
 * `npm run bench:realtime -- [--sockets 100] [--writes 300] [--warmup 20] [--source auto|documents|teams]`
 *
 * Realtime fan-out latency of the local backend: starts a throwaway backend (a child process,
 * as the integration suites do), opens N sockets that speak Appwrite's realtime protocol
 * (authenticate in-band, subscribe to one channel), then makes writes one at a time with the
 * API key and times when each socket receives the event. Event source: document updates when
 * the backend has the Databases API, else team renames (`PUT /v1/teams/:id`).
 *
 * Printed (milliseconds, over the measured writes):
 * - write → all: from sending the write request until the event reached every socket;
 * - ack → all: from the write's HTTP answer until the event reached every socket (the backend
 *   publishes before it answers, so this can be ≤ 0);
 * - per socket: from sending the write request until one socket received the event;
 * - publish → all: from the event's server `timestamp` (when the backend published it; whole
 *   milliseconds) until the event reached every socket — the fan-out alone, without the write.
 */

interface Source {
  label: string;
  channel: string;
  write: (i: number) => Promise<void>;
  /** The write index an event's payload carries, or null for other events. */
  indexOf: (payload: Record<string, unknown>) => number | null;
}

class Api {
  private readonly backend: StartedLocalBackend;

  constructor(backend: StartedLocalBackend) {
    this.backend = backend;
  }

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.backend.endpoint}${path}`, {
      method,
      headers: {
        'Content-Type': 'application/json',
        'X-Appwrite-Project': this.backend.projectId,
        'X-Appwrite-Key': this.backend.apiKey,
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
  }

  async ok<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const { status, body: answer } = await this.call<T>(method, path, body);
    if (status >= 400) throw new Error(`${method} ${path} → ${status} ${JSON.stringify(answer)}`);
    return answer;
  }
}

const label = (i: number) => `bench-${i}`;
const indexFrom = (value: unknown) =>
  typeof value === 'string' && value.startsWith('bench-') ? Number(value.slice(6)) : null;

async function teamSource(api: Api, userId: string): Promise<Source> {
  const team = await api.ok<{ $id: string }>('POST', '/teams', {
    teamId: 'unique()',
    name: 'bench',
  });
  await api.ok('POST', `/teams/${team.$id}/memberships`, { userId, roles: ['staff'] });
  return {
    label: 'team renames (PUT /v1/teams/:id), roles team:<id>',
    channel: `teams.${team.$id}`,
    write: async (i) => {
      await api.ok('PUT', `/teams/${team.$id}`, { name: label(i) });
    },
    indexOf: (payload) => indexFrom(payload.name),
  };
}

async function documentSource(api: Api): Promise<Source> {
  const db = await api.ok<{ $id: string }>('POST', '/databases', {
    databaseId: 'unique()',
    name: 'bench',
  });
  const collection = await api.ok<{ $id: string }>('POST', `/databases/${db.$id}/collections`, {
    collectionId: 'unique()',
    name: 'bench',
    permissions: ['read("users")'],
    documentSecurity: false,
  });
  const base = `/databases/${db.$id}/collections/${collection.$id}`;
  await api.ok('POST', `${base}/attributes/string`, { key: 'label', size: 64, required: false });
  for (let attempt = 0; ; attempt++) {
    const attribute = await api.ok<{ status?: string }>('GET', `${base}/attributes/label`);
    if (attribute.status === undefined || attribute.status === 'available') break;
    if (attempt > 100) throw new Error(`attribute never became available: ${attribute.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const document = await api.ok<{ $id: string }>('POST', `${base}/documents`, {
    documentId: 'unique()',
    data: { label: 'start' },
  });
  return {
    label: 'document updates (PATCH …/documents/:id), roles = collection read("users")',
    channel: `databases.${db.$id}.collections.${collection.$id}.documents`,
    write: async (i) => {
      await api.ok('PATCH', `${base}/documents/${document.$id}`, { data: { label: label(i) } });
    },
    indexOf: (payload) => indexFrom(payload.label),
  };
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(2).padStart(8);
  return `p50 ${f(percentile(sorted, 50))}   p95 ${f(percentile(sorted, 95))}   max ${f(sorted.at(-1)!)}   (n=${sorted.length})`;
}

/** One subscribed socket and the time each write's event reached it. */
class BenchSocket {
  readonly received = new Map<number, number>();
  /** Per write: the event's server `timestamp` and the wall clock when it arrived (ms since epoch). */
  readonly published = new Map<number, { at: number; arrived: number }>();
  private readonly ws: WebSocket;
  private waiter: (() => void) | null = null;

  private constructor(ws: WebSocket) {
    this.ws = ws;
  }

  static open(url: string, session: string, source: Source, index: number): Promise<BenchSocket> {
    return new Promise((resolve, reject) => {
      const socket = new BenchSocket(new WebSocket(url));
      socket.ws.addEventListener('error', () => reject(new Error(`socket ${index} failed`)));
      socket.ws.addEventListener('message', (message) => {
        const at = performance.now();
        const data = JSON.parse(String(message.data)) as {
          type: string;
          data?: {
            to?: string;
            payload?: Record<string, unknown>;
            message?: string;
            timestamp?: string;
          };
        };
        if (data.type === 'event') {
          const i = source.indexOf(data.data!.payload!);
          if (i !== null) {
            socket.received.set(i, at);
            socket.published.set(i, { at: Date.parse(data.data!.timestamp!), arrived: Date.now() });
          }
          socket.waiter?.();
        } else if (data.type === 'connected') {
          socket.ws.send(JSON.stringify({ type: 'authentication', data: { session } }));
          socket.ws.send(
            JSON.stringify({
              type: 'subscribe',
              data: [{ subscriptionId: `bench${index}`, channels: [source.channel] }],
            }),
          );
        } else if (data.type === 'response' && data.data?.to === 'subscribe') {
          resolve(socket);
        } else if (data.type === 'error') {
          reject(new Error(`socket ${index}: ${data.data?.message}`));
        }
      });
    });
  }

  /** Resolves once the event of write `i` arrived (or after `timeoutMs`). */
  waitFor(i: number, timeoutMs: number): Promise<boolean> {
    if (this.received.has(i)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(false);
      }, timeoutMs);
      this.waiter = () => {
        if (!this.received.has(i)) return;
        clearTimeout(timer);
        this.waiter = null;
        resolve(true);
      };
    });
  }

  close(): void {
    this.ws.close();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const socketCount = numberArg(args, 'sockets', 100, { min: 1, max: 5000 });
  const writes = numberArg(args, 'writes', 300, { min: 1, max: 100_000 });
  const warmup = numberArg(args, 'warmup', 20, { min: 0, max: 10_000 });
  const wanted = String(args.get('source') ?? 'auto');
  if (!['auto', 'documents', 'teams'].includes(wanted))
    throw new Error('--source must be auto, documents or teams');

  const started = await new LocalBackend().start();
  const sockets: BenchSocket[] = [];
  try {
    const api = new Api(started);
    const user = await api.ok<{ $id: string }>('POST', '/users', {
      userId: 'unique()',
      email: `bench-${Date.now()}@example.test`,
      password: 'bench-password-123',
      name: 'Bench',
    });
    const session = await api.ok<{ secret: string }>('POST', `/users/${user.$id}/sessions`);
    const hasDatabases = (await api.call('GET', '/databases')).status === 200;
    if (wanted === 'documents' && !hasDatabases)
      throw new Error('this backend has no Databases API yet; use --source teams');
    const useDocuments = wanted === 'documents' || (wanted === 'auto' && hasDatabases);
    const source = useDocuments ? await documentSource(api) : await teamSource(api, user.$id);

    const url = `${started.endpoint.replace(/^http/, 'ws')}/realtime?project=${started.projectId}`;
    for (let i = 0; i < socketCount; i++)
      sockets.push(await BenchSocket.open(url, session.secret, source, i));

    const toAll: number[] = [];
    const ackToAll: number[] = [];
    const perSocket: number[] = [];
    const publishToAll: number[] = [];
    const roundTrip: number[] = [];
    let missed = 0;
    for (let i = 0; i < warmup + writes; i++) {
      const start = performance.now();
      await source.write(i);
      const ack = performance.now();
      const arrived = await Promise.all(sockets.map((socket) => socket.waitFor(i, 5000)));
      if (i < warmup) continue;
      if (arrived.some((ok) => !ok)) {
        missed += arrived.filter((ok) => !ok).length;
        continue;
      }
      const times = sockets.map((socket) => socket.received.get(i)!);
      const last = Math.max(...times);
      toAll.push(last - start);
      const walls = sockets.map((socket) => socket.published.get(i)!);
      publishToAll.push(Math.max(...walls.map((w) => w.arrived)) - walls[0]!.at);
      ackToAll.push(last - ack);
      roundTrip.push(ack - start);
      for (const at of times) perSocket.push(at - start);
    }

    console.log(
      `Realtime fan-out on the local backend: ${socketCount} sockets, ${writes} writes (after ${warmup} warm-up), one at a time`,
    );
    console.log(`  event source: ${source.label}`);
    console.log(`  write → event on all sockets   ${summary(toAll)}`);
    console.log(`  ack → event on all sockets     ${summary(ackToAll)}`);
    console.log(`  per socket (write → event)     ${summary(perSocket)}`);
    console.log(`  publish → all (±1 ms, clock)   ${summary(publishToAll)}`);
    console.log(`  write HTTP round trip          ${summary(roundTrip)}`);
    if (missed) console.log(`  MISSED: ${missed} socket deliveries did not arrive within 5 s`);
    if (missed) process.exitCode = 1;
  } finally {
    for (const socket of sockets) socket.close();
    await started.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`bench:realtime failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
