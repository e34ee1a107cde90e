import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { AppwriteException, Client, type Payload } from 'node-appwrite';
import { holdsUnsafeInteger } from '../../domain/json-integers.ts';

type Headers = Record<string, string>;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** `JSON.rawJSON` (Node ≥ 21): a number written verbatim by `JSON.stringify`. */
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** JSON with bigints written as exact numbers (the SDK's `JSONbig.stringify`). */
function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? rawJson(item.toString()) : item,
  );
}

/**
 * JSON as the SDK parses it: integers beyond 2^53 that fit 64 bits become bigints. The text is
 * read again with the reviver (slow) only when it holds one.
 */
function parse(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!holdsUnsafeInteger(value)) return value;
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
    const source = context?.source;
    if (!source || !/^-?\d+$/.test(source)) return value;
    const exact = BigInt(source);
    return exact >= INT64_MIN && exact <= INT64_MAX ? exact : value;
  });
}

/**
 * One pool of keep-alive connections per process, shared by every client (each execution of a
 * function makes its own client, with its own key).
 */
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

/**
 * A node-appwrite `Client` whose JSON requests go over `node:http` with keep-alive connections
 * instead of the SDK's `fetch` (undici with web streams, about three times the CPU per request).
 * The services, URLs, headers, bodies, errors (`AppwriteException`) and answers are the SDK's;
 * multipart uploads and binary downloads still go through the SDK's own transport. For
 * processes that send many small requests (the simulator, the functions).
 */
export class KeepAliveClient extends Client {
  /** A client with the same endpoint, project, credentials and headers as `client`. */
  static from(client: Client): KeepAliveClient {
    if (client instanceof KeepAliveClient) return client;
    const copy = new KeepAliveClient();
    Object.assign(copy.config, client.config);
    Object.assign(copy.headers, client.headers);
    return copy;
  }

  override async call(
    method: string,
    url: URL,
    headers: Headers = {},
    params: Payload = {},
    responseType = 'json',
  ): Promise<unknown> {
    const upper = method.toUpperCase();
    const merged: Record<string, string> = { ...this.headers, ...headers };
    const contentType = merged['content-type'];
    if (
      responseType !== 'json' ||
      this.config.selfSigned ||
      (upper !== 'GET' && contentType !== 'application/json')
    )
      return super.call(method, url, headers, params, responseType);
    let body: string | undefined;
    if (upper === 'GET') {
      for (const [key, value] of Object.entries(Client.flatten(params)))
        url.searchParams.append(key, value as string);
    } else {
      body = stringify(params);
      merged['content-length'] = String(Buffer.byteLength(body));
    }
    const response = await this.send(upper, url, merged, body);
    const warnings = response.headers['x-appwrite-warning'];
    if (typeof warnings === 'string')
      for (const warning of warnings.split(';')) console.warn(`Warning: ${warning}`);
    const isJson = String(response.headers['content-type'] ?? '').includes('application/json');
    const data = (isJson ? parse(response.text) : { message: response.text }) as Record<
      string,
      unknown
    > | null;
    if (response.status >= 400) {
      const message = data?.message;
      throw new AppwriteException(
        typeof message === 'string' ? message : '',
        response.status,
        typeof data?.type === 'string' ? data.type : '',
        isJson ? stringify(data) : String(message ?? ''),
      );
    }
    if (data && typeof data === 'object')
      Object.defineProperty(data, 'toString', {
        value: () => stringify(data),
        writable: true,
        enumerable: false,
        configurable: true,
      });
    return data;
  }

  private send(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    retry = true,
  ): Promise<{ status: number; headers: IncomingMessage['headers']; text: string }> {
    const secure = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const req = (secure ? httpsRequest : httpRequest)(
        url,
        { method, headers, agent: secure ? httpsAgent : httpAgent },
        (res) => {
          res.setEncoding('utf8');
          let text = '';
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
          res.on('error', reject);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed (its idle timeout) as this request went out
        // on it: the server read none of it, so it is sent once more, on a new connection.
        if (retry && req.reusedSocket && error.code === 'ECONNRESET')
          resolve(this.send(method, url, headers, body, false));
        else reject(error);
      });
      req.end(body);
    });
  }

  /** Closes the process's keep-alive sockets (lets it exit at once). */
  close(): void {
    httpAgent.destroy();
    httpsAgent.destroy();
  }
}
