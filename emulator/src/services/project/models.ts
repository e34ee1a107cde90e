import type { ProjectKeyRecord } from '../../core/auth/keys.ts';

/** Appwrite's Key model (a key just created has not been used: no `accessedAt`). */
export function keyModel(
  key: Omit<ProjectKeyRecord, 'accessedAt'> & { accessedAt?: string },
): Record<string, unknown> {
  return {
    $id: key.id,
    $createdAt: key.createdAt,
    $updatedAt: key.updatedAt,
    name: key.name,
    expire: key.expire ?? '',
    scopes: key.scopes,
    secret: key.secret,
    accessedAt: key.accessedAt ?? '',
    sdks: [],
  };
}
