import type { ServerResponse } from 'node:http';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';

/** A content coding the backend answers with, as Appwrite does. */
export type Encoding = 'br' | 'gzip' | 'deflate';

/**
 * Bodies smaller than this go out as they are (Appwrite's default
 * `_APP_COMPRESSION_MIN_SIZE_BYTES`): compressing them costs more than it saves.
 */
export const COMPRESSION_MIN_BYTES = 1024;

/** Our order for codings that `*` stands for (the client named none of them). */
const PREFERENCE: readonly Encoding[] = ['br', 'gzip', 'deflate'];

/**
 * The coding to answer with for an `Accept-Encoding` header, as Appwrite negotiates
 * (`Utopia\Compression\Compression::fromAcceptEncoding`: the accepted codings sorted by q-value,
 * stably, the first one supported): the supported one with the highest q-value, among equals the
 * one the client names first (browsers send `gzip, deflate, br, zstd`: gzip); `*` stands for any
 * not named (in {@link PREFERENCE}'s order); q=0 refuses. Null: send the body as it is.
 */
export function chooseEncoding(header: string | string[] | undefined): Encoding | null {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  const quality = new Map<string, number>();
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name || quality.has(name)) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param);
      if (match) q = Number(match[1]);
    }
    quality.set(name, Number.isFinite(q) ? q : 0);
  }
  const wildcard = quality.get('*') ?? 0;
  const candidates: [Encoding, number][] = [];
  for (const [name, q] of quality)
    if ((PREFERENCE as readonly string[]).includes(name)) candidates.push([name as Encoding, q]);
  for (const encoding of PREFERENCE)
    if (!quality.has(encoding)) candidates.push([encoding, wildcard]);
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const [encoding, q] of candidates)
    if (q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  return best;
}

/**
 * `data` compressed with `encoding`, at once, at the cheapest setting: a local backend's bytes
 * cost next to nothing, its CPU does (the desk's first load reads 100,000 orders in 20 pages of
 * ~3.6 MB). A page of 5,000 orders, median of 9 in Node: gzip level 1 10.5 ms and 385 KB, level
 * 6 (Appwrite's `gzencode` default) 26–30 ms and 310 KB; both decode in ~4.6 ms. Brotli quality
 * 1 (2.2 s of backend CPU for the whole load against 3.1 s at 4) decodes in ~84 ms a page.
 */
function compress(encoding: Encoding, data: Buffer): Buffer {
  switch (encoding) {
    case 'br':
      return brotliCompressSync(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 1,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      });
    case 'gzip':
      return gzipSync(data, { level: 1 });
    case 'deflate':
      return deflateSync(data, { level: 1 });
  }
}

/**
 * Writes a response with `body`, compressed with the coding the request accepts when the body
 * is at least {@link COMPRESSION_MIN_BYTES}; always with `Vary: Accept-Encoding`.
 *
 * Compressed at once, not through a zlib stream: a stream's chunks are written from callbacks
 * that wait for the event loop, so while the next requests' handlers run (a page of 5,000
 * documents is ~100 ms of one), a finished body is held back, and several pages read at once all
 * arrived together at the end instead of one after the other.
 */
export function writeBody(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: string | Buffer,
): void {
  const data = typeof body === 'string' ? Buffer.from(body) : body;
  const encoding =
    data.length >= COMPRESSION_MIN_BYTES
      ? chooseEncoding(res.req.headers['accept-encoding'])
      : null;
  const vary = { ...headers, Vary: 'Accept-Encoding' };
  if (encoding === null) {
    res.writeHead(status, vary);
    res.end(data);
    return;
  }
  let compressed: Buffer;
  try {
    compressed = compress(encoding, data);
  } catch {
    // A failed compression cuts the connection: the client sees a short body, never a wrong one.
    res.destroy();
    return;
  }
  res.writeHead(status, { ...vary, 'Content-Encoding': encoding });
  res.end(compressed);
}
