import { renameSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { Backend } from '../../backend.ts';
import { ApiError } from '../../core/errors.ts';
import { formatPermissions, type Permission } from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import {
  assertBucketVisible,
  assertFileAccess,
  assertMayCreate,
  assertMayGrant,
  fileGrants,
  fileReach,
  type StorageCaller,
} from './access.ts';
import {
  countChunks,
  emptyChunkSet,
  withChunk,
  type ChunkPosition,
  type ChunkSet,
} from './chunks.ts';
import { RunningDigests, type FileDigest } from './digests.ts';
import { assertExtensionAllowed, assertSizeAllowed, extensionOf } from './file-rules.ts';
import { detectMimeType } from './mime.ts';
import { bucketModel, fileModel, type BucketRecord, type FileRecord } from './models.ts';
import { defaultOutput, PREVIEW_INPUTS, PREVIEW_LIMIT } from './preview.ts';
import { StorageRecords, type SweepResult } from './records.ts';

/** A file being created: its id, the name the client gave and its permissions. */
export interface NewFile {
  id: string;
  name: string;
  permissions: Permission[];
}

/** A whole file's body, streamed to a temporary path (`path` null when its bytes were dropped). */
export interface SpooledFile extends FileDigest {
  path: string | null;
}

/** One chunk's bytes as received (`data` null when there were more than its range names). */
export interface ChunkBytes {
  data: Buffer | null;
  size: number;
}

/** A file after a chunk: `created` when the chunk was recorded, false when the file was already complete. */
export interface ChunkOutcome {
  file: FileRecord;
  created: boolean;
}

/**
 * The Storage service's store: buckets and files with Appwrite's rules (bucket and file
 * permissions, extensions, sizes, chunks), the uploads being finished, and the files' events.
 * Records and bytes are kept by {@link StorageRecords}.
 */
export class StorageStore {
  private readonly backend: Backend;
  private readonly records: StorageRecords;
  /** Uploads whose last chunk arrived and whose bytes are being checked, by `bucketId/fileId`. */
  private readonly finishing = new Map<string, Promise<unknown>>();
  private readonly digests = new RunningDigests();

  constructor(backend: Backend) {
    this.backend = backend;
    this.records = new StorageRecords(backend.store, backend.config.dataDir);
  }

  // Buckets

  /** The bucket `id`, or `storage_bucket_not_found`. */
  bucket(id: string): BucketRecord {
    const bucket = this.records.getBucket(id);
    if (!bucket) throw new ApiError('storage_bucket_not_found');
    return bucket;
  }

  /** Every bucket, oldest first. */
  listBuckets(): BucketRecord[] {
    return this.records.listBuckets();
  }

  /** Appwrite's Bucket model of a bucket (`totalSize`: the bytes of its complete files). */
  bucketModelOf(bucket: BucketRecord): Record<string, unknown> {
    return bucketModel(bucket, this.records.totalSize(bucket.id));
  }

  /** Stores a new bucket (`storage_bucket_already_exists` for a taken id). */
  createBucket(bucket: BucketRecord): void {
    this.records.insertBucket(bucket);
  }

  /** Stores a bucket's new settings. */
  saveBucket(bucket: BucketRecord): void {
    this.records.updateBucket(bucket);
  }

  /** Deletes a bucket and its files; their bytes go once that is committed. */
  deleteBucket(id: string): void {
    this.records.deleteBucket(id);
  }

  // Files

  /** The bucket `bucketId` as the caller sees it: missing, or disabled for a non-key, is `storage_bucket_not_found`. */
  visibleBucket(bucketId: string, caller: StorageCaller): BucketRecord {
    return assertBucketVisible(this.records.getBucket(bucketId), caller);
  }

  /** A file the caller may read (Appwrite's checks for get, view, download and preview), with its bucket. */
  readableFile(
    bucketId: string,
    fileId: string,
    caller: StorageCaller,
  ): { bucket: BucketRecord; file: FileRecord } {
    const bucket = this.visibleBucket(bucketId, caller);
    const reach = fileReach(bucket, caller, 'read');
    const file = this.records.getFile(bucket.id, fileId);
    if (!file) throw new ApiError('storage_file_not_found');
    assertFileAccess(reach, file.permissions, caller, 'read');
    return { bucket, file };
  }

  /** A complete file the caller may read, and where its bytes are (an unfinished upload has none yet). */
  readableBytes(
    bucketId: string,
    fileId: string,
    caller: StorageCaller,
  ): { bucket: BucketRecord; file: FileRecord; path: string } {
    const { bucket, file } = this.readableFile(bucketId, fileId, caller);
    if (!file.complete)
      throw new ApiError(
        'storage_file_not_found',
        'The file has no content yet: its upload is not finished.',
      );
    return { bucket, file, path: this.records.pathOf(bucket.id, file.id) };
  }

  /**
   * What a preview of a file is made from: its bytes when it is an image sharp reads (up to
   * Appwrite's preview limit), else null (a placeholder), and the output format it takes when
   * none is asked. Non-keys need the bucket's `transformations`.
   */
  async previewSource(
    bucketId: string,
    fileId: string,
    caller: StorageCaller,
  ): Promise<{ source: Buffer | null; defaultOutput: string }> {
    const bucket = this.visibleBucket(bucketId, caller);
    if (!bucket.transformations && !caller.isKey)
      throw new ApiError('storage_bucket_transformations_disabled');
    const { file, path } = this.readableBytes(bucket.id, fileId, caller);
    if (!PREVIEW_INPUTS.has(file.mimeType) || file.sizeActual > PREVIEW_LIMIT)
      return { source: null, defaultOutput: 'png' };
    return {
      source: await readFile(path),
      defaultOutput: defaultOutput(extensionOf(file.name), file.mimeType),
    };
  }

  /**
   * Every file of a bucket the caller may read (unfinished uploads too, as on Appwrite), oldest
   * first; `search` keeps those whose id or name contains it (case-insensitive).
   */
  listFiles(bucketId: string, caller: StorageCaller, search: string): FileRecord[] {
    const bucket = this.visibleBucket(bucketId, caller);
    const reach = fileReach(bucket, caller, 'read');
    const needle = search.toLowerCase();
    return this.records
      .listFiles(bucket.id)
      .filter((file) => reach === 'bucket' || fileGrants(file.permissions, caller, 'read'))
      .filter((file) => needle === '' || `${file.id} ${file.name}`.toLowerCase().includes(needle));
  }

  /**
   * Renames a file or sets its permissions (bucket `update`, or the file's with `fileSecurity`;
   * users may only grant roles they hold).
   */
  updateFile(
    bucketId: string,
    fileId: string,
    caller: StorageCaller,
    changes: { name?: string; permissions?: Permission[] },
  ): FileRecord {
    const bucket = this.visibleBucket(bucketId, caller);
    const reach = fileReach(bucket, caller, 'update');
    const file = this.records.getFile(bucket.id, fileId);
    if (!file) throw new ApiError('storage_file_not_found');
    if (changes.permissions) assertMayGrant(changes.permissions, caller);
    assertFileAccess(reach, file.permissions, caller, 'update');
    const updated: FileRecord = {
      ...file,
      name: changes.name ?? file.name,
      permissions: changes.permissions ?? file.permissions,
      updatedAt: now(),
    };
    this.records.updateFile(updated);
    this.publish(bucket, updated, 'update');
    return updated;
  }

  /** Deletes a file (an unfinished upload too); its bytes go once that is committed. */
  deleteFile(bucketId: string, fileId: string, caller: StorageCaller): void {
    const bucket = this.visibleBucket(bucketId, caller);
    const reach = fileReach(bucket, caller, 'delete');
    const file = this.records.getFile(bucket.id, fileId);
    if (!file) throw new ApiError('storage_file_not_found');
    assertFileAccess(reach, file.permissions, caller, 'delete');
    this.digests.drop(uploadKey(bucket.id, file.id));
    void this.records.deleteFile(bucket.id, file.id);
    this.publish(bucket, file, 'delete');
  }

  /** The bucket a caller uploads into: visible, and granting `create` (file permissions play no part). */
  uploadBucket(bucketId: string, caller: StorageCaller): BucketRecord {
    const bucket = this.visibleBucket(bucketId, caller);
    assertMayCreate(bucket, caller);
    return bucket;
  }

  /** A fresh path for the body of a single-request upload. */
  temporaryPath(): string {
    return this.records.temporaryPath();
  }

  /**
   * A whole file sent in one request (bucket rules: extension, then size): moved into place and
   * recorded as complete; fires its create event.
   */
  async createWholeFile(
    bucket: BucketRecord,
    upload: NewFile,
    body: SpooledFile,
  ): Promise<FileRecord> {
    assertExtensionAllowed(upload.name, bucket.allowedFileExtensions);
    assertSizeAllowed(body.size, bucket.maximumFileSize);
    const mimeType = await detectMimeType(body.sample);
    if (this.records.getFile(bucket.id, upload.id))
      throw new ApiError('storage_file_already_exists');
    const time = now();
    const file: FileRecord = {
      bucketId: bucket.id,
      id: upload.id,
      createdAt: time,
      updatedAt: time,
      permissions: upload.permissions,
      name: upload.name,
      signature: body.md5,
      mimeType,
      sizeOriginal: body.size,
      sizeActual: body.size,
      chunksTotal: 1,
      chunks: '1',
      complete: true,
    };
    this.records.prepareBucketDir(bucket.id);
    // Moved before its record is written (in the same turn): a crash in between leaves bytes
    // without a record, which the sweep at start removes.
    renameSync(body.path!, this.records.pathOf(bucket.id, upload.id));
    body.path = null;
    this.records.insertFile(file);
    this.publish(bucket, file, 'create');
    return file;
  }

  /**
   * One chunk of an upload (bucket rules on the whole size, then the chunk's length against its
   * range): written at its offset and flushed, then recorded. The chunk that completes the upload
   * checks the bytes (MD5, type), marks the file complete and fires its create event. A chunk of
   * a complete file changes nothing (`created: false`), as on Appwrite.
   */
  async writeChunk(
    bucket: BucketRecord,
    upload: NewFile,
    position: ChunkPosition,
    chunk: ChunkBytes,
  ): Promise<ChunkOutcome> {
    assertExtensionAllowed(upload.name, bucket.allowedFileExtensions);
    assertSizeAllowed(position.size, bucket.maximumFileSize);
    if (chunk.size !== position.length || !chunk.data) {
      throw new ApiError(
        'storage_invalid_content_range',
        `The content range is invalid: it names ${position.length} bytes but the chunk has ${chunk.size}.`,
      );
    }
    const { records } = this;
    const key = uploadKey(bucket.id, upload.id);
    await this.finishing.get(key)?.catch(() => {});
    let file = records.getFile(bucket.id, upload.id);
    if (file?.complete) return { file, created: false };
    if (file && file.sizeOriginal !== position.size) {
      throw new ApiError(
        'storage_invalid_content_range',
        `The content range is invalid: upload ${upload.id} is of ${file.sizeOriginal} bytes, not ${position.size}.`,
      );
    }
    if (!file) {
      const time = now();
      file = {
        bucketId: bucket.id,
        id: upload.id,
        createdAt: time,
        updatedAt: time,
        permissions: upload.permissions,
        name: upload.name,
        signature: '',
        mimeType: '',
        sizeOriginal: position.size,
        sizeActual: 0,
        chunksTotal: position.total,
        chunks: emptyChunkSet(position.total),
        complete: false,
      };
      records.insertFile(file);
    }
    records.prepareBucketDir(bucket.id);
    const path = records.pathOf(bucket.id, upload.id);
    await records.writeChunk(path, position.start, chunk.data);

    file = records.getFile(bucket.id, upload.id);
    if (!file) {
      // deleted while the chunk was being written
      await rm(path, { force: true });
      throw new ApiError('storage_file_not_found');
    }
    if (file.complete) return { file, created: false };
    const chunks = withChunk(file.chunks, position.index);
    this.digests.advance(key, path, chunks, position, chunk.data);
    if (countChunks(chunks) < file.chunksTotal) {
      file = { ...file, chunks, updatedAt: now() };
      records.updateFile(file);
      return { file, created: true };
    }
    const pending = this.finishing.get(key);
    if (pending) {
      await pending.catch(() => {});
      const done = records.getFile(bucket.id, upload.id);
      if (!done) throw new ApiError('storage_file_not_found');
      return { file: done, created: false };
    }
    const finishing = this.finishUpload(bucket, upload, chunks);
    this.finishing.set(key, finishing);
    try {
      return { file: await finishing, created: true };
    } finally {
      this.finishing.delete(key);
    }
  }

  /** Checks the complete bytes (MD5, type from the content) and records the file as complete. */
  private async finishUpload(
    bucket: BucketRecord,
    upload: NewFile,
    chunks: ChunkSet,
  ): Promise<FileRecord> {
    const { records } = this;
    const { md5, sample, size } = await this.digests.finish(
      uploadKey(bucket.id, upload.id),
      records.pathOf(bucket.id, upload.id),
    );
    const mimeType = await detectMimeType(sample);
    const current = records.getFile(bucket.id, upload.id);
    if (!current) throw new ApiError('storage_file_not_found');
    const file: FileRecord = {
      ...current,
      chunks,
      complete: true,
      signature: md5,
      mimeType,
      sizeActual: size,
      permissions: upload.permissions,
      updatedAt: now(),
    };
    records.updateFile(file);
    this.publish(bucket, file, 'create');
    return file;
  }

  /**
   * Removes uploads unfinished for longer than `maxAgeMs` and old temporary bodies; `atStart`
   * (before any request) also bytes without a record and folders of deleted buckets.
   */
  sweep(at: number, maxAgeMs: number, atStart: boolean): Promise<SweepResult> {
    return this.records.sweep(at, maxAgeMs, atStart);
  }

  /** `buckets.<b>.files.<f>.<action>` to the bucket's readers (and the file's with `fileSecurity`). */
  private publish(bucket: BucketRecord, file: FileRecord, action: 'create' | 'update' | 'delete') {
    this.backend.publish({
      resource: 'file',
      action,
      bucket,
      fileId: file.id,
      permissions: formatPermissions(file.permissions),
      payload: fileModel(file),
    });
  }
}

/** An upload's key in the maps of uploads in progress. */
function uploadKey(bucketId: string, fileId: string): string {
  return `${bucketId}/${fileId}`;
}
