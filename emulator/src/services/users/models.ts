import type { UserRecord } from '../../core/auth/users.ts';

/** Appwrite's User model. */
export function userModel(user: UserRecord): Record<string, unknown> {
  return {
    $id: user.id,
    $createdAt: user.createdAt,
    $updatedAt: user.updatedAt,
    name: user.name,
    registration: user.registration,
    status: user.status,
    labels: user.labels,
    passwordUpdate: user.passwordUpdate,
    email: user.email,
    phone: user.phone,
    emailVerification: user.emailVerification,
    phoneVerification: false,
    mfa: false,
    prefs: user.prefs,
    targets: [],
    accessedAt: user.accessedAt,
  };
}
