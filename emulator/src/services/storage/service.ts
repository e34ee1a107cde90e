import type { Hash } from 'node:crypto';
import type { Backend } from '../../backend.ts';
import type { Identity } from '../../core/auth.ts';
import { generateEvents } from '../../core/events.ts';
import { readersOf, type StorageCaller } from './access.ts';
import { fileModel, type BucketRecord, type FileRecord } from './models.ts';
import { StorageStore } from './store.ts';

/** An upload's MD5 over its chunks 1 … `next - 1`, so finishing it does not read it all again. */
export interface RunningDigest {
  hash: Hash;
  /** The next chunk (from 1) to add. */
  next: number;
}

/** The storage service of a running backend: its store and the uploads being finished. */
export class StorageService {
  readonly backend: Backend;
  readonly store: StorageStore;
  /** Uploads whose last chunk arrived and whose bytes are being checked, by `bucketId/fileId`. */
  readonly finishing = new Map<string, Promise<unknown>>();
  /** MD5s of uploads in progress over their first chunks in order, by `bucketId/fileId` (lost on restart). */
  readonly digests = new Map<string, RunningDigest>();

  constructor(backend: Backend) {
    this.backend = backend;
    this.store = new StorageStore(backend.store, backend.config.dataDir);
  }

  /**
   * Publishes `buckets.<b>.files.<f>.<action>` (and Appwrite's other names of it) on the
   * `files`, `buckets.<b>.files` and `buckets.<b>.files.<f>` channels (plain and `.action`) to
   * the bucket's readers, plus the file's with `fileSecurity`; function triggers see it too.
   */
  publish(bucket: BucketRecord, file: FileRecord, action: 'create' | 'update' | 'delete'): void {
    const base = ['files', `buckets.${bucket.id}.files`, `buckets.${bucket.id}.files.${file.id}`];
    this.backend.bus.publish({
      events: generateEvents(`buckets.[bucketId].files.[fileId].${action}`, {
        bucketId: bucket.id,
        fileId: file.id,
      }),
      channels: [...base, ...base.map((channel) => `${channel}.${action}`)],
      roles: readersOf(bucket, file.permissions),
      payload: fileModel(file),
    });
  }
}

/** The caller as the storage rules see it. */
export function storageCaller(identity: Identity): StorageCaller {
  return { isKey: identity.kind === 'key', roles: new Set(['any', ...identity.roles]) };
}

/** The {@link StorageService} of a backend (created on first use). */
export function storageOf(backend: Backend): StorageService {
  let service = backend.services.get('storage') as StorageService | undefined;
  if (!service) {
    service = new StorageService(backend);
    backend.services.set('storage', service);
  }
  return service;
}
