import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'qs';
import type { StripeEngine } from './engine.ts';
import type { Caller } from './events.ts';
import { StripeApiError, type StripeErrorBody } from './errors.ts';
import { API_VERSION, newId } from './objects.ts';
import type { Params } from './params.ts';
import type { StripeStore } from './store.ts';

/** The keys the API double accepts. */
export interface DoubleKeys {
  secretKey: string;
  publishableKey: string;
}

/** Largest request body the double reads. */
const MAX_BODY_BYTES = 1024 * 1024;

type Handler = (ctx: { params: Params; ids: string[]; caller: Caller }) => unknown;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** Whether Stripe.js may call it with the publishable key (with the client secret). */
  publishable?: boolean;
}

const ID = '([A-Za-z0-9_]+)';

function routes(engine: StripeEngine): Route[] {
  const route = (method: string, path: string, handler: Handler, publishable = false): Route => ({
    method,
    pattern: new RegExp(`^${path.replaceAll(':id', ID)}$`),
    handler,
    publishable,
  });
  return [
    route('POST', '/v1/payment_intents', ({ params, caller }) =>
      engine.intents.create(params, caller),
    ),
    route(
      'GET',
      '/v1/payment_intents/:id',
      ({ params, ids, caller }) => engine.intents.retrieve(ids[0]!, params, caller),
      true,
    ),
    route('POST', '/v1/payment_intents/:id', ({ params, ids, caller }) =>
      engine.intents.update(ids[0]!, params, caller),
    ),
    route(
      'POST',
      '/v1/payment_intents/:id/confirm',
      ({ params, ids, caller }) => engine.intents.confirm(ids[0]!, params, caller),
      true,
    ),
    route('POST', '/v1/payment_intents/:id/cancel', ({ params, ids, caller }) =>
      engine.intents.cancel(ids[0]!, params, caller),
    ),
    route('GET', '/v1/charges/:id', ({ params, ids }) =>
      engine.refunds.retrieveCharge(ids[0]!, params),
    ),
    route('POST', '/v1/refunds', ({ params, caller }) => engine.refunds.create(params, caller)),
    route('GET', '/v1/refunds', ({ params }) => engine.refunds.list(params)),
    route('GET', '/v1/refunds/:id', ({ params, ids }) => engine.refunds.retrieve(ids[0]!, params)),
    route('GET', '/v1/events', ({ params }) => engine.events.list(params)),
    route('GET', '/v1/events/:id', ({ params, ids }) => engine.events.retrieve(ids[0]!, params)),
    route('POST', '/v1/webhook_endpoints', ({ params }) => engine.endpoints.create(params)),
    route('GET', '/v1/webhook_endpoints', ({ params }) => engine.endpoints.list(params)),
    route('GET', '/v1/webhook_endpoints/:id', ({ ids }) => engine.endpoints.retrieve(ids[0]!)),
    route('DELETE', '/v1/webhook_endpoints/:id', ({ ids }) => engine.endpoints.delete(ids[0]!)),
    // The double's own test controls (no Stripe counterpart).
    route(
      'POST',
      '/_double/payment_intents/:id/authenticate',
      ({ params, ids, caller }) => engine.intents.completeAuthentication(ids[0]!, params, caller),
      true,
    ),
    route('POST', '/_double/webhook_endpoints/:id/switches', ({ params, ids }) =>
      engine.endpoints.setSwitches(ids[0]!, params),
    ),
    route('POST', '/_double/webhook_endpoints/:id/flush', ({ ids }) => ({
      flushed: engine.events.flush(ids[0]!),
    })),
    route('GET', '/_double/webhook_endpoints/:id/deliveries', ({ ids }) =>
      engine.events.deliveries(ids[0]!),
    ),
  ];
}

function authError(message: string): StripeApiError {
  return new StripeApiError(401, { type: 'invalid_request_error', message }, false);
}

function mask(key: string): string {
  return `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;
}

/** The key a request authenticates with: Bearer, Basic (key as user name), or Stripe.js's `key`. */
function presentedKey(req: IncomingMessage, params: Params): string | null {
  const header = req.headers.authorization;
  if (typeof header === 'string') {
    const [scheme, value = ''] = header.split(' ', 2);
    if (scheme?.toLowerCase() === 'bearer') return value.trim();
    if (scheme?.toLowerCase() === 'basic')
      return Buffer.from(value, 'base64').toString('utf8').split(':')[0] ?? '';
  }
  return typeof params.key === 'string' ? params.key : null;
}

function authenticate(
  req: IncomingMessage,
  params: Params,
  keys: DoubleKeys,
  publishableAllowed: boolean,
): Caller['key'] {
  const key = presentedKey(req, params);
  if (key === null || key === '')
    throw authError(
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  if (key === keys.secretKey) return 'secret';
  if (key === keys.publishableKey) {
    if (publishableAllowed) return 'publishable';
    throw authError(
      'This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.',
    );
  }
  throw authError(`Invalid API Key provided: ${mask(key)}`);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(
          new StripeApiError(
            413,
            { type: 'invalid_request_error', message: 'Request body too large.' },
            false,
          ),
        );
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Form or query parameters in Stripe's bracket notation (`metadata[orderId]`, `expand[0]`). */
export function parseParams(encoded: string): Params {
  return parse(encoded, { depth: 10, arrayLimit: 1000, parameterLimit: 10_000 }) as Params;
}

/** The request's parameters in one canonical string (sorted keys), for idempotency checks. */
export function fingerprint(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(fingerprint).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${fingerprint((value as Params)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function corsHeaders(req: IncomingMessage): Record<string, string> {
  return {
    'access-control-allow-origin':
      typeof req.headers.origin === 'string' ? req.headers.origin : '*',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers':
      'Authorization, Content-Type, Idempotency-Key, Stripe-Version, Stripe-Account, X-Stripe-Client-User-Agent',
    'access-control-expose-headers': 'Request-Id, Idempotent-Replayed, Stripe-Version',
    'access-control-max-age': '300',
  };
}

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  body: string,
  headers: Record<string, string>,
): void {
  res.writeHead(status, {
    ...corsHeaders(req),
    'content-type': 'application/json',
    'cache-control': 'no-cache, no-store',
    'stripe-version': API_VERSION,
    ...headers,
  });
  res.end(body);
}

/**
 * Answers Stripe API requests (`/v1/…`) and the double's test controls (`/_double/…`) with the
 * engine: authentication, form parsing, idempotency keys (the first response of a key is saved
 * and replayed; the same key with other parameters is an `idempotency_error`) and Stripe's error
 * bodies. `path` is the request path without any mount prefix. Returns false for other paths.
 */
export function createApiHandler(
  engine: StripeEngine,
  store: StripeStore,
  keys: DoubleKeys,
): (req: IncomingMessage, res: ServerResponse, path: string, query: string) => Promise<boolean> {
  const table = routes(engine);
  return async (req, res, path, query) => {
    if (!path.startsWith('/v1/') && !path.startsWith('/_double/')) return false;
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, corsHeaders(req));
      res.end();
      return true;
    }
    const requestId = newId('req', 14);
    const headers: Record<string, string> = { 'request-id': requestId };
    const keyHeader = req.headers['idempotency-key'];
    const idempotencyKey = method === 'POST' && typeof keyHeader === 'string' ? keyHeader : null;
    if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
    try {
      const raw = method === 'GET' || method === 'DELETE' ? query : await readBody(req);
      const params = parseParams(raw);
      let match: { route: Route; ids: string[] } | null = null;
      let pathKnown = false;
      for (const route of table) {
        const found = route.pattern.exec(path);
        if (!found) continue;
        pathKnown = true;
        if (route.method === method) {
          match = { route, ids: found.slice(1) };
          break;
        }
      }
      if (!match)
        throw new StripeApiError(
          404,
          {
            type: 'invalid_request_error',
            message: pathKnown
              ? `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`
              : `Unrecognized request URL (${method}: ${path}).`,
          },
          false,
        );
      const key = authenticate(req, params, keys, match.route.publishable === true);
      if (idempotencyKey !== null) {
        if (idempotencyKey.length > 255)
          throw new StripeApiError(
            400,
            {
              type: 'invalid_request_error',
              message: 'Idempotency keys can be at most 255 characters long.',
            },
            false,
          );
        const saved = store.savedResponse(idempotencyKey);
        const print = fingerprint(params);
        if (saved) {
          if (saved.method !== method || saved.path !== path || saved.fingerprint !== print)
            throw new StripeApiError(
              400,
              {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              },
              false,
            );
          send(res, req, saved.status, saved.body, { ...headers, 'idempotent-replayed': 'true' });
          return true;
        }
        const { status, body } = run(match, params, { key, requestId, idempotencyKey });
        store.saveResponse(idempotencyKey, {
          method,
          path,
          fingerprint: print,
          status,
          body: body.text,
        });
        send(res, req, status, body.text, headers);
        return true;
      }
      const { status, body } = run(match, params, { key, requestId, idempotencyKey });
      send(res, req, status, body.text, headers);
    } catch (error) {
      const failure = asStripeError(error, requestId);
      send(res, req, failure.status, JSON.stringify(failure.body), headers);
    }
    return true;
  };

  function run(
    match: { route: Route; ids: string[] },
    params: Params,
    caller: Caller,
  ): { status: number; body: { text: string } } {
    try {
      const result = match.route.handler({ params, ids: match.ids, caller });
      return { status: 200, body: { text: JSON.stringify(result) } };
    } catch (error) {
      const failure = asStripeError(error, caller.requestId);
      // Refused while its parameters were checked: not saved, so the key may be used again.
      if (!failure.remembered) throw failure;
      return { status: failure.status, body: { text: JSON.stringify(failure.body) } };
    }
  }
}

function asStripeError(error: unknown, requestId: string): StripeApiError {
  if (error instanceof StripeApiError) return error;
  console.error(`[stripe double] unexpected error (${requestId})`, error);
  const body: StripeErrorBody['error'] = {
    type: 'api_error',
    message: `An unexpected error occurred in the Stripe double (request ${requestId}).`,
  };
  return new StripeApiError(500, body, false);
}
