import { invalidParam } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import { parsePermissions } from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, integer, stringArray, text } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { bucketModel, type BucketRecord } from './models.ts';
import type { StorageStore } from './store.ts';

/** Appwrite's largest file size, 5 GB. */
const MAX_FILE_SIZE = 5_000_000_000;
const BUCKET_PERMISSIONS = ['read', 'create', 'update', 'delete'] as const;

function store(ctx: RequestContext): StorageStore {
  return ctx.backend.services.storage;
}

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
  const extensions = stringArray(ctx.input, 'allowedFileExtensions', { maxLength: 64 });
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
    allowedFileExtensions: extensions.map((extension) => extension.toLowerCase()),
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
  return created(bucketModel(bucket));
}

function listBuckets(ctx: RequestContext): Reply {
  const { total, page } = applyListQueries(
    store(ctx).listBuckets().map(bucketModel),
    ctx.input.queries,
    ['name', 'enabled'],
    'Bucket',
  );
  return ok({ total, buckets: page });
}

function getBucket(ctx: RequestContext): Reply {
  return ok(bucketModel(store(ctx).bucket(ctx.params.bucketId!)));
}

function updateBucket(ctx: RequestContext): Reply {
  const previous = store(ctx).bucket(ctx.params.bucketId!);
  const bucket: BucketRecord = { ...previous, ...readSettings(ctx, previous), updatedAt: now() };
  store(ctx).saveBucket(bucket);
  return ok(bucketModel(bucket));
}

function deleteBucket(ctx: RequestContext): Reply {
  store(ctx).deleteBucket(store(ctx).bucket(ctx.params.bucketId!).id);
  return noContent();
}

/** Storage buckets (API keys): create, list, get, update, delete. */
export const routes: readonly Route[] = [
  route('POST', '/storage/buckets', 'buckets.write', createBucket),
  route('GET', '/storage/buckets', 'buckets.read', listBuckets),
  route('GET', '/storage/buckets/:bucketId', 'buckets.read', getBucket),
  route('PUT', '/storage/buckets/:bucketId', 'buckets.write', updateBucket),
  route('DELETE', '/storage/buckets/:bucketId', 'buckets.write', deleteBucket),
];
