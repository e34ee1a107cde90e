import { rm } from 'node:fs/promises';
import { ApiError, invalidParam } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import { parsePermissions } from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, integer, stringArray, text } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { FILE_PERMISSIONS, filePermissions, storageCaller } from './access.ts';
import { chunkOf, parseContentRange, type ChunkPosition } from './chunks.ts';
import { isExtensionAllowed } from './file-rules.ts';
import { fileModel, type BucketRecord } from './models.ts';
import { renderPreview } from './preview.ts';
import { previewOptions } from './preview-params.ts';
import { fileBytesReply } from './serve.ts';
import type { StorageStore } from './store.ts';
import { readUpload, type ChunkPlacement } from './upload.ts';

/** The largest `maximumFileSize` a bucket may set, 5 GB (Appwrite's `_APP_STORAGE_LIMIT`). */
const MAX_FILE_SIZE = 5_000_000_000;
const BUCKET_PERMISSIONS = ['read', 'create', 'update', 'delete'] as const;
/** Attributes file list queries may use (Appwrite's `Queries\Files`). */
const FILE_QUERY_ATTRIBUTES = [
  'name',
  'signature',
  'mimeType',
  'sizeOriginal',
  'chunksTotal',
  'chunksUploaded',
];
/** A custom id as `X-Appwrite-ID` may carry it. */
const UID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

function store(ctx: RequestContext): StorageStore {
  return ctx.backend.services.storage;
}

function header(ctx: RequestContext, name: string): string {
  const value = ctx.headers[name];
  return typeof value === 'string' ? value : '';
}

// Buckets (API keys)

function readSettings(
  ctx: RequestContext,
  previous: BucketRecord | null,
): Omit<BucketRecord, 'id' | 'createdAt' | 'updatedAt'> {
  const compression = text(ctx.input, 'compression', {
    max: 10,
    fallback: previous?.compression ?? 'none',
  });
  if (!['none', 'gzip', 'zstd'].includes(compression))
    throw invalidParam('compression', 'Value must be one of (none, gzip, zstd)');
  return {
    name: text(ctx.input, 'name', { required: true, max: 128 }),
    permissions: parsePermissions(ctx.input.permissions, BUCKET_PERMISSIONS),
    fileSecurity: bool(ctx.input, 'fileSecurity', false),
    enabled: bool(ctx.input, 'enabled', true),
    maximumFileSize: integer(ctx.input, 'maximumFileSize', {
      min: 1,
      max: MAX_FILE_SIZE,
      fallback: MAX_FILE_SIZE,
    })!,
    // kept as written: Appwrite compares the lower-cased extension with them as they are
    allowedFileExtensions: stringArray(ctx.input, 'allowedFileExtensions', { maxLength: 64 }),
    compression,
    encryption: bool(ctx.input, 'encryption', true),
    antivirus: bool(ctx.input, 'antivirus', true),
    transformations: bool(ctx.input, 'transformations', true),
  };
}

function createBucket(ctx: RequestContext): Reply {
  const time = now();
  const bucket: BucketRecord = {
    id: resolveId('bucketId', ctx.input.bucketId),
    createdAt: time,
    updatedAt: time,
    ...readSettings(ctx, null),
  };
  store(ctx).createBucket(bucket);
  return created(store(ctx).bucketModelOf(bucket));
}

function listBuckets(ctx: RequestContext): Reply {
  const { total, page } = applyListQueries(
    store(ctx)
      .listBuckets()
      .map((bucket) => store(ctx).bucketModelOf(bucket)),
    ctx.input.queries,
    ['name', 'enabled'],
    'Bucket',
  );
  return ok({ total, buckets: page });
}

function getBucket(ctx: RequestContext): Reply {
  return ok(store(ctx).bucketModelOf(store(ctx).bucket(ctx.params.bucketId!)));
}

function updateBucket(ctx: RequestContext): Reply {
  const previous = store(ctx).bucket(ctx.params.bucketId!);
  const bucket: BucketRecord = { ...previous, ...readSettings(ctx, previous), updatedAt: now() };
  store(ctx).saveBucket(bucket);
  return ok(store(ctx).bucketModelOf(bucket));
}

function deleteBucket(ctx: RequestContext): Reply {
  store(ctx).deleteBucket(store(ctx).bucket(ctx.params.bucketId!).id);
  return noContent();
}

// Files

/**
 * `createFile`: a whole file in one multipart request, streamed to disk, or one 5 MiB chunk of a
 * larger one (`Content-Range`, and `X-Appwrite-ID` after the first), chunks in any order and
 * several at once, each written straight to its offset in the upload's file as it arrives. The
 * body is read before the checks, which run in Appwrite's order; a refused request leaves
 * nothing behind.
 */
async function createFile(ctx: RequestContext): Promise<Reply> {
  let bodyRead = 0;
  ctx.request.once('end', () => (bodyRead = performance.now()));
  const reply = await createFileFrom(ctx);
  if (bodyRead > 0 && header(ctx, 'content-range') !== '')
    store(ctx).timings.chunk(performance.now() - bodyRead);
  return reply;
}

/** {@link createFile}'s work (its caller times the chunks). */
async function createFileFrom(ctx: RequestContext): Promise<Reply> {
  const caller = storageCaller(ctx.identity);
  const bucket = store(ctx).uploadBucket(ctx.params.bucketId!, caller);
  const rangeHeader = header(ctx, 'content-range');
  const appwriteId = header(ctx, 'x-appwrite-id');
  let position: ChunkPosition | null = null;
  let rangeError: unknown = null;
  if (rangeHeader !== '') {
    try {
      position = chunkOf(parseContentRange(rangeHeader));
    } catch (error) {
      rangeError = error;
    }
  }
  /** The `fileId` field resolved once (`unique()` draws a new id each time), when it was read. */
  let fieldId: string | null = null;
  /** The upload a chunk's bytes were written for. */
  let placedId: string | null = null;
  const placeChunk = async (
    name: string,
    fields: Record<string, unknown>,
  ): Promise<ChunkPlacement> => {
    if (!position) return { kind: 'drop' };
    let id: string;
    if (appwriteId !== '') {
      if (!UID.test(appwriteId)) return { kind: 'drop' };
      id = appwriteId;
    } else {
      // the SDKs send `fileId` before the file; a client sending it after has its chunk kept in memory
      if (fields.fileId === undefined) return { kind: 'memory', length: position.length };
      try {
        id = fieldId = resolveId('fileId', fields.fileId);
      } catch {
        return { kind: 'drop' };
      }
    }
    const placement = await store(ctx).placeChunk(bucket, { id, name }, position);
    if (placement.kind === 'stream') placedId = id;
    return placement;
  };
  let body;
  try {
    body = await readUpload(
      ctx.request,
      rangeHeader !== ''
        ? { kind: 'chunk', place: placeChunk }
        : {
            kind: 'whole',
            maxSize: bucket.maximumFileSize,
            keep: (name) => isExtensionAllowed(name, bucket.allowedFileExtensions),
            temporaryPath: () => store(ctx).temporaryPath(),
          },
    );
  } catch (error) {
    // a body cut short: what its chunk wrote goes unless its upload is recorded
    if (placedId !== null) await store(ctx).abandonChunk(bucket.id, placedId);
    throw error;
  }
  const spooled = body.kind === 'whole' ? body.file?.result : undefined;
  let recorded = false;
  try {
    const permissions = filePermissions(body.fields.permissions, caller);
    if (!body.file) throw new ApiError('storage_file_empty');
    if (rangeError) throw rangeError;
    let id = fieldId ?? resolveId('fileId', body.fields.fileId);
    if (body.kind === 'whole') {
      const upload = { id, name: body.file.name, permissions };
      return created(fileModel(await store(ctx).createWholeFile(bucket, upload, spooled!)));
    }
    if (appwriteId !== '') {
      if (!UID.test(appwriteId)) throw new ApiError('storage_invalid_appwrite_id');
      id = appwriteId;
    }
    const outcome = await store(ctx).writeChunk(
      bucket,
      { id, name: body.file.name, permissions },
      position!,
      body.file.result,
    );
    recorded = true;
    return outcome.created ? created(fileModel(outcome.file)) : ok(fileModel(outcome.file));
  } finally {
    if (spooled?.path) await rm(spooled.path, { force: true });
    if (placedId !== null && !recorded) await store(ctx).abandonChunk(bucket.id, placedId);
  }
}

function listFiles(ctx: RequestContext): Reply {
  const files = store(ctx).listFiles(
    ctx.params.bucketId!,
    storageCaller(ctx.identity),
    text(ctx.input, 'search', { max: 256 }),
  );
  const { total, page } = applyListQueries(
    files.map(fileModel),
    ctx.input.queries,
    FILE_QUERY_ATTRIBUTES,
    'File',
  );
  return ok({ total: bool(ctx.input, 'total', true) ? total : 0, files: page });
}

function getFile(ctx: RequestContext): Reply {
  const { file } = store(ctx).readableFile(
    ctx.params.bucketId!,
    ctx.params.fileId!,
    storageCaller(ctx.identity),
  );
  return ok(fileModel(file));
}

/** `updateFile`: name and permissions (users may only grant roles they hold). */
function updateFile(ctx: RequestContext): Reply {
  const permissions =
    ctx.input.permissions === undefined || ctx.input.permissions === null
      ? undefined
      : parsePermissions(ctx.input.permissions, FILE_PERMISSIONS);
  const name =
    ctx.input.name === undefined || ctx.input.name === null
      ? undefined
      : text(ctx.input, 'name', { max: 128 });
  const file = store(ctx).updateFile(
    ctx.params.bucketId!,
    ctx.params.fileId!,
    storageCaller(ctx.identity),
    { name, permissions },
  );
  return ok(fileModel(file));
}

function deleteFile(ctx: RequestContext): Reply {
  store(ctx).deleteFile(ctx.params.bucketId!, ctx.params.fileId!, storageCaller(ctx.identity));
  return noContent();
}

function fileBytes(ctx: RequestContext, kind: 'download' | 'view'): Promise<Reply> {
  const { file, path } = store(ctx).readableBytes(
    ctx.params.bucketId!,
    ctx.params.fileId!,
    storageCaller(ctx.identity),
  );
  return fileBytesReply(file, path, ctx.headers.range, kind);
}

function downloadFile(ctx: RequestContext): Promise<Reply> {
  return fileBytes(ctx, 'download');
}

function viewFile(ctx: RequestContext): Promise<Reply> {
  return fileBytes(ctx, 'view');
}

/** `getFilePreview`: an image resized and re-encoded by sharp; other files get a placeholder. */
async function previewFile(ctx: RequestContext): Promise<Reply> {
  const options = previewOptions(ctx.input);
  const { source, defaultOutput } = await store(ctx).previewSource(
    ctx.params.bucketId!,
    ctx.params.fileId!,
    storageCaller(ctx.identity),
  );
  const { data, contentType } = await renderPreview(
    source,
    options,
    options.output || defaultOutput,
  );
  return {
    status: 200,
    headers: { 'Cache-Control': 'private, max-age=2592000' },
    raw: { data, contentType },
  };
}

const BUCKET = '/storage/buckets/:bucketId';
const FILE = `${BUCKET}/files/:fileId`;

/** Storage: buckets (API keys) and their files. */
export const routes: readonly Route[] = [
  route('POST', '/storage/buckets', 'buckets.write', createBucket),
  route('GET', '/storage/buckets', 'buckets.read', listBuckets),
  route('GET', BUCKET, 'buckets.read', getBucket),
  route('PUT', BUCKET, 'buckets.write', updateBucket),
  route('DELETE', BUCKET, 'buckets.write', deleteBucket),
  route('POST', `${BUCKET}/files`, 'files.write', createFile, { streamBody: true }),
  route('GET', `${BUCKET}/files`, 'files.read', listFiles),
  route('GET', FILE, 'files.read', getFile),
  route('PUT', FILE, 'files.write', updateFile),
  route('DELETE', FILE, 'files.write', deleteFile),
  route('GET', `${FILE}/download`, 'files.read', downloadFile),
  route('GET', `${FILE}/view`, 'files.read', viewFile),
  route('GET', `${FILE}/preview`, 'files.read', previewFile),
];
