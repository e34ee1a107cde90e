import type { Identity } from '../../core/auth/roles.ts';
import { ApiError } from '../../core/errors.ts';
import {
  assertCallerMaySet,
  isGranted,
  parsePermissions,
  rolesFor,
  type Permission,
} from '../../core/permissions.ts';

/**
 * Who asks: an API key (which bypasses bucket and file permissions) or a user or guest with
 * roles (`any` included).
 */
export interface StorageCaller {
  isKey: boolean;
  /** The signed-in user, if any. */
  userId: string | null;
  roles: ReadonlySet<string>;
}

/** The {@link StorageCaller} of an identity. */
export function storageCaller(identity: Identity): StorageCaller {
  return {
    isKey: identity.kind === 'key',
    userId: identity.kind === 'user' ? identity.user.id : null,
    roles: new Set(['any', ...identity.roles]),
  };
}

/** The permission types a file takes. */
export const FILE_PERMISSIONS = ['read', 'update', 'delete'] as const;

/**
 * A file's permissions from the `permissions` param: as sent (`write` expanded; users may only
 * grant roles they hold), or, when absent, the calling user's own (none for keys and guests).
 */
export function filePermissions(raw: unknown, caller: StorageCaller): Permission[] {
  if (raw === undefined || raw === null) {
    if (!caller.userId || caller.isKey) return [];
    return FILE_PERMISSIONS.map((type) => ({ type, role: `user:${caller.userId}` }));
  }
  const permissions = parsePermissions(raw, FILE_PERMISSIONS);
  assertMayGrant(permissions, caller);
  return permissions;
}

/** Users may only grant roles they hold (`user_unauthorized`); keys grant any. */
export function assertMayGrant(permissions: readonly Permission[], caller: StorageCaller): void {
  if (!caller.isKey)
    assertCallerMaySet(permissions, new Set([...caller.roles].filter((role) => role !== 'any')));
}

/** What of a bucket decides access to its files. */
export interface BucketRules {
  enabled: boolean;
  fileSecurity: boolean;
  permissions: readonly Permission[];
}

/** The file operations guarded by permissions. */
export type FileAction = 'read' | 'update' | 'delete';

/**
 * How a caller reaches a bucket's files for an action: `bucket` when the bucket grants it (or the
 * caller holds a key) — every file then; `file` when only files whose own permissions grant it
 * are reachable (the bucket has `fileSecurity` and does not grant it).
 */
export type FileReach = 'bucket' | 'file';

/** utopia-php/database's description of a refused action, which Appwrite sends as the message. */
export function refusal(action: string, roles: readonly string[], caller: StorageCaller): ApiError {
  if (roles.length === 0)
    return new ApiError('user_unauthorized', `No permissions provided for action '${action}'`);
  const json = (value: unknown) => JSON.stringify(value).replace(/\//g, '\\/');
  return new ApiError(
    'user_unauthorized',
    `Missing "${action}" permission for role "${roles[roles.length - 1]}". Only "${json([
      ...caller.roles,
    ])}" scopes are allowed and "${json(roles)}" was given.`,
  );
}

/** A missing bucket, or a disabled one asked for without a key, is `storage_bucket_not_found`. */
export function assertBucketVisible<B extends BucketRules>(
  bucket: B | null,
  caller: StorageCaller,
): B {
  if (!bucket || (!bucket.enabled && !caller.isKey)) throw new ApiError('storage_bucket_not_found');
  return bucket;
}

/** Creating files needs the bucket's `create` permission (file permissions play no part). */
export function assertMayCreate(bucket: BucketRules, caller: StorageCaller): void {
  if (caller.isKey) return;
  const roles = rolesFor(bucket.permissions, 'create');
  if (!isGranted(roles, caller.roles)) throw refusal('create', roles, caller);
}

/**
 * Appwrite's first check of read/update/delete: the bucket grants the action (or a key asks) →
 * `bucket`; else with `fileSecurity` → `file`; else `user_unauthorized`.
 */
export function fileReach(
  bucket: BucketRules,
  caller: StorageCaller,
  action: FileAction,
): FileReach {
  if (caller.isKey) return 'bucket';
  const roles = rolesFor(bucket.permissions, action);
  if (isGranted(roles, caller.roles)) return 'bucket';
  if (bucket.fileSecurity) return 'file';
  throw refusal(action, roles, caller);
}

/** Whether a file's own permissions grant `action` to the caller. */
export function fileGrants(
  permissions: readonly Permission[],
  caller: StorageCaller,
  action: FileAction,
): boolean {
  return isGranted(rolesFor(permissions, action), caller.roles);
}

/**
 * Whether the caller reaches one file for `action`. A file out of reach is answered as Appwrite
 * does: `storage_file_not_found` for reads (it is invisible), `user_unauthorized` for updates and
 * deletes (found first without permissions, then refused).
 */
export function assertFileAccess(
  reach: FileReach,
  permissions: readonly Permission[],
  caller: StorageCaller,
  action: FileAction,
): void {
  if (reach === 'bucket' || fileGrants(permissions, caller, action)) return;
  if (action === 'read') throw new ApiError('storage_file_not_found');
  throw refusal(action, rolesFor(permissions, action), caller);
}
