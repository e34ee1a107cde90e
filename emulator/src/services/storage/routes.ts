import { resolveId } from '../../core/ids.ts';
import { assertCallerMaySet, parsePermissions, type Permission } from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError, invalidParam } from '../../http/errors.ts';
import { parseSimpleListQueries } from '../../http/list-queries.ts';
import { bool, integer, stringArray, text } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import type { Route } from '../../http/router.ts';
// The in-memory list queries of the functions service (filters, order, cursor, limit, offset).
import { applyListQueries } from '../functions/queries.ts';
import {
  assertBucketVisible,
  assertFileAccess,
  fileGrants,
  fileReach,
  type StorageCaller,
} from './access.ts';
import { extensionOf } from './file-rules.ts';
import { bucketModel, fileModel, type BucketRecord } from './models.ts';
import {
  defaultOutput,
  PREVIEW_INPUTS,
  PREVIEW_LIMIT,
  previewOptions,
  renderPreview,
} from './preview.ts';
import { readableFile, downloadFile, viewFile } from './serve.ts';
import { storageCaller, storageOf } from './service.ts';
import { createFile } from './upload.ts';
import { readFile } from 'node:fs/promises';

/** The largest `maximumFileSize` a bucket may set, 5 GB. */
const MAX_FILE_SIZE = 5_000_000_000;
const BUCKET_PERMISSIONS = ['read', 'create', 'update', 'delete'] as const;
const FILE_PERMISSIONS = ['read', 'update', 'delete'] as const;
/** Attributes file list queries may use (Appwrite's `Queries\Files`). */
const FILE_QUERY_ATTRIBUTES = [
  'name',
  'signature',
  'mimeType',
  'sizeOriginal',
  'chunksTotal',
  'chunksUploaded',
];

function bucketSettings(
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

function bucketOf(ctx: RequestContext): BucketRecord {
  const bucket = storageOf(ctx.backend).store.getBucket(ctx.params.bucketId!);
  if (!bucket) throw new ApiError('storage_bucket_not_found');
  return bucket;
}

function bucketReply(ctx: RequestContext, bucket: BucketRecord, status = 200): Reply {
  const body = bucketModel(bucket, storageOf(ctx.backend).store.totalSize(bucket.id));
  return status === 201 ? created(body) : ok(body);
}

function bucketRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: '/storage/buckets',
      scope: 'buckets.write',
      handler: (ctx) => {
        const time = now();
        const bucket: BucketRecord = {
          id: resolveId('bucketId', ctx.input.bucketId),
          createdAt: time,
          updatedAt: time,
          ...bucketSettings(ctx, null),
        };
        storageOf(ctx.backend).store.insertBucket(bucket);
        return bucketReply(ctx, bucket, 201);
      },
    },
    {
      method: 'GET',
      path: '/storage/buckets',
      scope: 'buckets.read',
      handler: (ctx) => {
        const query = parseSimpleListQueries(ctx.input.queries, ['name', 'enabled']);
        const all = storageOf(ctx.backend).store.listBuckets();
        const page = all.slice(query.offset, query.offset + query.limit);
        return ok({
          total: all.length,
          buckets: page.map((bucket) =>
            bucketModel(bucket, storageOf(ctx.backend).store.totalSize(bucket.id)),
          ),
        });
      },
    },
    {
      method: 'GET',
      path: '/storage/buckets/:bucketId',
      scope: 'buckets.read',
      handler: (ctx) => bucketReply(ctx, bucketOf(ctx)),
    },
    {
      method: 'PUT',
      path: '/storage/buckets/:bucketId',
      scope: 'buckets.write',
      handler: (ctx) => {
        const previous = bucketOf(ctx);
        const bucket: BucketRecord = {
          ...previous,
          ...bucketSettings(ctx, previous),
          updatedAt: now(),
        };
        storageOf(ctx.backend).store.updateBucket(bucket);
        return bucketReply(ctx, bucket);
      },
    },
    {
      method: 'DELETE',
      path: '/storage/buckets/:bucketId',
      scope: 'buckets.write',
      handler: (ctx) => {
        storageOf(ctx.backend).store.deleteBucket(bucketOf(ctx).id);
        return noContent();
      },
    },
  ];
}

function visibleBucket(ctx: RequestContext, caller: StorageCaller): BucketRecord {
  return assertBucketVisible(storageOf(ctx.backend).store.getBucket(ctx.params.bucketId!), caller);
}

/** `listFiles`: every file (unfinished uploads too, as on Appwrite) the caller may read. */
function listFiles(ctx: RequestContext): Reply {
  const caller = storageCaller(ctx.identity);
  const bucket = visibleBucket(ctx, caller);
  const reach = fileReach(bucket, caller, 'read');
  const search = text(ctx.input, 'search', { max: 256 }).toLowerCase();
  const models = storageOf(ctx.backend)
    .store.listFiles(bucket.id)
    .filter((file) => reach === 'bucket' || fileGrants(file.permissions, caller, 'read'))
    .filter((file) => search === '' || `${file.id} ${file.name}`.toLowerCase().includes(search))
    .map(fileModel);
  let result;
  try {
    result = applyListQueries(models, ctx.input.queries, FILE_QUERY_ATTRIBUTES);
  } catch (error) {
    if (error instanceof ApiError && error.type === 'general_cursor_not_found')
      throw new ApiError('general_cursor_not_found', error.message.replace(/^Document/, 'File'));
    throw error;
  }
  return ok({ total: bool(ctx.input, 'total', true) ? result.total : 0, files: result.page });
}

/** `updateFile`: name and permissions (bucket `update`, or the file's with `fileSecurity`). */
function updateFile(ctx: RequestContext): Reply {
  const service = storageOf(ctx.backend);
  const caller = storageCaller(ctx.identity);
  const bucket = visibleBucket(ctx, caller);
  const reach = fileReach(bucket, caller, 'update');
  const file = service.store.getFile(bucket.id, ctx.params.fileId!);
  if (!file) throw new ApiError('storage_file_not_found');
  let permissions: Permission[] = file.permissions;
  if (ctx.input.permissions !== undefined && ctx.input.permissions !== null) {
    permissions = parsePermissions(ctx.input.permissions, FILE_PERMISSIONS);
    if (!caller.isKey)
      assertCallerMaySet(permissions, new Set([...caller.roles].filter((role) => role !== 'any')));
  }
  const name =
    ctx.input.name === undefined || ctx.input.name === null
      ? file.name
      : text(ctx.input, 'name', { max: 128 });
  assertFileAccess(reach, file.permissions, caller, 'update');
  const updated = { ...file, name, permissions, updatedAt: now() };
  service.store.updateFile(updated);
  service.publish(bucket, updated, 'update');
  return ok(fileModel(updated));
}

/** `deleteFile`: the record, then its bytes (an unfinished upload's chunks too). */
async function deleteFile(ctx: RequestContext): Promise<Reply> {
  const service = storageOf(ctx.backend);
  const caller = storageCaller(ctx.identity);
  const bucket = visibleBucket(ctx, caller);
  const reach = fileReach(bucket, caller, 'delete');
  const file = service.store.getFile(bucket.id, ctx.params.fileId!);
  if (!file) throw new ApiError('storage_file_not_found');
  assertFileAccess(reach, file.permissions, caller, 'delete');
  service.digests.delete(`${bucket.id}/${file.id}`);
  void service.store.deleteFile(bucket.id, file.id);
  service.publish(bucket, file, 'delete');
  return noContent();
}

/** `getFilePreview`: an image resized and re-encoded by sharp; other files get a placeholder. */
async function previewFile(ctx: RequestContext): Promise<Reply> {
  const caller = storageCaller(ctx.identity);
  const bucket = visibleBucket(ctx, caller);
  if (!bucket.transformations && !caller.isKey)
    throw new ApiError('storage_bucket_transformations_disabled');
  const options = previewOptions(ctx.input);
  const { file } = readableFile(ctx);
  if (!file.complete)
    throw new ApiError(
      'storage_file_not_found',
      'The file has no content yet: its upload is not finished.',
    );
  const previewable = PREVIEW_INPUTS.has(file.mimeType) && file.sizeActual <= PREVIEW_LIMIT;
  const source = previewable
    ? await readFile(storageOf(ctx.backend).store.pathOf(bucket.id, file.id))
    : null;
  const output =
    options.output || (previewable ? defaultOutput(extensionOf(file.name), file.mimeType) : 'png');
  const { data, contentType } = await renderPreview(source, options, output);
  return {
    status: 200,
    headers: { 'Cache-Control': 'private, max-age=2592000' },
    raw: { data, contentType },
  };
}

function fileRoutes(): Route[] {
  const base = '/storage/buckets/:bucketId/files';
  return [
    { method: 'POST', path: base, scope: 'files.write', streamBody: true, handler: createFile },
    { method: 'GET', path: base, scope: 'files.read', handler: listFiles },
    {
      method: 'GET',
      path: `${base}/:fileId`,
      scope: 'files.read',
      handler: (ctx) => ok(fileModel(readableFile(ctx).file)),
    },
    { method: 'PUT', path: `${base}/:fileId`, scope: 'files.write', handler: updateFile },
    { method: 'DELETE', path: `${base}/:fileId`, scope: 'files.write', handler: deleteFile },
    { method: 'GET', path: `${base}/:fileId/download`, scope: 'files.read', handler: downloadFile },
    { method: 'GET', path: `${base}/:fileId/view`, scope: 'files.read', handler: viewFile },
    { method: 'GET', path: `${base}/:fileId/preview`, scope: 'files.read', handler: previewFile },
  ];
}

/** Every route of the storage service. */
export function storageRoutes(): Route[] {
  return [...bucketRoutes(), ...fileRoutes()];
}
