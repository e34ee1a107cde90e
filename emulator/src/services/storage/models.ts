import { formatPermissions, type Permission } from '../../core/permissions.ts';
import { countChunks, type ChunkSet } from './chunks.ts';

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

/**
 * A stored file. An upload in chunks exists from its first chunk on, `complete` only once every
 * chunk arrived and its bytes were checked (signature, type); its bytes live at one path from the
 * first chunk on, each chunk written at its offset.
 */
export interface FileRecord {
  bucketId: string;
  id: string;
  createdAt: string;
  updatedAt: string;
  permissions: Permission[];
  name: string;
  /** MD5 of the content, hex ('' until complete). */
  signature: string;
  mimeType: string;
  sizeOriginal: number;
  sizeActual: number;
  chunksTotal: number;
  /** The chunks received (all of them once complete). */
  chunks: ChunkSet;
  complete: boolean;
}

/** Appwrite's Bucket model; `totalSize` is the bytes of its complete files. */
export function bucketModel(bucket: BucketRecord, totalSize: number): Record<string, unknown> {
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
    totalSize,
  };
}

/**
 * Appwrite 1.9's File model (the pinned SDKs' `Models.File`). The local backend stores bytes as
 * sent, so `encryption` is false and `compression` is `none` whatever the bucket asks, as
 * Appwrite reports for files it did not encrypt or compress (it skips both above 20 MB).
 */
export function fileModel(file: FileRecord): Record<string, unknown> {
  return {
    $id: file.id,
    bucketId: file.bucketId,
    $createdAt: file.createdAt,
    $updatedAt: file.updatedAt,
    $permissions: formatPermissions(file.permissions),
    name: file.name,
    signature: file.signature,
    mimeType: file.mimeType,
    sizeOriginal: file.sizeOriginal,
    sizeActual: file.sizeActual,
    chunksTotal: file.chunksTotal,
    chunksUploaded: file.complete ? file.chunksTotal : countChunks(file.chunks),
    encryption: false,
    compression: 'none',
  };
}
