import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Limiter } from '../../core/limiter.ts';
import { GatheredWrites } from './gathered-writes.ts';
import { MIME_SAMPLE_BYTES } from './mime.ts';
import { readMultipart, type FileSink, type MultipartBody } from './multipart.ts';
import type { ChunkBytes, SpooledFile } from './store.ts';

/**
 * Streams a file part to a fresh temporary path (1 MiB at a time, {@link GatheredWrites}),
 * computing its MD5 and keeping its first bytes, and flushes it to the disk. Past `limit` bytes,
 * or when `keep(name)` is false, the bytes are read and dropped (the temporary file removed) —
 * the refusal is made once the body is read.
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
    let handle: FileHandle | null = null;
    let out: GatheredWrites | null = null;
    try {
      if (path) {
        handle = await open(
          path,
          constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
          0o600,
        );
        out = new GatheredWrites(handle, 0);
      }
      for await (const piece of stream as AsyncIterable<Buffer>) {
        size += piece.length;
        if (!out) continue;
        if (size > limit) {
          await out.abandon();
          out = null;
          continue;
        }
        hash.update(piece);
        if (headSize < MIME_SAMPLE_BYTES) {
          const taken = piece.subarray(0, MIME_SAMPLE_BYTES - headSize);
          head.push(taken);
          headSize += taken.length;
        }
        await out.write(piece);
      }
      if (out) {
        await out.end();
        // on the disk before it is moved into place and recorded complete
        await handle!.datasync();
      }
    } catch (error) {
      await out?.abandon();
      out = null;
      throw error;
    } finally {
      await handle?.close();
      if (path && !out) {
        await rm(path, { force: true });
        path = null;
      }
    }
    return { path, size, md5: hash.digest('hex'), sample: Buffer.concat(head) };
  };
}

/**
 * Where a chunk's bytes go, decided when its file part starts (the fields before it known):
 * `stream` writes them straight to their offset in the upload's file, `memory` keeps them (≤ 5 MiB, when the upload's id is not known yet), `drop`
 * reads and counts them (the request is refused once its body is read).
 */
export type ChunkPlacement =
  | {
      kind: 'stream';
      path: string;
      start: number;
      length: number;
      /** Runs the writes of every chunk of the upload (the kernel serializes writes to one file). */
      limiter: Limiter;
      /** Whether the upload had a record when the chunk began (it is not re-created if deleted meanwhile). */
      recorded: boolean;
      /** Called once the bytes are written (or the writing failed). */
      release: () => void;
    }
  | { kind: 'memory'; length: number }
  | { kind: 'drop' };

/** Keeps a chunk's bytes in memory (at most one chunk, 5 MiB); past `limit` only counts them. */
async function keepInMemory(stream: Readable, limit: number): Promise<ChunkBytes> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    size += piece.length;
    if (size <= limit) parts.push(piece);
  }
  return { data: size <= limit ? Buffer.concat(parts, size) : null, size, streamed: null };
}

/** Reads a stream to its end, counting its bytes. */
async function count(stream: Readable): Promise<number> {
  let size = 0;
  for await (const piece of stream as AsyncIterable<Buffer>) size += piece.length;
  return size;
}

/**
 * Writes a chunk's bytes as they arrive at their offset of the upload's file (never more than
 * its range names: the rest is only counted), 1 MiB at a time ({@link GatheredWrites}).
 */
async function streamToPlace(
  stream: Readable,
  place: Extract<ChunkPlacement, { kind: 'stream' }>,
): Promise<ChunkBytes> {
  let size = 0;
  try {
    const handle = await open(place.path, constants.O_WRONLY | constants.O_CREAT, 0o600);
    const out = new GatheredWrites(handle, place.start, place.limiter);
    try {
      for await (const piece of stream as AsyncIterable<Buffer>) {
        const room = place.length - size;
        size += piece.length;
        if (room <= 0) continue;
        await out.write(piece.length <= room ? piece : piece.subarray(0, room));
      }
      await out.end();
    } catch (error) {
      await out.abandon();
      await handle.close().catch(() => {});
      throw error;
    }
    // The bytes are in the page cache: the chunk is answered while its file closes (one trip
    // through the thread pool less before the answer).
    handle.close().catch((error: unknown) => {
      console.error(`[storage] could not close ${place.path}`, error);
    });
  } finally {
    place.release();
  }
  return { data: null, size, streamed: { recorded: place.recorded } };
}

/** How a `createFile` body is read: one chunk placed by `place`, or a whole file streamed to disk. */
export type UploadReading =
  | {
      kind: 'chunk';
      /** Where the chunk's bytes go, once its file part starts. */
      place: (name: string, fields: Record<string, unknown>) => Promise<ChunkPlacement>;
    }
  | {
      kind: 'whole';
      /** Bytes past it are dropped (the bucket's `maximumFileSize`). */
      maxSize: number;
      /** Whether a file of that name is kept (its extension is allowed). */
      keep: (name: string) => boolean;
      temporaryPath: () => string;
    };

/** A `createFile` body: its fields and its file, a chunk (written or in memory) or a whole file on disk. */
export type UploadBody =
  | ({ kind: 'chunk' } & MultipartBody<ChunkBytes>)
  | ({ kind: 'whole' } & MultipartBody<SpooledFile>);

/**
 * Reads the multipart body of `createFile` as a stream (busboy): a chunk goes where `place`
 * says (normally straight to its offset in the upload's file), a whole file is written to a
 * temporary path as it arrives. The caller removes that path once done with it.
 */
export async function readUpload(
  request: IncomingMessage,
  reading: UploadReading,
): Promise<UploadBody> {
  if (reading.kind === 'chunk') {
    const fields: Record<string, unknown> = {};
    const sink: FileSink<ChunkBytes> = async (stream, name) => {
      const place = await reading.place(name, fields);
      if (place.kind === 'stream') return streamToPlace(stream, place);
      if (place.kind === 'memory') return keepInMemory(stream, place.length);
      return { data: null, size: await count(stream), streamed: null };
    };
    return { kind: 'chunk', ...(await readMultipart(request, sink, fields)) };
  }
  const sink = diskSink(reading.temporaryPath, reading.maxSize, reading.keep);
  return { kind: 'whole', ...(await readMultipart(request, sink)) };
}
