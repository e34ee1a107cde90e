import type { Backend, BackendModule } from '../../backend.ts';
import { resolveId } from '../../core/ids.ts';
import { formatPermissions, parsePermissions, type Permission } from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError, invalidParam } from '../../http/errors.ts';
import { parseSimpleListQueries } from '../../http/list-queries.ts';
import { bool, integer, stringArray, text } from '../../http/params.ts';
import { created, noContent, ok } from '../../http/reply.ts';

/** A stored bucket. */
export interface BucketRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  permissions: Permission[];
  fileSecurity: boolean;
  name: string;
  enabled: boolean;
  maximumFileSize: number;
  allowedFileExtensions: string[];
  compression: string;
  encryption: boolean;
  antivirus: boolean;
  transformations: boolean;
}

/** Appwrite's largest file size, 5 GB. */
const MAX_FILE_SIZE = 5_000_000_000;
const BUCKET_PERMISSIONS = ['read', 'create', 'update', 'delete'] as const;

/** Bucket storage shared with the files part of the Storage service. */
export class Buckets {
  private readonly backend: Backend;

  constructor(backend: Backend) {
    this.backend = backend;
    backend.store.sql.exec(`CREATE TABLE IF NOT EXISTS buckets (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, data TEXT NOT NULL)`);
  }

  get(id: string): BucketRecord | null {
    const row = this.backend.store.prepare('SELECT data FROM buckets WHERE id = ?').get(id) as
      { data: string } | undefined;
    return row ? (JSON.parse(row.data) as BucketRecord) : null;
  }

  list(): BucketRecord[] {
    const rows = this.backend.store.prepare('SELECT data FROM buckets ORDER BY seq').all() as {
      data: string;
    }[];
    return rows.map((row) => JSON.parse(row.data) as BucketRecord);
  }

  save(bucket: BucketRecord, isNew: boolean): void {
    if (isNew) {
      try {
        this.backend.store
          .prepare('INSERT INTO buckets (id, data) VALUES (?, ?)')
          .run(bucket.id, JSON.stringify(bucket));
      } catch (error) {
        if (String(error).includes('UNIQUE')) throw new ApiError('storage_bucket_already_exists');
        throw error;
      }
    } else {
      this.backend.store
        .prepare('UPDATE buckets SET data = ? WHERE id = ?')
        .run(JSON.stringify(bucket), bucket.id);
    }
  }

  delete(id: string): void {
    this.backend.store.prepare('DELETE FROM buckets WHERE id = ?').run(id);
  }
}

/** Appwrite's Bucket model. */
export function bucketModel(bucket: BucketRecord): Record<string, unknown> {
  return {
    $id: bucket.id,
    $createdAt: bucket.createdAt,
    $updatedAt: bucket.updatedAt,
    $permissions: formatPermissions(bucket.permissions),
    fileSecurity: bucket.fileSecurity,
    name: bucket.name,
    enabled: bucket.enabled,
    maximumFileSize: bucket.maximumFileSize,
    allowedFileExtensions: bucket.allowedFileExtensions,
    compression: bucket.compression,
    encryption: bucket.encryption,
    antivirus: bucket.antivirus,
    transformations: bucket.transformations,
    totalSize: 0,
  };
}

/** The shared {@link Buckets} of a backend. */
export function bucketsOf(backend: Backend): Buckets {
  let buckets = backend.services.get('buckets') as Buckets | undefined;
  if (!buckets) {
    buckets = new Buckets(backend);
    backend.services.set('buckets', buckets);
  }
  return buckets;
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

function findBucket(ctx: RequestContext): BucketRecord {
  const bucket = bucketsOf(ctx.backend).get(ctx.params.bucketId!);
  if (!bucket) throw new ApiError('storage_bucket_not_found');
  return bucket;
}

/** Storage buckets (API keys): create, list, get, update, delete. */
export const bucketsModule: BackendModule = {
  name: 'buckets',
  routes: (backend) => {
    bucketsOf(backend);
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
            ...readSettings(ctx, null),
          };
          bucketsOf(ctx.backend).save(bucket, true);
          return created(bucketModel(bucket));
        },
      },
      {
        method: 'GET',
        path: '/storage/buckets',
        scope: 'buckets.read',
        handler: (ctx) => {
          const query = parseSimpleListQueries(ctx.input.queries, ['name', 'enabled']);
          const all = bucketsOf(ctx.backend).list();
          return ok({
            total: all.length,
            buckets: all.slice(query.offset, query.offset + query.limit).map(bucketModel),
          });
        },
      },
      {
        method: 'GET',
        path: '/storage/buckets/:bucketId',
        scope: 'buckets.read',
        handler: (ctx) => ok(bucketModel(findBucket(ctx))),
      },
      {
        method: 'PUT',
        path: '/storage/buckets/:bucketId',
        scope: 'buckets.write',
        handler: (ctx) => {
          const previous = findBucket(ctx);
          const bucket: BucketRecord = {
            ...previous,
            ...readSettings(ctx, previous),
            updatedAt: now(),
          };
          bucketsOf(ctx.backend).save(bucket, false);
          return ok(bucketModel(bucket));
        },
      },
      {
        method: 'DELETE',
        path: '/storage/buckets/:bucketId',
        scope: 'buckets.write',
        handler: (ctx) => {
          bucketsOf(ctx.backend).delete(findBucket(ctx).id);
          return noContent();
        },
      },
    ];
  },
};
