import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Backend } from '../../backend.ts';
import type { UserRecord } from '../../core/auth/users.ts';
import type { BackendEvent } from '../../core/events.ts';
import { uniqueId } from '../../core/ids.ts';
import { formatDate } from '../../core/time.ts';
import { ApiError } from '../../core/errors.ts';
import { parseQueryString } from '../../http/query-string.ts';
import { resolveIdentity } from '../../http/server.ts';
import { userModel } from '../users/models.ts';
import { convertChannels, rebindAccountChannels } from './channels.ts';
import {
  eventFrameBuilder,
  legacySubscriptions,
  makeSubscription,
  matchingSubscriptionIds,
  type Subscriber,
  type Subscription,
} from './delivery.ts';
import { presencePayload } from './models.ts';
import {
  parseRealtimeQueries,
  queryToString,
  RealtimeQueryError,
  type RealtimeQuery,
} from './queries.ts';
import type { RealtimeStore } from './store.ts';

/** Path of the realtime endpoint. */
export const REALTIME_PATH = '/v1/realtime';

/** A socket whose unsent output grows beyond this is closed (its client reconnects and resyncs). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Largest client message accepted. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** A realtime presence lives 30 days unless its socket closes first. */
const REALTIME_PRESENCE_MS = 30 * 24 * 3600 * 1000;

const CUSTOM_ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

/** An error answered over the socket as `{type:'error', data:{code, message}}`; 1008 also closes it. */
class RealtimeError extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

const formatInvalid = (message: string) => new RealtimeError(1003, message);

/** One open socket. */
interface Connection extends Subscriber {
  ws: WebSocket;
  /** The upgraded socket under `ws`: corked while a turn's frames are sent (see `sendText`). */
  socket: Duplex;
  user: UserRecord | null;
  roles: ReadonlySet<string>;
  subscriptions: Map<string, Subscription>;
  /** Presence ids this socket upserted (deleted when it closes). */
  presences: Set<string>;
  open: boolean;
}

const GUEST_ROLES: ReadonlySet<string> = new Set(['guests']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Utopia's `Text` validator message. */
function textError(name: string, max: number): RealtimeError {
  return formatInvalid(
    `${name}: Value must be a valid string and at least 1 chars and no longer than ${max} chars`,
  );
}

/**
 * The realtime server: accepts sockets on `/v1/realtime`, speaks Appwrite's protocol
 * (`connected`, `authentication`, `subscribe`/`unsubscribe`, `ping`, `presence`,
 * `response`, `event`, `error`), and fans out {@link BackendEvent}s from the bus.
 */
export class RealtimeHub {
  private readonly backend: Backend;
  private readonly presences: RealtimeStore;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly connections = new Set<Connection>();
  private closing = false;

  constructor(backend: Backend, presences: RealtimeStore) {
    this.backend = backend;
    this.presences = presences;
  }

  /** Number of open sockets. */
  get size(): number {
    return this.connections.size;
  }

  // ── opening ──────────────────────────────────────────────────────────────

  /** Handles an HTTP upgrade for {@link REALTIME_PATH}; returns false for other paths. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return true;
    }
    if (url.pathname !== REALTIME_PATH && url.pathname !== `${REALTIME_PATH}/`) return false;
    if (this.closing) {
      socket.destroy();
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.open(ws, socket, req, url));
    return true;
  }

  private open(ws: WebSocket, socket: Duplex, req: IncomingMessage, url: URL): void {
    ws.on('error', () => ws.terminate());
    let query: Record<string, unknown>;
    try {
      query = parseQueryString(url.search);
    } catch {
      this.refuse(ws, 1008, 'Too many parameters in the query string.');
      return;
    }
    const header = req.headers['x-appwrite-project'];
    const projectId = typeof header === 'string' && header !== '' ? header : query.project;
    if (projectId !== this.backend.config.projectId) {
      this.refuse(ws, 1008, 'Missing or unknown project ID');
      return;
    }
    // API keys are not realtime credentials on Appwrite: such a socket is a guest.
    const headers = { ...req.headers, 'x-appwrite-key': undefined };
    let user: UserRecord | null = null;
    try {
      const identity = resolveIdentity(this.backend, headers, { jwt: query.jwt });
      // A blocked user's socket is a guest's (Appwrite's realtime does not check; this is safer).
      if (identity.kind === 'user' && identity.user.status) user = identity.user;
    } catch (error) {
      // Appwrite answers open errors with their HTTP code; the socket is closed as a policy
      // violation so the SDK does not retry a JWT that will never become valid.
      const apiError = error instanceof ApiError ? error : null;
      this.refuse(ws, apiError?.code ?? 500, apiError?.message ?? 'Error: Server Error', 1008);
      return;
    }
    const connection: Connection = {
      ws,
      socket,
      user,
      roles: user ? this.backend.auth.roles.of(user) : GUEST_ROLES,
      subscriptions: new Map(),
      presences: new Set(),
      open: true,
    };
    this.connections.add(connection);
    ws.on('message', (data) => this.onMessage(connection, data));
    ws.on('close', () => this.onClose(connection));

    let legacy: string[] = [];
    if (query.channels !== undefined) {
      const raw = Array.isArray(query.channels) ? query.channels : [query.channels];
      legacy = convertChannels(
        raw.filter((c): c is string => typeof c === 'string'),
        user?.id ?? null,
      );
    }
    if (legacy.length === 0) {
      this.send(connection, {
        type: 'connected',
        data: { channels: [], subscriptions: [], user: user ? userModel(user) : null },
      });
      return;
    }
    // Legacy URL mode (`channels[]=…`, with optional per-channel query slots).
    let slots: { channels: string[]; queries: RealtimeQuery[] }[];
    try {
      slots = legacySubscriptions(legacy, query);
    } catch (error) {
      if (!(error instanceof RealtimeQueryError)) throw error;
      this.connections.delete(connection);
      connection.open = false;
      this.refuse(ws, 1008, error.message);
      return;
    }
    const mapping: string[] = [];
    for (const slot of slots) {
      const id = uniqueId();
      connection.subscriptions.set(id, makeSubscription(id, slot.channels, slot.queries));
      mapping.push(id);
    }
    this.send(connection, {
      type: 'connected',
      data: { channels: legacy, subscriptions: mapping, user: user ? userModel(user) : null },
    });
  }

  /** Sends an `error` message and closes the socket. */
  private refuse(ws: WebSocket, code: number, message: string, closeCode = code): void {
    ws.send(JSON.stringify({ type: 'error', data: { code, message } }));
    ws.close(closeCode === 1008 || (closeCode >= 3000 && closeCode < 5000) ? closeCode : 1011);
  }

  // ── messages ─────────────────────────────────────────────────────────────

  private onMessage(connection: Connection, data: RawData): void {
    if (!connection.open) return;
    try {
      const reply = this.dispatch(connection, rawText(data));
      if (reply) this.send(connection, reply);
    } catch (error) {
      let code = 500;
      let message = 'Error: Server Error';
      if (error instanceof RealtimeError) {
        ({ code, message } = error);
      } else if (error instanceof ApiError) {
        ({ code, message } = error);
      } else {
        console.error('[backend] realtime message failed', error);
      }
      this.send(connection, { type: 'error', data: { code, message } });
      if (code === 1008) this.backend.store.afterCommit(() => connection.ws.close(1008));
    }
  }

  private dispatch(connection: Connection, text: string): Record<string, unknown> | null {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      throw formatInvalid('Message format is not valid.');
    }
    if (!isPlainObject(message) || (!('type' in message) && !('data' in message))) {
      throw formatInvalid('Message format is not valid.');
    }
    const type = message.type ?? 'invalid';
    const hasData = 'data' in message && message.data !== null;
    switch (type) {
      case 'ping':
        return { type: 'pong' };
      case 'authentication':
        return this.authenticate(connection, hasData ? message.data : undefined);
      case 'subscribe':
        if (!hasData) throw formatInvalid('Payload is not valid. Items is required');
        return this.subscribe(connection, message.data);
      case 'unsubscribe':
        if (!hasData) throw formatInvalid('Payload is not valid. Items is required');
        return this.unsubscribe(connection, message.data);
      case 'presence':
        return this.presence(connection, hasData ? message.data : undefined);
      default:
        throw formatInvalid('Message type is not valid.');
    }
  }

  private authenticate(connection: Connection, data: unknown): Record<string, unknown> {
    if (!isPlainObject(data) || !('session' in data)) {
      throw formatInvalid('Payload is not valid. Session is required');
    }
    const session = data.session;
    if (typeof session !== 'string' || session.length < 1 || session.length > 2048) {
      throw textError('session', 2048);
    }
    const resolved = this.backend.auth.sessions.resolve(session);
    if (!resolved || !resolved.user.status) throw formatInvalid('Session is not valid.');
    const previous = connection.user?.id ?? null;
    this.bind(connection, resolved.user, previous);
    return {
      type: 'response',
      data: { to: 'authentication', success: true, user: userModel(resolved.user) },
    };
  }

  /** Gives a connection a user (or none) with fresh roles, re-binding its account channels. */
  private bind(
    connection: Connection,
    user: UserRecord | null,
    previousUserId: string | null,
  ): void {
    connection.user = user;
    connection.roles = user ? this.backend.auth.roles.of(user) : GUEST_ROLES;
    if (!user || user.id === previousUserId) return;
    for (const [id, subscription] of connection.subscriptions) {
      const channels = rebindAccountChannels(subscription.channels, previousUserId, user.id);
      connection.subscriptions.set(id, makeSubscription(id, channels, subscription.queries));
    }
  }

  private subscribe(connection: Connection, data: unknown): Record<string, unknown> {
    if (!Array.isArray(data)) throw formatInvalid('items: Payload is not valid.');
    for (const item of data) {
      if (!isPlainObject(item))
        throw formatInvalid('items: Each subscribe payload must be an object.');
      if (
        'subscriptionId' in item &&
        !(
          typeof item.subscriptionId === 'string' &&
          (CUSTOM_ID.test(item.subscriptionId) || item.subscriptionId === 'unique()')
        )
      ) {
        throw formatInvalid('items: subscriptionId is not a valid id.');
      }
      if (!('channels' in item)) throw formatInvalid('items: channels is not present in payload.');
      if (!Array.isArray(item.channels))
        throw formatInvalid('items: channels is not a valid array.');
      if (item.channels.some((channel) => typeof channel !== 'string')) {
        throw formatInvalid('items: channels must contain only strings.');
      }
      if ('queries' in item && !Array.isArray(item.queries)) {
        throw formatInvalid('items: queries is not a valid array.');
      }
    }
    const parsed = (data as Record<string, unknown>[]).map((item) => {
      const id = typeof item.subscriptionId === 'string' ? item.subscriptionId : uniqueId();
      let queries: RealtimeQuery[];
      try {
        queries = parseRealtimeQueries((item.queries as unknown[] | undefined) ?? []);
      } catch (error) {
        if (error instanceof RealtimeQueryError)
          throw formatInvalid(`Invalid query: ${error.message}`);
        throw error;
      }
      const channels = convertChannels(item.channels as string[], connection.user?.id ?? null);
      return { id, channels, queries };
    });
    for (const { id, channels, queries } of parsed) {
      connection.subscriptions.set(id, makeSubscription(id, channels, queries));
    }
    return {
      type: 'response',
      data: {
        to: 'subscribe',
        success: true,
        subscriptions: parsed.map(({ id, channels, queries }) => ({
          subscriptionId: id,
          channels,
          queries: queries.map(queryToString),
        })),
      },
    };
  }

  private unsubscribe(connection: Connection, data: unknown): Record<string, unknown> {
    if (!Array.isArray(data)) throw formatInvalid('items: Payload is not valid.');
    for (const item of data) {
      if (
        !isPlainObject(item) ||
        typeof item.subscriptionId !== 'string' ||
        item.subscriptionId === ''
      ) {
        throw formatInvalid(
          'items: Each unsubscribe payload must include a non-empty subscriptionId.',
        );
      }
    }
    const results = (data as { subscriptionId: string }[]).map(({ subscriptionId }) => ({
      subscriptionId,
      removed: connection.subscriptions.delete(subscriptionId),
    }));
    return { type: 'response', data: { to: 'unsubscribe', success: true, subscriptions: results } };
  }

  /** Upserts the user's presence; answers before publishing, as Appwrite queues the event. */
  private presence(connection: Connection, data: unknown): null {
    const input = isPlainObject(data) ? data : {};
    if (!('status' in input)) throw formatInvalid('Payload is not valid. Status is required');
    const status = input.status;
    if (typeof status !== 'string' || status.length < 1 || status.length > 2048) {
      throw textError('status', 2048);
    }
    let presenceId = 'unique()';
    if ('presenceId' in input) {
      const value = input.presenceId;
      if (typeof value !== 'string' || value.length < 1 || value.length > 36)
        throw textError('presenceId', 36);
      if (value !== 'unique()' && !CUSTOM_ID.test(value)) {
        throw formatInvalid(
          "presenceId: UID must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, and underscore. Can't start with a leading underscore",
        );
      }
      presenceId = value;
    }
    let metadata: Record<string, unknown> | null = null;
    if ('metadata' in input && input.metadata !== null) {
      if (!isPlainObject(input.metadata))
        throw formatInvalid('metadata: Value must be a valid JSON object');
      metadata = input.metadata;
    }
    const user = connection.user;
    if (!user) throw new RealtimeError(401, 'User must be authorized');
    let permissions: string[];
    try {
      permissions = this.presences.permissionsFor(
        'permissions' in input ? input.permissions : null,
        { kind: 'user', user, session: null, roles: connection.roles, scopes: new Set() },
        user.id,
      );
    } catch (error) {
      if (error instanceof ApiError && error.type === 'general_argument_invalid') {
        throw formatInvalid(
          error.message.replace(/^Invalid `permissions` param: /, 'permissions: '),
        );
      }
      throw error;
    }
    const presence = this.presences.upsertForUser(
      {
        presenceId: presenceId === 'unique()' ? uniqueId() : presenceId,
        userId: user.id,
        status,
        source: 'realtime',
        expiresAt: formatDate(Date.now() + REALTIME_PRESENCE_MS),
        metadata,
        permissions,
      },
      (stored) =>
        this.send(connection, {
          type: 'response',
          data: { to: 'presence', presence: presencePayload(stored) },
        }),
    );
    connection.presences.add(presence.id);
    return null;
  }

  // ── delivery ─────────────────────────────────────────────────────────────

  /** Fans `event` out: one `event` message per connection, listing its matching subscription ids. */
  deliver(event: BackendEvent): void {
    if (event.rolesChangedFor?.length) {
      const changed = new Set(event.rolesChangedFor);
      for (const connection of this.connections) {
        if (connection.user && changed.has(connection.user.id)) this.refresh(connection);
      }
    }
    const deletedPresence = deletedPresenceId(event);
    if (deletedPresence) {
      for (const connection of this.connections) connection.presences.delete(deletedPresence);
    }
    if (event.channels.length === 0 || event.roles.length === 0) return;
    const channels = new Set(event.channels);
    let frame: ((ids: readonly string[]) => string) | null = null;
    // Connections matching the same subscription ids share one encoded frame (as Appwrite groups them).
    const encoded = new Map<string, Buffer>();
    for (const connection of this.connections) {
      if (!connection.open) continue;
      const ids = matchingSubscriptionIds(connection, event, channels);
      if (ids.length === 0) continue;
      frame ??= eventFrameBuilder(event);
      const key = ids.join(',');
      let data = encoded.get(key);
      if (!data) encoded.set(key, (data = Buffer.from(frame(ids))));
      this.sendText(connection, data);
    }
  }

  /** Recomputes the roles of `userId`'s connections (memberships, labels, deletion changed them). */
  refreshUser(userId: string): void {
    for (const connection of this.connections) {
      if (connection.user?.id === userId) this.refresh(connection);
    }
  }

  private refresh(connection: Connection): void {
    const found = this.backend.auth.users.get(connection.user!.id);
    const user = found?.status ? found : null;
    connection.user = user;
    connection.roles = user ? this.backend.auth.roles.of(user) : GUEST_ROLES;
  }

  /** Answers a message once the writes made so far are committed (as HTTP answers wait). */
  private send(connection: Connection, message: unknown): void {
    const text = JSON.stringify(message);
    this.backend.store.afterCommit(() => this.sendText(connection, text));
  }

  private sendText(connection: Connection, text: string | Buffer): void {
    const { ws } = connection;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      // A client this far behind would only fall further; cut it so it reconnects and resyncs.
      connection.open = false;
      ws.terminate();
      return;
    }
    const { socket } = connection;
    if (socket.writableCorked === 0) {
      // The frames of one turn (a commit's events) leave in one write, not one write each.
      socket.cork();
      process.nextTick(() => socket.uncork());
    }
    ws.send(text, { binary: false });
  }

  // ── closing ──────────────────────────────────────────────────────────────

  private onClose(connection: Connection): void {
    connection.open = false;
    this.connections.delete(connection);
    if (this.closing) return; // realtime presences are cleared when the backend starts again
    for (const id of connection.presences) this.presences.delete(id, 'realtime');
    connection.presences.clear();
  }

  /** Cuts every socket abnormally (no close frame); returns how many were open. */
  drop(): number {
    const count = this.connections.size;
    for (const connection of [...this.connections]) {
      connection.open = false;
      connection.ws.terminate();
    }
    return count;
  }

  /** Closes every socket with 1001 (going away), waiting briefly for them to finish. */
  async close(): Promise<void> {
    this.closing = true;
    const sockets = [...this.connections].map((connection) => connection.ws);
    const closed = sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once('close', () => resolve());
        }),
    );
    for (const ws of sockets) ws.close(1001, 'Server shutting down');
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 500).unref());
    await Promise.race([Promise.all(closed), timeout]);
    for (const ws of sockets) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** The id of the presence an event deletes (`presences.<id>.delete`), or null. */
function deletedPresenceId(event: BackendEvent): string | null {
  const isDelete = event.events.some(
    (name) => name.startsWith('presences.') && name.endsWith('.delete'),
  );
  const id = event.payload.$id;
  return isDelete && typeof id === 'string' && id !== '' ? id : null;
}
