import { ApiError, invalidParam } from './errors.ts';

/** A permission type as stored; `write` is expanded on input. */
export type PermissionType = 'read' | 'create' | 'update' | 'delete';

/** One parsed permission: a type and a role string such as `team:desk/staff`. */
export interface Permission {
  type: PermissionType;
  role: string;
}

const PERMISSION = /^(read|create|update|delete|write)\("([^"]+)"\)$/;
const ROLE =
  /^(any|guests|users(\/(verified|unverified))?|user:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}(\/(verified|unverified))?|team:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}(\/[a-zA-Z0-9._-]{1,81})?|member:[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}|label:[a-zA-Z0-9]{1,36})$/;

/**
 * Parses and normalizes permission strings: validates syntax and roles, expands `write`
 * into the allowed types and removes duplicates. `allowed` lists the types the resource
 * supports (documents: read, update, delete; collections also create).
 */
export function parsePermissions(
  value: unknown,
  allowed: readonly PermissionType[],
  param = 'permissions',
): Permission[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw invalidParam(param, 'Value must a valid array and Permission string must be valid');
  if (value.length > 100)
    throw invalidParam(
      param,
      'Value must be a valid array no longer than 100 items and Permission string must be valid',
    );
  const seen = new Set<string>();
  const out: Permission[] = [];
  for (const item of value) {
    const match = typeof item === 'string' ? PERMISSION.exec(item) : null;
    if (!match) {
      throw invalidParam(
        param,
        `Permission "${String(item)}" is not allowed. Must be one of: ${allowed.join(', ')}.`,
      );
    }
    const [, rawType, role] = match as unknown as [string, string, string];
    if (!ROLE.test(role)) {
      throw invalidParam(
        param,
        `Role "${role}" is not allowed. Must be one of: any, guests, users, user, team, member, label.`,
      );
    }
    const types: PermissionType[] =
      rawType === 'write' ? allowed.filter((type) => type !== 'read') : [rawType as PermissionType];
    for (const type of types) {
      if (!allowed.includes(type)) {
        throw invalidParam(
          param,
          `Permission "${item as string}" is not allowed. Must be one of: ${allowed.join(', ')}.`,
        );
      }
      const key = `${type}("${role}")`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ type, role });
      }
    }
  }
  return out;
}

/** Formats permissions as Appwrite returns them: `read("any")`. */
export function formatPermissions(permissions: readonly Permission[]): string[] {
  return permissions.map((p) => `${p.type}("${p.role}")`);
}

/** The roles granted `type` by `permissions`. */
export function rolesFor(permissions: readonly Permission[], type: PermissionType): string[] {
  const roles: string[] = [];
  for (const p of permissions) if (p.type === type) roles.push(p.role);
  return roles;
}

const FORMATTED = /^(read|create|update|delete)\("(.+)"\)$/;

/** The roles that formatted permissions (`read("user:u1")`, as stored and returned) grant `type`. */
export function rolesIn(permissions: readonly string[], type: PermissionType): string[] {
  const roles: string[] = [];
  for (const permission of permissions) {
    const match = FORMATTED.exec(permission);
    if (match && match[1] === type) roles.push(match[2]!);
  }
  return roles;
}

/** Whether a caller holding `callerRoles` is granted by any of `grantedRoles` (`any` grants all). */
export function isGranted(
  grantedRoles: readonly string[],
  callerRoles: ReadonlySet<string>,
): boolean {
  for (const role of grantedRoles) if (role === 'any' || callerRoles.has(role)) return true;
  return false;
}

/**
 * Appwrite's rule for permissions set by a non-privileged caller: each role must be one
 * the caller holds (`any` included), otherwise `user_unauthorized`.
 */
export function assertCallerMaySet(
  permissions: readonly Permission[],
  callerRoles: ReadonlySet<string>,
): void {
  for (const p of permissions) {
    if (p.role !== 'any' && !callerRoles.has(p.role)) {
      throw new ApiError(
        'user_unauthorized',
        `Permissions must be one of: (${['any', ...callerRoles].join(', ')})`,
      );
    }
  }
}
