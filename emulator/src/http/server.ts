import { writeBody } from './compression.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Backend } from '../backend.ts';
import type { Identity } from '../core/auth/roles.ts';
import { ApiError, APPWRITE_VERSION } from '../core/errors.ts';
import { ABUSE_LABELS, AbuseCounters, abuseKeys } from './abuse.ts';
import type { RequestContext, UploadedFile } from './context.ts';
import { FileBody } from './file-body.ts';
import { parseQueryString } from './query-string.ts';
import type { Cookie, Reply } from './reply.ts';
import { sessionCookieName } from './session-cookies.ts';
import { unsupportedRoute } from './unsupported.ts';

/** Largest request body accepted (a 5 MiB upload chunk plus multipart overhead, or a 10 MB execution body). */
export const MAX_BODY_BYTES = 12 * 1024 * 1024;

const ALLOWED_HEADERS = [
  'Accept',
  'Origin',
  'Cookie',
  'Set-Cookie',
  'Content-Type',
  'Content-Range',
  'Range',
  'Cache-Control',
  'Expires',
  'Pragma',
  'X-Appwrite-Project',
  'X-Appwrite-Key',
  'X-Appwrite-Dev-Key',
  'X-Appwrite-Locale',
  'X-Appwrite-Mode',
  'X-Appwrite-JWT',
  'X-Appwrite-Response-Format',
  'X-Appwrite-Timeout',
  'X-Appwrite-ID',
  'X-Appwrite-Timestamp',
  'X-Appwrite-Session',
  'X-Appwrite-Platform',
  'X-SDK-Version',
  'X-SDK-Name',
  'X-SDK-Language',
  'X-SDK-Platform',
  'X-SDK-GraphQL',
  'X-SDK-Profile',
  'X-Fallback-Cookies',
  'X-Requested-With',
  'X-Forwarded-For',
  'X-Forwarded-User-Agent',
].join(', ');

function corsHeaders(origin: string | undefined): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin ?? '*',
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Expose-Headers': 'X-Appwrite-Session, X-Fallback-Cookies',
    Vary: 'Origin',
  };
}

function serializeCookie(cookie: Cookie): string {
  const parts = [`${cookie.name}=${cookie.value}`, 'path=/'];
  if (cookie.expires) parts.push(`expires=${cookie.expires.toUTCString()}`);
  if (cookie.httpOnly !== false) parts.push('httponly');
  if (cookie.sameSite) parts.push(`samesite=${cookie.sameSite}`);
  return parts.join('; ');
}

/** Reads the request body, refusing more than {@link MAX_BODY_BYTES}. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(
          new ApiError('general_argument_invalid', `Request body is larger than ${limit} bytes.`),
        );
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function parseBody(
  req: IncomingMessage,
  url: URL,
): Promise<{ input: Record<string, unknown>; files: Record<string, UploadedFile> }> {
  const files: Record<string, UploadedFile> = {};
  if (req.method === 'GET' || req.method === 'HEAD') return { input: {}, files };
  const body = await readBody(req);
  if (body.length === 0) return { input: {}, files };
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await new Request(url, {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type']! },
        body: new Uint8Array(body),
      }).formData();
    } catch {
      throw new ApiError('general_argument_invalid', 'The multipart body could not be parsed.');
    }
    // Null prototypes: a field named `__proto__` is a field like any other.
    const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    const uploads: Record<string, UploadedFile> = Object.create(null) as Record<
      string,
      UploadedFile
    >;
    for (const [key, value] of form) {
      if (typeof value !== 'string') {
        uploads[key] = {
          name: value.name,
          type: value.type,
          data: Buffer.from(await value.arrayBuffer()),
        };
        continue;
      }
      if (key.endsWith('[]')) {
        const name = key.slice(0, -2);
        const list = Array.isArray(input[name]) ? input[name] : [];
        list.push(value);
        input[name] = list;
      } else {
        input[key] = value;
      }
    }
    return { input: { ...input }, files: { ...uploads } };
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    return { input: queryParams(body.toString('utf8')), files };
  }
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ApiError('general_argument_invalid', 'The request body must be a JSON object.');
    }
    return { input: parsed as Record<string, unknown>, files };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(
      'general_argument_invalid',
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/**
 * The error for a path no route serves: an Appwrite route the local backend does not implement
 * is named (405 `general_not_implemented`, as Appwrite answers what it has not implemented);
 * anything else is Appwrite's 404 `general_route_not_found`.
 */
function notServed(method: string, path: string): ApiError {
  const sdkMethod = unsupportedRoute(method, path);
  if (!sdkMethod) return new ApiError('general_route_not_found');
  return new ApiError(
    'general_not_implemented',
    `${method} /v1${path} (${sdkMethod}) is not supported by the local backend; docs/emulator-guide.md lists what it serves.`,
  );
}

/** A query string's params; too many of them is a 400. */
function queryParams(search: string): Record<string, unknown> {
  try {
    return parseQueryString(search);
  } catch (error) {
    if (error instanceof RangeError)
      throw new ApiError('general_argument_invalid', 'Too many parameters in the query string.');
    throw error;
  }
}

/** The request's cookies; a value with broken percent-encoding is kept as sent (as PHP reads it). */
function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const value = part.slice(index + 1).trim();
    let decoded = value;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      // kept as sent
    }
    cookies.set(part.slice(0, index).trim(), decoded);
  }
  return cookies;
}

/**
 * Who is calling: an API key (`X-Appwrite-Key`), a JWT (`X-Appwrite-JWT`), a session
 * (cookie, `X-Appwrite-Session` or `X-Fallback-Cookies`), or a guest. An unknown key or
 * session makes the caller a guest, as on Appwrite; an invalid JWT is an error.
 */
export function resolveIdentity(
  backend: Backend,
  headers: IncomingMessage['headers'],
  query: Record<string, unknown> = {},
): Identity {
  const { auth, config } = backend;
  const { roles } = auth;
  const key = headers['x-appwrite-key'];
  if (typeof key === 'string' && key !== '') {
    const resolved = auth.keys.resolve(key);
    if (resolved === 'expired') throw new ApiError('project_key_expired');
    if (resolved) return roles.keyIdentity(resolved);
    return roles.guestIdentity();
  }
  const jwt = headers['x-appwrite-jwt'] ?? (typeof query.jwt === 'string' ? query.jwt : undefined);
  if (typeof jwt === 'string' && jwt !== '') {
    const resolved = auth.sessions.resolveJwt(jwt);
    if (!resolved) throw new ApiError('user_jwt_invalid');
    return roles.userIdentity(resolved.user, resolved.session);
  }
  const cookieName = sessionCookieName(config.projectId);
  const cookies = parseCookies(headers.cookie);
  const candidates: unknown[] = [
    cookies.get(cookieName),
    cookies.get(`${cookieName}_legacy`),
    headers['x-appwrite-session'],
  ];
  const fallback = headers['x-fallback-cookies'];
  if (typeof fallback === 'string' && fallback !== '') {
    try {
      const parsed = JSON.parse(fallback) as Record<string, unknown>;
      if (typeof parsed[cookieName] === 'string') candidates.push(parsed[cookieName]);
    } catch {
      // an unreadable fallback cookie is ignored, as Appwrite does
    }
  }
  for (const candidate of candidates) {
    if (typeof candidate !== 'string' || candidate === '') continue;
    const resolved = auth.sessions.resolve(candidate);
    if (resolved) return roles.userIdentity(resolved.user, resolved.session);
  }
  return roles.guestIdentity();
}

/** Describes a caller in "missing scope" messages, as Appwrite does. */
function callerLabel(identity: Identity, projectId: string): string {
  if (identity.kind === 'key') return `app.${projectId}@service.localhost (role: applications)`;
  if (identity.kind === 'user') return `${identity.user.email || identity.user.id} (role: users)`;
  return 'User (role: guests)';
}

/** Whether `identity` holds `scope` (the bootstrap key holds every scope). */
export function hasScope(identity: Identity, scope: string): boolean {
  return scope === 'public' || identity.scopes.has('*') || identity.scopes.has(scope);
}

function send(res: ServerResponse, reply: Reply, origin: string | undefined): void {
  const headers: Record<string, string | string[]> = {
    ...corsHeaders(origin),
    'Cache-Control': 'no-cache, no-store, must-revalidate',
    Expires: '0',
    Pragma: 'no-cache',
    'X-Appwrite-Version': APPWRITE_VERSION,
    ...reply.headers,
  };
  if (reply.cookies?.length) headers['Set-Cookie'] = reply.cookies.map(serializeCookie);
  if (reply.raw) {
    headers['Content-Type'] = reply.raw.contentType;
    res.writeHead(reply.status, headers);
    // A failed read cuts the connection: the client sees a short body, never a wrong one.
    if (reply.raw.data instanceof FileBody) {
      reply.raw.data.writeTo(res).catch(() => res.destroy());
      return;
    }
    if (reply.raw.data instanceof Readable) {
      pipeline(reply.raw.data, res).catch(() => res.destroy());
      return;
    }
    res.end(reply.raw.data);
    return;
  }
  if (reply.status === 204 || (reply.body === undefined && reply.json === undefined)) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  headers['Content-Type'] = 'application/json; charset=UTF-8';
  writeBody(res, reply.status, headers, reply.json ?? JSON.stringify(reply.body));
}

/** Answers an error in Appwrite's shape; unexpected errors become a logged 500 with a reference. */
export function sendError(res: ServerResponse, error: unknown, origin: string | undefined): void {
  let apiError: ApiError;
  if (error instanceof ApiError) {
    apiError = error;
  } else {
    const ref = randomUUID().slice(0, 8);
    console.error(`[backend] unexpected error (ref ${ref})`, error);
    apiError = new ApiError('general_unknown', `Server Error (ref ${ref})`);
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  const status = apiError.code >= 400 && apiError.code < 600 ? apiError.code : 500;
  send(res, { status, body: apiError.toBody() }, origin);
}

/**
 * Sends `reply` once the writes made so far are committed (an answer never acknowledges a write
 * that a crash could still lose); a failed commit turns it into a 500.
 */
function sendCommitted(
  backend: Backend,
  res: ServerResponse,
  reply: Reply,
  origin: string | undefined,
): void {
  backend.store.afterCommit((error) => {
    if (error === null) return send(res, reply, origin);
    // a body that will not be sent lets go of its file
    if (reply.raw?.data instanceof FileBody) void reply.raw.data.close();
    else if (reply.raw?.data instanceof Readable) reply.raw.data.destroy();
    sendError(res, error, origin);
  });
}

/**
 * The URL of a request (its target may be absolute, e.g. `GET http://host/v1/…`); one that does
 * not parse is a 400.
 */
export function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', 'http://localhost');
  } catch {
    throw new ApiError('general_argument_invalid', 'The request URL could not be parsed.');
  }
}

/** The Node HTTP handler of the backend: CORS, project, identity, scopes, routing and errors. */
export function createRequestHandler(
  backend: Backend,
): (req: IncomingMessage, res: ServerResponse) => void {
  const abuse = new AbuseCounters(backend.clock);
  return (req, res) => {
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    handle(backend, abuse, req, res, origin).catch((error: unknown) =>
      backend.store.afterCommit(() => sendError(res, error, origin)),
    );
  };
}

async function handle(
  backend: Backend,
  abuse: AbuseCounters,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string | undefined,
): Promise<void> {
  const url = requestUrl(req);
  if (req.method === 'OPTIONS') {
    res.writeHead(204, corsHeaders(origin));
    res.end();
    return;
  }
  if (!url.pathname.startsWith('/v1/') && url.pathname !== '/v1') {
    for (const handler of backend.httpFallbacks) {
      if (await handler(req, res, url)) return;
    }
    throw new ApiError('general_route_not_found');
  }
  const path = url.pathname.slice(3) || '/';
  const query = queryParams(url.search);
  const projectHeader = req.headers['x-appwrite-project'];
  const projectId =
    typeof projectHeader === 'string' && projectHeader !== ''
      ? projectHeader
      : (query.project as string | undefined);
  const match = backend.router.match(req.method ?? 'GET', path);
  if (match && match.route.scope === 'public' && path.startsWith('/health')) {
    const reply = await match.route.handler({ backend } as RequestContext);
    sendCommitted(backend, res, reply, origin);
    return;
  }
  if (projectId !== backend.config.projectId) throw new ApiError('project_not_found');
  if (!match) throw notServed(req.method ?? 'GET', path);
  const { input: body, files } = match.route.streamBody
    ? { input: {}, files: {} }
    : await parseBody(req, url);
  const identity = resolveIdentity(backend, req.headers, {});
  if (!hasScope(identity, match.route.scope)) {
    throw new ApiError(
      'general_unauthorized_scope',
      `${callerLabel(identity, backend.config.projectId)} missing scopes (["${match.route.scope}"])`,
    );
  }
  // As on Appwrite, after the scope check: a blocked user's sessions and JWTs still resolve.
  if (identity.kind === 'user' && !identity.user.status) throw new ApiError('user_blocked');
  const format = req.headers['x-appwrite-response-format'];
  const forwarded = req.headers['x-forwarded-for'];
  const input = { ...query, ...body };
  const ctx: RequestContext = {
    backend,
    method: req.method ?? 'GET',
    path,
    params: match.params,
    input,
    files,
    headers: req.headers,
    request: req,
    identity,
    responseFormat: typeof format === 'string' ? format : '1.9.5',
    origin: origin ?? null,
    ip:
      typeof forwarded === 'string'
        ? forwarded.split(',')[0]!.trim()
        : (req.socket.remoteAddress ?? ''),
    userAgent: String(req.headers['x-forwarded-user-agent'] ?? req.headers['user-agent'] ?? ''),
  };
  const limit = checkAbuse(backend, abuse, ctx, req, res, match.route.path);
  const reply = await match.route.handler(ctx);
  if (limit?.resetOn?.includes(reply.status)) abuse.reset(limit.keys);
  sendCommitted(backend, res, reply, origin);
}

/**
 * Appwrite's abuse check of a limited route (`http/abuse.ts`): sets the `X-RateLimit-*` headers
 * (for every caller, even when abuse is disabled) and refuses a request over the limit with
 * `general_rate_limit_exceeded`. API keys and a backend started with abuse disabled are not
 * counted. Returns the keys and statuses that start the counters again, or null.
 */
function checkAbuse(
  backend: Backend,
  abuse: AbuseCounters,
  ctx: RequestContext,
  req: IncomingMessage,
  res: ServerResponse,
  routePath: string,
): { keys: string[]; resetOn: readonly number[] | undefined } | null {
  const label = ABUSE_LABELS[`${ctx.method} ${routePath}`];
  if (!label) return null;
  const range = /^bytes (\d+)-(\d+)\//.exec(String(req.headers['content-range'] ?? ''));
  const start = range ? Number(range[1]) : 0;
  const end = range ? Number(range[2]) : 0;
  const keys = abuseKeys(label, {
    url: `${String(req.headers.host ?? '').replace(/:\d+$/, '')}/v1${routePath}`,
    ip: ctx.ip,
    userId: ctx.identity.kind === 'user' ? ctx.identity.user.id : '',
    method: ctx.method,
    chunkId: end + 1 > start ? Math.floor(start / (end + 1 - start)) : 0,
    params: ctx.input,
  });
  const enforce = backend.config.abuse !== false && ctx.identity.kind !== 'key';
  const verdict = abuse.check(label, keys, enforce);
  for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
  if (verdict.limited) throw new ApiError('general_rate_limit_exceeded');
  return enforce ? { keys, resetOn: label.resetOn } : null;
}
