import { randomUUID } from 'node:crypto';
import { constants, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../../core/db.ts';
import type { Permission } from '../../core/permissions.ts';
import { formatDate } from '../../core/time.ts';
import { ApiError } from '../../core/errors.ts';
import type { BucketRecord, FileRecord } from './models.ts';

type Row = Record<string, unknown>;

function fileFromRow(row: Row): FileRecord {
  return {
    bucketId: row.bucket_id as string,
    id: row.id as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    permissions: JSON.parse(row.permissions as string) as Permission[],
    name: row.name as string,
    signature: row.signature as string,
    mimeType: row.mime_type as string,
    sizeOriginal: Number(row.size_original),
    sizeActual: Number(row.size_actual),
    chunksTotal: Number(row.chunks_total),
    chunks: row.chunks as string,
    complete: row.complete === 1,
  };
}

/** What a sweep removed. */
export interface SweepResult {
  /** Uploads left unfinished for longer than the time allowed (rows and bytes). */
  uploads: number;
  /** Bodies of single-request uploads that never finished. */
  temporary: number;
  /** Bytes on disk that no file record names (a crash between a write and its record). */
  orphans: number;
}

/**
 * Buckets and files: records in the backend's SQLite store, bytes on disk under
 * `<data>/storage/files/<bucketId>/<fileId>` (an unfinished chunked upload already at its final
 * path, each chunk written at its offset), single-request bodies first in `<data>/storage/tmp`.
 */
export class StorageRecords {
  private readonly store: Store;
  private readonly filesDir: string;
  private readonly tmpDir: string;
  /** Buckets whose folder of bytes was made (a `mkdir` per chunk is a trip through the thread pool). */
  private readonly preparedDirs = new Set<string>();

  constructor(store: Store, dataDir: string) {
    this.store = store;
    this.filesDir = join(dataDir, 'storage', 'files');
    this.tmpDir = join(dataDir, 'storage', 'tmp');
    mkdirSync(this.filesDir, { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
    store.sql.exec(`
      CREATE TABLE IF NOT EXISTS buckets (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS storage_files (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        bucket_id TEXT NOT NULL, id TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
        permissions TEXT NOT NULL, name TEXT NOT NULL,
        signature TEXT NOT NULL, mime_type TEXT NOT NULL,
        size_original INTEGER NOT NULL, size_actual INTEGER NOT NULL,
        chunks_total INTEGER NOT NULL, chunks TEXT NOT NULL, complete INTEGER NOT NULL,
        UNIQUE (bucket_id, id));
      CREATE INDEX IF NOT EXISTS storage_files_unfinished
        ON storage_files (complete, updated_at);
    `);
  }

  // Buckets

  getBucket(id: string): BucketRecord | null {
    const row = this.store.prepare('SELECT data FROM buckets WHERE id = ?').get(id) as
      { data: string } | undefined;
    return row ? (JSON.parse(row.data) as BucketRecord) : null;
  }

  listBuckets(): BucketRecord[] {
    const rows = this.store.prepare('SELECT data FROM buckets ORDER BY seq').all() as {
      data: string;
    }[];
    return rows.map((row) => JSON.parse(row.data) as BucketRecord);
  }

  insertBucket(bucket: BucketRecord): void {
    try {
      this.store
        .prepare('INSERT INTO buckets (id, data) VALUES (?, ?)')
        .run(bucket.id, JSON.stringify(bucket));
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('storage_bucket_already_exists');
      throw error;
    }
  }

  updateBucket(bucket: BucketRecord): void {
    this.store
      .prepare('UPDATE buckets SET data = ? WHERE id = ?')
      .run(JSON.stringify(bucket), bucket.id);
  }

  /** Deletes a bucket with its files; their bytes go once that is committed (in the background, as on Appwrite). */
  deleteBucket(id: string): void {
    this.store.transaction(() => {
      this.store.prepare('DELETE FROM storage_files WHERE bucket_id = ?').run(id);
      this.store.prepare('DELETE FROM buckets WHERE id = ?').run(id);
    });
    this.preparedDirs.delete(id);
    void this.removeAfterCommit(join(this.filesDir, id));
  }

  /** Bytes of a bucket's complete files. */
  totalSize(bucketId: string): number {
    const row = this.store
      .prepare(
        'SELECT COALESCE(SUM(size_actual), 0) AS total FROM storage_files WHERE bucket_id = ? AND complete = 1',
      )
      .get(bucketId) as { total: number };
    return Number(row.total);
  }

  // Files

  getFile(bucketId: string, id: string): FileRecord | null {
    const row = this.store
      .prepare('SELECT * FROM storage_files WHERE bucket_id = ? AND id = ?')
      .get(bucketId, id) as Row | undefined;
    return row ? fileFromRow(row) : null;
  }

  /** Every file of a bucket (finished or not), oldest first. */
  listFiles(bucketId: string): FileRecord[] {
    const rows = this.store
      .prepare('SELECT * FROM storage_files WHERE bucket_id = ? ORDER BY seq')
      .all(bucketId) as Row[];
    return rows.map(fileFromRow);
  }

  insertFile(file: FileRecord): void {
    try {
      this.store
        .prepare(
          `INSERT INTO storage_files (bucket_id, id, created_at, updated_at, permissions, name,
             signature, mime_type, size_original, size_actual, chunks_total, chunks, complete)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          file.bucketId,
          file.id,
          file.createdAt,
          file.updatedAt,
          JSON.stringify(file.permissions),
          file.name,
          file.signature,
          file.mimeType,
          file.sizeOriginal,
          file.sizeActual,
          file.chunksTotal,
          file.chunks,
          file.complete ? 1 : 0,
        );
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('storage_file_already_exists');
      throw error;
    }
  }

  updateFile(file: FileRecord): void {
    this.store
      .prepare(
        `UPDATE storage_files SET updated_at = ?, permissions = ?, name = ?, signature = ?,
           mime_type = ?, size_actual = ?, chunks = ?, complete = ?
         WHERE bucket_id = ? AND id = ?`,
      )
      .run(
        file.updatedAt,
        JSON.stringify(file.permissions),
        file.name,
        file.signature,
        file.mimeType,
        file.sizeActual,
        file.chunks,
        file.complete ? 1 : 0,
        file.bucketId,
        file.id,
      );
  }

  /** Deletes a file's record; its bytes go once that is committed (resolves then). */
  deleteFile(bucketId: string, id: string): Promise<void> {
    this.store
      .prepare('DELETE FROM storage_files WHERE bucket_id = ? AND id = ?')
      .run(bucketId, id);
    return this.removeAfterCommit(this.pathOf(bucketId, id));
  }

  /**
   * Removes `path` once the writes made so far are committed: bytes never go before the record
   * naming them, so a crash leaves at worst bytes without a record (swept at start), never a
   * record without its bytes.
   */
  private removeAfterCommit(path: string): Promise<void> {
    return new Promise((resolve) =>
      this.store.afterCommit((error) => {
        if (error !== null) return resolve();
        rm(path, { recursive: true, force: true }).then(resolve, (failure: unknown) => {
          console.error(`[backend] could not remove ${path}`, failure);
          resolve();
        });
      }),
    );
  }

  // Bytes

  /** Where a file's bytes live (ids are Appwrite ids: no `/`, never starting with `.`). */
  pathOf(bucketId: string, fileId: string): string {
    return join(this.filesDir, bucketId, fileId);
  }

  /** A fresh path for the body of a single-request upload. */
  temporaryPath(): string {
    return join(this.tmpDir, randomUUID());
  }

  /** Creates the bucket's folder of bytes (when it is not there; once per bucket while it lives). */
  async prepareBucketDir(bucketId: string): Promise<void> {
    if (this.preparedDirs.has(bucketId)) return;
    await mkdir(join(this.filesDir, bucketId), { recursive: true });
    this.preparedDirs.add(bucketId);
  }

  /**
   * Writes one chunk at its offset of the file's bytes (positional writes, no flush): once this
   * resolves the bytes are in the kernel's page cache, so a chunk recorded after it survives the
   * process being killed (`kill -9`). The disk flush is done once per upload, by
   * {@link flushFile} before the file is recorded complete — a flush per chunk made concurrent
   * chunks of one file wait on each other's flushes (`fdatasync` covers the whole file).
   */
  async writeChunk(path: string, start: number, data: Uint8Array): Promise<void> {
    const handle = await open(path, constants.O_RDWR | constants.O_CREAT, 0o600);
    try {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await handle.write(
          data,
          written,
          data.length - written,
          start + written,
        );
        written += bytesWritten;
      }
    } finally {
      await handle.close();
    }
  }

  /** Cuts a file's bytes past `size` (none normally: only bytes an earlier upload of its id left). */
  async truncateFile(path: string, size: number): Promise<void> {
    const handle = await open(path, constants.O_RDWR);
    try {
      if ((await handle.stat()).size > size) await handle.truncate(size);
    } finally {
      await handle.close();
    }
  }

  /** Flushes a file's bytes to the disk (`fdatasync`): done before an upload is recorded complete. */
  async flushFile(path: string): Promise<void> {
    const handle = await open(path, constants.O_RDONLY);
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  /**
   * Removes uploads unfinished since before `now - maxAgeMs` (records and bytes) and temporary
   * bodies as old (`onUploadRemoved` told of each upload removed); with `orphans` (at start,
   * before any request) also every temporary body, bytes that no record names and folders of
   * deleted buckets. The files are looked at before the first
   * `await`, so a start-up sweep is done with them before the server listens.
   */
  async sweep(
    now: number,
    maxAgeMs: number,
    orphans: boolean,
    onUploadRemoved: (bucketId: string, id: string) => void = () => {},
  ): Promise<SweepResult> {
    const result: SweepResult = { uploads: 0, temporary: 0, orphans: 0 };
    for (const name of readdirSync(this.tmpDir)) {
      const path = join(this.tmpDir, name);
      const modified = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? now;
      if (orphans || modified < now - maxAgeMs) {
        rmSync(path, { force: true });
        result.temporary++;
      }
    }
    if (orphans) {
      const known = this.store.prepare(
        'SELECT 1 FROM storage_files WHERE bucket_id = ? AND id = ?',
      );
      for (const bucketId of readdirSync(this.filesDir)) {
        const dir = join(this.filesDir, bucketId);
        if (!this.getBucket(bucketId)) {
          rmSync(dir, { recursive: true, force: true });
          continue;
        }
        for (const fileId of readdirSync(dir)) {
          if (known.get(bucketId, fileId)) continue;
          rmSync(join(dir, fileId), { force: true });
          result.orphans++;
        }
      }
    }
    const cutoff = formatDate(now - maxAgeMs);
    const stale = this.store
      .prepare('SELECT bucket_id, id FROM storage_files WHERE complete = 0 AND updated_at < ?')
      .all(cutoff) as { bucket_id: string; id: string }[];
    await Promise.all(
      stale.map(({ bucket_id: bucketId, id }) => {
        onUploadRemoved(bucketId, id);
        return this.deleteFile(bucketId, id);
      }),
    );
    result.uploads = stale.length;
    return result;
  }
}
