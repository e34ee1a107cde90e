import type { Readable } from 'node:stream';
import type { FileBody } from './file-body.ts';

/** A cookie to set on the response. */
export interface Cookie {
  name: string;
  value: string;
  expires?: Date;
  httpOnly?: boolean;
  sameSite?: 'None' | 'Lax' | 'Strict';
}

/**
 * What a handler answers: status, JSON body (or raw bytes, a stream of them, or bytes of a file
 * sent through pooled buffers), extra headers and cookies.
 */
export interface Reply {
  status: number;
  body?: unknown;
  /** The JSON body as bytes already (sent as `body` would be, compressed alike); instead of `body`. */
  json?: Buffer;
  raw?: { data: Buffer | Uint8Array | string | Readable | FileBody; contentType: string };
  headers?: Record<string, string>;
  cookies?: Cookie[];
}

/** 200 with a JSON body. */
export const ok = (body: unknown, extra: Partial<Reply> = {}): Reply => ({
  status: 200,
  body,
  ...extra,
});
/** 201 with a JSON body. */
export const created = (body: unknown, extra: Partial<Reply> = {}): Reply => ({
  status: 201,
  body,
  ...extra,
});
/** 202 with a JSON body. */
export const accepted = (body: unknown): Reply => ({ status: 202, body });
/** 204 with no body. */
export const noContent = (extra: Partial<Reply> = {}): Reply => ({ status: 204, ...extra });
