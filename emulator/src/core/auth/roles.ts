import type { KeyRecord } from './keys.ts';
import type { SessionRecord } from './sessions.ts';
import type { MembershipRecord } from './teams.ts';
import type { UserRecord } from './users.ts';

/** Who is calling, with the roles permissions are checked against and the scopes they hold. */
export type Identity =
  | { kind: 'key'; key: KeyRecord; roles: ReadonlySet<string>; scopes: ReadonlySet<string> }
  | {
      kind: 'user';
      user: UserRecord;
      session: SessionRecord | null;
      roles: ReadonlySet<string>;
      scopes: ReadonlySet<string>;
    }
  | { kind: 'guest'; roles: ReadonlySet<string>; scopes: ReadonlySet<string> };

/** Scopes of callers without an API key (Appwrite's `app/config/roles.php`). */
export const GUEST_SCOPES: ReadonlySet<string> = new Set([
  'public',
  'global',
  'home',
  'sessions.write',
  'documents.read',
  'documents.write',
  'rows.read',
  'rows.write',
  'files.read',
  'files.write',
  'locale.read',
  'avatars.read',
  'execution.read',
  'execution.write',
]);

/** Scopes of signed-in users. */
export const USER_SCOPES: ReadonlySet<string> = new Set([
  ...GUEST_SCOPES,
  'account',
  'teams.read',
  'teams.write',
  'presences.read',
  'presences.write',
  'targets.read',
  'targets.write',
  'subscribers.read',
  'subscribers.write',
]);

/**
 * Appwrite's roles of users (`users`, `user:ID`, verified state, teams, team roles, memberships,
 * labels), cached per user until something changes them, and the identities callers take.
 */
export class Roles {
  private readonly memberships: (userId: string) => MembershipRecord[];
  private readonly cache = new Map<string, ReadonlySet<string>>();
  private readonly listeners = new Set<(userId: string) => void>();

  /** `memberships(userId)` reads a user's memberships. */
  constructor(memberships: (userId: string) => MembershipRecord[]) {
    this.memberships = memberships;
  }

  /** Appwrite's roles of a user: `users`, `user:ID` (+ verified state), teams, memberships, labels. */
  of(user: UserRecord): ReadonlySet<string> {
    const cached = this.cache.get(user.id);
    if (cached) return cached;
    const verified = user.emailVerification ? 'verified' : 'unverified';
    const roles = new Set<string>([
      'users',
      `user:${user.id}`,
      `user:${user.id}/${verified}`,
      `users/${verified}`,
    ]);
    for (const membership of this.memberships(user.id)) {
      if (!membership.confirm) continue;
      roles.add(`team:${membership.teamId}`);
      roles.add(`member:${membership.id}`);
      for (const role of membership.roles) roles.add(`team:${membership.teamId}/${role}`);
    }
    for (const label of user.labels) roles.add(`label:${label}`);
    this.cache.set(user.id, roles);
    return roles;
  }

  /** Calls `listener(userId)` whenever a user's roles change (memberships, labels, deletion). */
  onChanged(listener: (userId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forgets a user's cached roles and tells the listeners. */
  changed(userId: string): void {
    this.cache.delete(userId);
    for (const listener of this.listeners) listener(userId);
  }

  /** The identity of a user (for sessions and JWTs). */
  userIdentity(user: UserRecord, session: SessionRecord | null): Identity {
    return { kind: 'user', user, session, roles: this.of(user), scopes: USER_SCOPES };
  }

  /** The identity of a guest. */
  guestIdentity(): Identity {
    return { kind: 'guest', roles: new Set(['guests']), scopes: GUEST_SCOPES };
  }

  /** The identity of an API key. */
  keyIdentity(key: KeyRecord): Identity {
    return { kind: 'key', key, roles: new Set(), scopes: new Set(key.scopes) };
  }
}
