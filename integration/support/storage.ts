import { createHash } from 'node:crypto';
import { ID, Storage as WebStorage } from 'appwrite';
import { Storage } from 'node-appwrite';
import type { BackendConnection } from '../targets/types.ts';
import { backend, serverClient } from './clients.ts';
import type { Person } from './desk.ts';

/** Appwrite's upload chunk size (the SDKs' `CHUNK_SIZE`). */
export const CHUNK = 5 * 1024 * 1024;

/** Deterministic bytes (so a failing comparison is reproducible), `size` long. */
export function patternBytes(size: number, seed = 1): Buffer<ArrayBuffer> {
  const bytes = Buffer.alloc(size);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 4) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes.writeUInt32LE(state >>> 0, Math.min(i, size - 4));
  }
  return bytes;
}

/** A 1×1 PNG. */
export const ONE_PIXEL_PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** Uploads `bytes` as a file named `name` with the person's browser SDK (as the desk does). */
export function uploadAs(
  person: Person,
  bucketId: string,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
) {
  return new WebStorage(person.client).createFile({
    bucketId,
    fileId: ID.unique(),
    file: new File([bytes], name),
  });
}

/** Whether the bucket holds the file (read with the API key; another error is thrown). */
export async function fileExists(bucketId: string, fileId: string): Promise<boolean> {
  try {
    await new Storage(serverClient()).getFile({ bucketId, fileId });
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return false;
    throw error;
  }
}

/** MD5 hex, as Appwrite's file `signature`. */
export function md5(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** An answer of a raw request: status, parsed JSON body (if any), headers. */
export interface RawAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function answer(response: Response): Promise<RawAnswer> {
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { text };
  }
  return { status: response.status, body, headers: response.headers };
}

/** Options of {@link postFile}. */
export interface PostFileOptions {
  bucketId: string;
  fileId: string;
  name: string;
  data: Uint8Array;
  /** `Content-Range` header, e.g. `bytes 0-5242879/12000000`. */
  contentRange?: string;
  /** `X-Appwrite-ID` header. */
  uploadId?: string;
  permissions?: string[];
  /** Sends the file part before the `fileId` field (the SDKs send `fileId` first). */
  fileFirst?: boolean;
  /** Credentials: the API key (default) or none. */
  headers?: Record<string, string>;
  connection?: BackendConnection;
}

/** `POST /storage/buckets/:b/files` as raw multipart (what the SDKs send), with the API key by default. */
export async function postFile(options: PostFileOptions): Promise<RawAnswer> {
  const connection = options.connection ?? backend();
  const form = new FormData();
  const file = new File([new Uint8Array(options.data)], options.name);
  if (options.fileFirst) form.append('file', file);
  form.append('fileId', options.fileId);
  if (!options.fileFirst) form.append('file', file);
  for (const permission of options.permissions ?? []) form.append('permissions[]', permission);
  const headers: Record<string, string> = {
    'x-appwrite-project': connection.projectId,
    ...(options.headers ?? { 'x-appwrite-key': connection.apiKey }),
  };
  if (options.contentRange) headers['content-range'] = options.contentRange;
  if (options.uploadId) headers['x-appwrite-id'] = options.uploadId;
  const response = await fetch(`${connection.endpoint}/storage/buckets/${options.bucketId}/files`, {
    method: 'POST',
    headers,
    body: form,
  });
  return answer(response);
}

/** Chunk `index` (from 1) of `data`, with its `Content-Range`. */
export function chunkOf(
  data: Uint8Array,
  index: number,
): { data: Uint8Array; contentRange: string } {
  const start = (index - 1) * CHUNK;
  const end = Math.min(start + CHUNK, data.length);
  return {
    data: data.subarray(start, end),
    contentRange: `bytes ${start}-${end - 1}/${data.length}`,
  };
}

/** A raw GET with the API key (or the given headers). */
export async function getRaw(
  path: string,
  headers: Record<string, string> = {},
  connection: BackendConnection = backend(),
): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(`${connection.endpoint}${path}`, {
    headers: {
      'x-appwrite-project': connection.projectId,
      'x-appwrite-key': connection.apiKey,
      ...headers,
    },
  });
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    headers: response.headers,
  };
}
