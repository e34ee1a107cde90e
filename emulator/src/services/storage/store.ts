import { readFile, rename, rm } from 'node:fs/promises';
import type { Backend } from '../../backend.ts';
import { ApiError } from '../../core/errors.ts';
import { Limiter } from '../../core/limiter.ts';
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
import { EarlyFlushes } from './early-flush.ts';
import { UploadTimings } from './timings.ts';
import {
  assertExtensionAllowed,
  assertSizeAllowed,
  extensionOf,
  isExtensionAllowed,
} from './file-rules.ts';
import { detectMimeType } from './mime.ts';
import { bucketModel, fileModel, type BucketRecord, type FileRecord } from './models.ts';
import { defaultOutput, PREVIEW_INPUTS, PREVIEW_LIMIT } from './preview.ts';
import { StorageRecords, type SweepResult } from './records.ts';
import type { ChunkPlacement } from './upload.ts';

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

/**
 * One chunk's bytes as received: `size` counts them all; `streamed` when they were written to
 * their place as they came (`recorded` when the upload had a record as the chunk began), else
 * `data` when kept in memory (null when dropped, or more than its range names).
 */
export interface ChunkBytes {
  size: number;
  data: Buffer | null;
  streamed: { recorded: boolean } | null;
}

/** The chunks of one upload being written as they stream in. */
interface UploadWriters {
  active: number;
  /** Runs their writes, two at a time (more would only wait on the file's lock in the thread pool). */
  limiter: Limiter;
  /** Called once no chunk is being written any more. */
  idle: (() => void)[];
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
  /** Single-request uploads whose bytes are being moved into place, by `bucketId/fileId`. */
  private readonly placing = new Set<string>();
  /** Uploads with chunks being written as they stream in, by `bucketId/fileId`. */
  private readonly writers = new Map<string, UploadWriters>();
  /**
   * Removals of deleted or refused uploads' bytes under way, by `bucketId/fileId`: a new upload
   * of that id writes its bytes once its path is free (else the removal takes them).
   */
  private readonly removals = new Map<string, Promise<void>>();
  /** Flushes of uploads' files started while their chunks come in. */
  private readonly flushes: EarlyFlushes;
  /** Where uploads' time goes (the test switch `GET /_emulator/storage/timings`). */
  readonly timings = new UploadTimings();

  constructor(backend: Backend) {
    this.backend = backend;
    this.records = new StorageRecords(backend.store, backend.config.dataDir);
    this.flushes = new EarlyFlushes((path) => this.records.flushFile(path));
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
    const key = uploadKey(bucket.id, file.id);
    this.digests.drop(key);
    this.flushes.forget(key);
    void this.removing(key, this.records.deleteFile(bucket.id, file.id));
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
    const key = uploadKey(bucket.id, upload.id);
    if (this.records.getFile(bucket.id, upload.id) || this.placing.has(key))
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
    // the id is held while the bytes move, so a second upload of it cannot move its own over them
    this.placing.add(key);
    try {
      await this.removals.get(key);
      await this.records.prepareBucketDir(bucket.id);
      // Moved before its record is written: a crash in between leaves bytes without a record,
      // which the sweep at start removes.
      await rename(body.path!, this.records.pathOf(bucket.id, upload.id));
      body.path = null;
      this.records.insertFile(file);
    } finally {
      this.placing.delete(key);
    }
    this.publish(bucket, file, 'create');
    return file;
  }

  /**
   * Where chunk `position` of `upload` goes, decided as its file part starts: straight to its
   * offset in the upload's file unless the request is bound to be refused (extension, size) or
   * changes nothing (the file is complete, or of another size) — then its bytes are only counted
   * and {@link writeChunk} answers. A chunk waits for an upload being finished.
   */
  async placeChunk(
    bucket: BucketRecord,
    upload: { id: string; name: string },
    position: ChunkPosition,
  ): Promise<ChunkPlacement> {
    if (!isExtensionAllowed(upload.name, bucket.allowedFileExtensions)) return { kind: 'drop' };
    if (position.size > bucket.maximumFileSize) return { kind: 'drop' };
    const key = uploadKey(bucket.id, upload.id);
    await this.records.prepareBucketDir(bucket.id);
    for (;;) {
      const waiting = this.finishing.get(key)?.catch(() => {}) ?? this.removals.get(key);
      if (!waiting) break;
      await waiting;
    }
    const file = this.records.getFile(bucket.id, upload.id);
    if (file && (file.complete || file.sizeOriginal !== position.size)) return { kind: 'drop' };
    const writers = this.writers.get(key) ?? newWriters();
    this.writers.set(key, writers);
    writers.active++;
    let released = false;
    return {
      kind: 'stream',
      path: this.records.pathOf(bucket.id, upload.id),
      start: position.start,
      length: position.length,
      limiter: writers.limiter,
      recorded: file !== null,
      release: () => {
        if (released) return;
        released = true;
        writers.active--;
        if (writers.active > 0) return;
        for (const done of writers.idle.splice(0)) done();
        if (this.writers.get(key) === writers) this.writers.delete(key);
      },
    };
  }

  /**
   * After a chunk written by {@link placeChunk} was refused: when its upload has no record (it was
   * its first chunk) and no other chunk of it is being written, its bytes are removed, so a
   * refused request leaves nothing behind.
   */
  async abandonChunk(bucketId: string, fileId: string): Promise<void> {
    const key = uploadKey(bucketId, fileId);
    if (this.records.getFile(bucketId, fileId) || (this.writers.get(key)?.active ?? 0) > 0) return;
    await (this.removals.get(key) ??
      this.removing(key, rm(this.records.pathOf(bucketId, fileId), { force: true })));
  }

  /** Holds the upload id `key` until `removal` of its bytes has ended (a failure is logged). */
  private removing(key: string, removal: Promise<void>): Promise<void> {
    const held: Promise<void> = removal
      .catch((error: unknown) => console.error(`[storage] could not remove ${key}`, error))
      .finally(() => {
        if (this.removals.get(key) === held) this.removals.delete(key);
      });
    this.removals.set(key, held);
    return held;
  }

  /**
   * Records one chunk of an upload (bucket rules on the whole size, then the chunk's length
   * against its range), its bytes already written at their offset by {@link placeChunk} (or
   * written now when they were kept in memory) — in the page cache, so a chunk recorded after
   * it survives `kill -9`. The chunk that completes the upload checks the bytes (MD5, type),
   * marks the file complete and fires its create event. A chunk of a complete file changes
   * nothing (`created: false`), as on Appwrite.
   */
  async writeChunk(
    bucket: BucketRecord,
    upload: NewFile,
    position: ChunkPosition,
    chunk: ChunkBytes,
  ): Promise<ChunkOutcome> {
    assertExtensionAllowed(upload.name, bucket.allowedFileExtensions);
    assertSizeAllowed(position.size, bucket.maximumFileSize);
    if (chunk.size !== position.length) {
      throw new ApiError(
        'storage_invalid_content_range',
        `The content range is invalid: it names ${position.length} bytes but the chunk has ${chunk.size}.`,
      );
    }
    const { records } = this;
    const key = uploadKey(bucket.id, upload.id);
    await this.finishing.get(key)?.catch(() => {});
    await this.removals.get(key);
    let file = records.getFile(bucket.id, upload.id);
    if (file?.complete) return { file, created: false };
    if (file && file.sizeOriginal !== position.size) {
      throw new ApiError(
        'storage_invalid_content_range',
        `The content range is invalid: upload ${upload.id} is of ${file.sizeOriginal} bytes, not ${position.size}.`,
      );
    }
    if ((!chunk.streamed && !chunk.data) || (chunk.streamed?.recorded && !file)) {
      // placed while the file was complete, or streamed into it, and deleted meanwhile
      throw new ApiError('storage_file_not_found');
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
    const path = records.pathOf(bucket.id, upload.id);
    if (chunk.data) {
      await records.prepareBucketDir(bucket.id);
      await records.writeChunk(path, position.start, chunk.data);
      file = records.getFile(bucket.id, upload.id);
      if (!file) {
        // deleted while the chunk was being written
        await rm(path, { force: true });
        throw new ApiError('storage_file_not_found');
      }
      if (file.complete) return { file, created: false };
    }
    const chunks = withChunk(file.chunks, position.index);
    this.digests.commit(key, position.index, path, chunks, position.size);
    if (countChunks(chunks) < file.chunksTotal) {
      file = { ...file, chunks, updatedAt: now() };
      records.updateFile(file);
      this.flushes.recorded(key, path, position.length);
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

  /** Resolves once no chunk of the upload `key` is being written. */
  private writersDone(key: string): Promise<void> {
    const writers = this.writers.get(key);
    if (!writers || writers.active === 0) return Promise.resolve();
    return new Promise((resolve) => writers.idle.push(resolve));
  }

  /** Checks the complete bytes (MD5, type from the content) and records the file as complete. */
  private async finishUpload(
    bucket: BucketRecord,
    upload: NewFile,
    chunks: ChunkSet,
  ): Promise<FileRecord> {
    const { records } = this;
    const path = records.pathOf(bucket.id, upload.id);
    const key = uploadKey(bucket.id, upload.id);
    const started = performance.now();
    // a chunk sent again may still be writing its (same) bytes: the file is checked once it is not
    await this.writersDone(key);
    const written = performance.now();
    const recorded = records.getFile(bucket.id, upload.id);
    if (!recorded) throw new ApiError('storage_file_not_found');
    // bytes past the end (left by an earlier upload of that id) are cut before the file is read
    await records.truncateFile(path, recorded.sizeOriginal);
    const truncated = performance.now();
    const since = () => performance.now() - truncated;
    const digest = this.digests.finish(key, path, recorded.sizeOriginal);
    // the flush that counts, before the file is recorded complete (chunks are acknowledged once
    // in the page cache; flushes started every 32 MiB left it only the last few to write)
    const flush = records.flushFile(path);
    const [{ md5, sample, size }, md5Wait, flushWait] = await Promise.all([
      digest,
      digest.then(since),
      flush.then(since),
    ]);
    this.flushes.forget(key);
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
    this.timings.finish({
      writers: written - started,
      truncate: truncated - written,
      md5: md5Wait,
      flush: flushWait,
      total: performance.now() - started,
    });
    this.publish(bucket, file, 'create');
    return file;
  }

  /** Stops what runs beside the requests (the MD5 worker): the backend closes. */
  close(): Promise<void> {
    return this.digests.close();
  }

  /**
   * Removes uploads unfinished for longer than `maxAgeMs` and old temporary bodies; `atStart`
   * (before any request) also bytes without a record and folders of deleted buckets.
   */
  sweep(at: number, maxAgeMs: number, atStart: boolean): Promise<SweepResult> {
    return this.records.sweep(at, maxAgeMs, atStart, (bucketId, fileId) => {
      this.digests.drop(uploadKey(bucketId, fileId));
      this.flushes.forget(uploadKey(bucketId, fileId));
    });
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

/** Writes of one upload's file in libuv's thread pool at once. */
const WRITES_PER_FILE = 2;

function newWriters(): UploadWriters {
  return { active: 0, limiter: new Limiter(WRITES_PER_FILE), idle: [] };
}

/** An upload's key in the maps of uploads in progress. */
function uploadKey(bucketId: string, fileId: string): string {
  return `${bucketId}/${fileId}`;
}
