import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  openSync,
  readSync,
  renameSync,
  statSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { resolveId } from '../../core/ids.ts';
import { assertCallerMaySet, parsePermissions, type Permission } from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError } from '../../http/errors.ts';
import { created, ok, type Reply } from '../../http/reply.ts';
import { assertBucketVisible, assertMayCreate, type StorageCaller } from './access.ts';
import {
  CHUNK_SIZE,
  chunkOf,
  countChunks,
  emptyChunkSet,
  hasChunk,
  parseContentRange,
  withChunk,
  type ChunkPosition,
  type ChunkSet,
} from './chunks.ts';
import { assertExtensionAllowed, assertSizeAllowed, extensionOf } from './file-rules.ts';
import { detectMimeType, MIME_SAMPLE_BYTES } from './mime.ts';
import { fileModel, type BucketRecord, type FileRecord } from './models.ts';
import { readMultipart, type FileSink } from './multipart.ts';
import { storageCaller, storageOf, type StorageService } from './service.ts';

const FILE_PERMISSIONS = ['read', 'update', 'delete'] as const;
const UID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

/** A chunk's bytes, held in memory (at most one chunk, 5 MiB); `data` is null past `limit`. */
interface ChunkBytes {
  data: Buffer | null;
  size: number;
}

/** A whole file streamed to a temporary path; `path` is null when the bytes were dropped. */
interface SpooledFile {
  path: string | null;
  size: number;
  md5: string;
  sample: Buffer;
}

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
 * Streams a file part to a temporary file, computing its MD5 and keeping its first bytes, and
 * flushes it to the disk. Past `limit` bytes, or when `keep(name)` is false, the bytes are read
 * and dropped (the temporary file removed) — the refusal is made once the body is read.
 */
function diskSink(
  service: StorageService,
  limit: number,
  keep: (name: string) => boolean,
): FileSink<SpooledFile> {
  return async (stream: Readable, name: string) => {
    const hash = createHash('md5');
    const head: Buffer[] = [];
    let headSize = 0;
    let size = 0;
    let path: string | null = keep(name) ? service.store.temporaryPath() : null;
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

/** The permissions of a new file: as sent (write expanded), or the calling user's own when none are. */
function filePermissions(raw: unknown, caller: StorageCaller, userId: string | null): Permission[] {
  if (raw === undefined || raw === null) {
    if (!userId || caller.isKey) return [];
    return FILE_PERMISSIONS.map((type) => ({ type, role: `user:${userId}` }));
  }
  const permissions = parsePermissions(raw, FILE_PERMISSIONS);
  if (!caller.isKey)
    assertCallerMaySet(permissions, new Set([...caller.roles].filter((role) => role !== 'any')));
  return permissions;
}

function headerOf(ctx: RequestContext, name: string): string {
  const value = ctx.headers[name];
  return typeof value === 'string' ? value : '';
}

/**
 * `POST /storage/buckets/:bucketId/files` (`createFile`): a whole file in one multipart request,
 * streamed to disk, or one 5 MiB chunk of a larger one (`Content-Range`, and `X-Appwrite-ID`
 * after the first), chunks in any order and several at once. Checks run in Appwrite's order once
 * the body is read; a refused request leaves nothing behind.
 */
export async function createFile(ctx: RequestContext): Promise<Reply> {
  const service = storageOf(ctx.backend);
  const caller = storageCaller(ctx.identity);
  const bucket = assertBucketVisible(service.store.getBucket(ctx.params.bucketId!), caller);
  assertMayCreate(bucket, caller);

  const rangeHeader = headerOf(ctx, 'content-range');
  let position: ChunkPosition | null = null;
  let rangeError: unknown = null;
  if (rangeHeader !== '') {
    try {
      position = chunkOf(parseContentRange(rangeHeader));
    } catch (error) {
      rangeError = error;
    }
  }
  const chunked = rangeHeader !== '';
  const allowedExtension = (name: string) =>
    bucket.allowedFileExtensions.length === 0 ||
    bucket.allowedFileExtensions.includes(extensionOf(name));
  const body = chunked
    ? await readMultipart(ctx.request, memorySink(position?.length ?? CHUNK_SIZE))
    : await readMultipart(ctx.request, diskSink(service, bucket.maximumFileSize, allowedExtension));
  const spooled = !chunked && body.file ? (body.file.result as SpooledFile) : null;
  try {
    const userId = ctx.identity.kind === 'user' ? ctx.identity.user.id : null;
    const permissions = filePermissions(body.fields.permissions, caller, userId);
    if (!body.file) throw new ApiError('storage_file_empty');
    if (rangeError) throw rangeError;
    let fileId = resolveId('fileId', body.fields.fileId);
    if (position) {
      const header = headerOf(ctx, 'x-appwrite-id');
      if (header !== '') {
        if (!UID.test(header)) throw new ApiError('storage_invalid_appwrite_id');
        fileId = header;
      }
    }
    assertExtensionAllowed(body.file.name, bucket.allowedFileExtensions);
    if (position) {
      assertSizeAllowed(position.size, bucket.maximumFileSize);
      const chunk = body.file.result as ChunkBytes;
      if (chunk.size !== position.length || !chunk.data) {
        throw new ApiError(
          'storage_invalid_content_range',
          `The content range is invalid: it names ${position.length} bytes but the chunk has ${chunk.size}.`,
        );
      }
      return await acceptChunk(
        service,
        bucket,
        fileId,
        body.file.name,
        permissions,
        position,
        chunk.data,
      );
    }
    assertSizeAllowed(spooled!.size, bucket.maximumFileSize);
    return await acceptWhole(service, bucket, fileId, body.file.name, permissions, spooled!);
  } finally {
    if (spooled?.path) await rm(spooled.path, { force: true });
  }
}

/** A whole file sent in one request: moved into place and recorded as complete. */
async function acceptWhole(
  service: StorageService,
  bucket: BucketRecord,
  fileId: string,
  name: string,
  permissions: Permission[],
  spooled: SpooledFile,
): Promise<Reply> {
  const mimeType = await detectMimeType(spooled.sample);
  const { store } = service;
  if (store.getFile(bucket.id, fileId)) throw new ApiError('storage_file_already_exists');
  const time = now();
  const file: FileRecord = {
    bucketId: bucket.id,
    id: fileId,
    createdAt: time,
    updatedAt: time,
    permissions,
    name,
    signature: spooled.md5,
    mimeType,
    sizeOriginal: spooled.size,
    sizeActual: spooled.size,
    chunksTotal: 1,
    chunks: '1',
    complete: true,
  };
  store.prepareBucketDir(bucket.id);
  // Moved before its record is written (in the same turn): a crash in between leaves bytes
  // without a record, which the sweep at start removes.
  renameSync(spooled.path!, store.pathOf(bucket.id, fileId));
  spooled.path = null;
  store.insertFile(file);
  service.publish(bucket, file, 'create');
  return created(fileModel(file));
}

/**
 * One chunk: written at its offset and flushed, then recorded. The chunk that completes the
 * upload checks the bytes (MD5, type) and marks the file complete, firing its create event.
 * A chunk of a complete file is answered 200 with the file, as on Appwrite.
 */
async function acceptChunk(
  service: StorageService,
  bucket: BucketRecord,
  fileId: string,
  name: string,
  permissions: Permission[],
  position: ChunkPosition,
  data: Buffer,
): Promise<Reply> {
  const { store } = service;
  const key = `${bucket.id}/${fileId}`;
  await service.finishing.get(key)?.catch(() => {});
  let file = store.getFile(bucket.id, fileId);
  if (file?.complete) return ok(fileModel(file));
  if (file && file.sizeOriginal !== position.size) {
    throw new ApiError(
      'storage_invalid_content_range',
      `The content range is invalid: upload ${fileId} is of ${file.sizeOriginal} bytes, not ${position.size}.`,
    );
  }
  if (!file) {
    const time = now();
    file = {
      bucketId: bucket.id,
      id: fileId,
      createdAt: time,
      updatedAt: time,
      permissions,
      name,
      signature: '',
      mimeType: '',
      sizeOriginal: position.size,
      sizeActual: 0,
      chunksTotal: position.total,
      chunks: emptyChunkSet(position.total),
      complete: false,
    };
    store.insertFile(file);
  }
  store.prepareBucketDir(bucket.id);
  const path = store.pathOf(bucket.id, fileId);
  await store.writeChunk(path, position.start, data);

  file = store.getFile(bucket.id, fileId);
  if (!file) {
    // deleted while the chunk was being written
    await rm(path, { force: true });
    throw new ApiError('storage_file_not_found');
  }
  if (file.complete) return ok(fileModel(file));
  const chunks = withChunk(file.chunks, position.index);
  advanceDigest(service, key, path, chunks, position, data);
  if (countChunks(chunks) < file.chunksTotal) {
    file = { ...file, chunks, updatedAt: now() };
    store.updateFile(file);
    return created(fileModel(file));
  }
  const pending = service.finishing.get(key);
  if (pending) {
    await pending.catch(() => {});
    const done = store.getFile(bucket.id, fileId);
    if (!done) throw new ApiError('storage_file_not_found');
    return ok(fileModel(done));
  }
  const finishing = finishUpload(service, bucket, fileId, chunks, permissions);
  service.finishing.set(key, finishing);
  try {
    return created(fileModel(await finishing));
  } finally {
    service.finishing.delete(key);
  }
}

/** Checks the complete bytes (MD5, type from the content) and records the file as complete. */
async function finishUpload(
  service: StorageService,
  bucket: BucketRecord,
  fileId: string,
  chunks: ChunkSet,
  permissions: Permission[],
): Promise<FileRecord> {
  const { store } = service;
  const { md5, sample, size } = await finalDigest(service, bucket.id, fileId);
  const mimeType = await detectMimeType(sample);
  const current = store.getFile(bucket.id, fileId);
  if (!current) throw new ApiError('storage_file_not_found');
  const file: FileRecord = {
    ...current,
    chunks,
    complete: true,
    signature: md5,
    mimeType,
    sizeActual: size,
    permissions,
    updatedAt: now(),
  };
  store.updateFile(file);
  service.publish(bucket, file, 'create');
  return file;
}

/** Chunks hashed from disk in one go at most (each ≤ 5 MiB, read synchronously from the page cache). */
const CATCH_UP_CHUNKS = 4;

/**
 * Adds the chunks now contiguous from the start to the upload's running MD5: this one from
 * memory when it is next, and up to {@link CATCH_UP_CHUNKS} already written ones after it from
 * disk. A chunk written again after it was hashed drops the running MD5 (the final check then
 * reads the whole file).
 */
function advanceDigest(
  service: StorageService,
  key: string,
  path: string,
  chunks: ChunkSet,
  position: ChunkPosition,
  data: Buffer,
): void {
  let digest = service.digests.get(key);
  if (digest && position.index < digest.next) {
    service.digests.delete(key);
    return;
  }
  if (!digest) {
    if (position.index !== 1) return;
    digest = { hash: createHash('md5'), next: 1 };
    service.digests.set(key, digest);
  }
  if (position.index === digest.next) {
    digest.hash.update(data);
    digest.next++;
  }
  let caughtUp = 0;
  if (digest.next > chunks.length || !hasChunk(chunks, digest.next)) return;
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_SIZE);
    while (
      caughtUp < CATCH_UP_CHUNKS &&
      digest.next <= chunks.length &&
      hasChunk(chunks, digest.next)
    ) {
      const start = (digest.next - 1) * CHUNK_SIZE;
      const length = Math.min(CHUNK_SIZE, position.size - start);
      let read = 0;
      while (read < length) read += readSync(fd, buffer, read, length - read, start + read);
      digest.hash.update(buffer.subarray(0, length));
      digest.next++;
      caughtUp++;
    }
  } finally {
    closeSync(fd);
  }
}

/** MD5, first bytes and size of a finished upload: the running MD5 completed from disk, or the whole file read. */
async function finalDigest(
  service: StorageService,
  bucketId: string,
  fileId: string,
): Promise<{ md5: string; sample: Buffer; size: number }> {
  const key = `${bucketId}/${fileId}`;
  const path = service.store.pathOf(bucketId, fileId);
  const digest = service.digests.get(key);
  service.digests.delete(key);
  if (!digest) return service.store.digest(path);
  const size = statSync(path).size;
  const from = (digest.next - 1) * CHUNK_SIZE;
  if (from < size) {
    for await (const piece of createReadStream(path, { start: from, highWaterMark: 1024 * 1024 }))
      digest.hash.update(piece as Buffer);
  }
  const sample = Buffer.alloc(Math.min(MIME_SAMPLE_BYTES, size));
  const fd = openSync(path, 'r');
  try {
    readSync(fd, sample, 0, sample.length, 0);
  } finally {
    closeSync(fd);
  }
  return { md5: digest.hash.digest('hex'), sample, size };
}
