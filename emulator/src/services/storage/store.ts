import type { Store } from '../../core/db.ts';
import { ApiError } from '../../core/errors.ts';
import type { BucketRecord } from './models.ts';

/** The Storage service's store: buckets (a bucket is one JSON row). */
export class StorageStore {
  private readonly store: Store;

  constructor(store: Store) {
    this.store = store;
    store.sql.exec(`CREATE TABLE IF NOT EXISTS buckets (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, data TEXT NOT NULL)`);
  }

  /** The bucket `id`, or `storage_bucket_not_found`. */
  bucket(id: string): BucketRecord {
    const row = this.store.prepare('SELECT data FROM buckets WHERE id = ?').get(id) as
      { data: string } | undefined;
    if (!row) throw new ApiError('storage_bucket_not_found');
    return JSON.parse(row.data) as BucketRecord;
  }

  /** Every bucket, oldest first. */
  listBuckets(): BucketRecord[] {
    const rows = this.store.prepare('SELECT data FROM buckets ORDER BY seq').all() as {
      data: string;
    }[];
    return rows.map((row) => JSON.parse(row.data) as BucketRecord);
  }

  /** Stores a new bucket (`storage_bucket_already_exists` for a taken id). */
  createBucket(bucket: BucketRecord): void {
    try {
      this.store
        .prepare('INSERT INTO buckets (id, data) VALUES (?, ?)')
        .run(bucket.id, JSON.stringify(bucket));
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('storage_bucket_already_exists');
      throw error;
    }
  }

  /** Stores a bucket's new settings. */
  saveBucket(bucket: BucketRecord): void {
    this.store
      .prepare('UPDATE buckets SET data = ? WHERE id = ?')
      .run(JSON.stringify(bucket), bucket.id);
  }

  deleteBucket(id: string): void {
    this.store.prepare('DELETE FROM buckets WHERE id = ?').run(id);
  }
}
