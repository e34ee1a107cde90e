import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Backend } from '../backend.ts';
import type { Identity } from '../core/auth/roles.ts';

/** A file sent in a multipart request. */
export interface UploadedFile {
  name: string;
  type: string;
  data: Buffer;
}

/** Everything a route handler knows about the request. */
export interface RequestContext {
  backend: Backend;
  method: string;
  /** Path below `/v1`. */
  path: string;
  params: Record<string, string>;
  /** Query-string and body params merged (body wins). */
  input: Record<string, unknown>;
  files: Record<string, UploadedFile>;
  headers: IncomingHttpHeaders;
  /** The request itself; its body is unread only on `streamBody` routes. */
  request: IncomingMessage;
  identity: Identity;
  /** `X-Appwrite-Response-Format`, e.g. `1.9.5`. */
  responseFormat: string;
  origin: string | null;
  ip: string;
  userAgent: string;
}
