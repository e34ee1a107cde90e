import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { MIME_SAMPLE_BYTES } from './mime.ts';
import { readMultipart, type FileSink, type MultipartBody } from './multipart.ts';
import type { ChunkBytes, SpooledFile } from './store.ts';

/** Keeps a chunk's bytes in memory (at most one chunk, 5 MiB); past `limit` only counts them. */
function memorySink(limit: number): FileSink<ChunkBytes> {
  return async (stream) => {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const piece of stream as AsyncIterable<Buffer>) {
      size += piece.length;
      if (size <= limit) parts.push(piece);
    }
    return { data: size <= limit ? Buffer.concat(parts, size) : null, size };
  };
}

/**
 * Streams a file part to a fresh temporary path, computing its MD5 and keeping its first bytes,
 * and flushes it to the disk. Past `limit` bytes, or when `keep(name)` is false, the bytes are
 * read and dropped (the temporary file removed) — the refusal is made once the body is read.
 */
function diskSink(
  temporaryPath: () => string,
  limit: number,
  keep: (name: string) => boolean,
): FileSink<SpooledFile> {
  return async (stream: Readable, name: string) => {
    const hash = createHash('md5');
    const head: Buffer[] = [];
    let headSize = 0;
    let size = 0;
    let path: string | null = keep(name) ? temporaryPath() : null;
    const out = path ? createWriteStream(path, { flush: true, mode: 0o600 }) : null;
    try {
      for await (const piece of stream as AsyncIterable<Buffer>) {
        size += piece.length;
        if (!out || out.destroyed) continue;
        if (size > limit) {
          out.destroy();
          continue;
        }
        hash.update(piece);
        if (headSize < MIME_SAMPLE_BYTES) {
          const taken = piece.subarray(0, MIME_SAMPLE_BYTES - headSize);
          head.push(taken);
          headSize += taken.length;
        }
        if (!out.write(piece)) await once(out, 'drain');
      }
      if (out && !out.destroyed) {
        out.end();
        await once(out, 'close');
      } else if (path) {
        await rm(path, { force: true });
        path = null;
      }
    } catch (error) {
      out?.destroy();
      if (path) await rm(path, { force: true });
      throw error;
    }
    return { path, size, md5: hash.digest('hex'), sample: Buffer.concat(head) };
  };
}

/** How a `createFile` body is read: one chunk into memory, or a whole file streamed to disk. */
export type UploadReading =
  | { kind: 'chunk'; length: number }
  | {
      kind: 'whole';
      /** Bytes past it are dropped (the bucket's `maximumFileSize`). */
      maxSize: number;
      /** Whether a file of that name is kept (its extension is allowed). */
      keep: (name: string) => boolean;
      temporaryPath: () => string;
    };

/** A `createFile` body: its fields and its file, a chunk in memory or a whole file on disk. */
export type UploadBody =
  | ({ kind: 'chunk' } & MultipartBody<ChunkBytes>)
  | ({ kind: 'whole' } & MultipartBody<SpooledFile>);

/**
 * Reads the multipart body of `createFile` as a stream (busboy): a chunk (≤ 5 MiB) is held in
 * memory, a whole file never is — it is written to a temporary path as it arrives. The caller
 * removes that path once done with it.
 */
export async function readUpload(
  request: IncomingMessage,
  reading: UploadReading,
): Promise<UploadBody> {
  if (reading.kind === 'chunk')
    return { kind: 'chunk', ...(await readMultipart(request, memorySink(reading.length))) };
  const sink = diskSink(reading.temporaryPath, reading.maxSize, reading.keep);
  return { kind: 'whole', ...(await readMultipart(request, sink)) };
}
