import { formatPermissions, type Permission } from '../../core/permissions.ts';

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
