import type { Backend } from '../../backend.ts';
import type { SessionRecord } from '../../core/auth/sessions.ts';
import type { MembershipRecord } from '../../core/auth/teams.ts';
import type { UserPatch, UserRecord } from '../../core/auth/users.ts';
import { ApiError } from '../../core/errors.ts';
import { userModel } from './models.ts';

/** The user events of a change (`users.[userId].<action>`). */
export type UserAction =
  | 'update.name'
  | 'update.email'
  | 'update.password'
  | 'update.status'
  | 'update.verification'
  | 'update.labels'
  | 'update.prefs';

/**
 * The Users service's store: accounts as API keys manage them (the Account service reuses it for
 * the caller's own account). Records live in core's `auth.users`; this adds the rules and events.
 */
export class UsersStore {
  private readonly backend: Backend;

  constructor(backend: Backend) {
    this.backend = backend;
  }

  private get auth() {
    return this.backend.auth;
  }

  /** The user `id`, or `user_not_found`. */
  get(id: string): UserRecord {
    const user = this.auth.users.get(id);
    if (!user) throw new ApiError('user_not_found');
    return user;
  }

  /** Users in creation order, optionally those whose name or email contains `search`. */
  list(search?: string): UserRecord[] {
    return this.auth.users.list(search);
  }

  /** Creates a user (the password is hashed) and publishes `users.[userId].create`. */
  async create(input: {
    id: string;
    email: string | null;
    phone?: string | null;
    password: string | null;
    name: string;
  }): Promise<UserRecord> {
    const user = this.auth.users.create({
      id: input.id,
      email: input.email,
      phone: input.phone ?? null,
      passwordHash: input.password ? await this.auth.users.hashPassword(input.password) : null,
      name: input.name,
    });
    this.publish(user, 'create');
    return user;
  }

  /** Changes a user; `action` names the event to publish (none: a change Appwrite does not announce). */
  update(id: string, patch: UserPatch, action: UserAction | null): UserRecord {
    const user = this.auth.users.update(id, patch);
    if (action) this.publish(user, action);
    return user;
  }

  /** Sets a new password (hashed). */
  async updatePassword(id: string, password: string): Promise<UserRecord> {
    const passwordHash = await this.auth.users.hashPassword(password);
    return this.update(id, { passwordHash }, 'update.password');
  }

  /**
   * Blocks or unblocks a user. As on Appwrite, a blocked user keeps their sessions: every request
   * made with one answers `user_blocked` (see `http/server.ts`), and realtime treats them as a
   * guest (their open sockets are told through `roles.changed`).
   */
  updateStatus(id: string, status: boolean): UserRecord {
    const user = this.auth.users.update(id, { status });
    this.auth.roles.changed(user.id);
    this.publish(user, 'update.status');
    return user;
  }

  /** Deletes a user with their sessions and memberships. */
  delete(user: UserRecord): void {
    this.auth.deleteUser(user.id);
    this.publish(user, 'delete');
  }

  /** A user's sessions, oldest first. */
  sessions(user: UserRecord): SessionRecord[] {
    return this.auth.sessions.list(user.id);
  }

  /** Creates a session for a user (as a server would, for its own use) with its cookie value. */
  createSession(
    user: UserRecord,
    meta: { ip: string; userAgent: string },
  ): { session: SessionRecord; cookieValue: string } {
    return this.auth.sessions.create(user.id, 'server', meta);
  }

  /** Deletes one of a user's sessions, or `user_session_not_found`. */
  deleteSession(user: UserRecord, sessionId: string): void {
    const session = this.auth.sessions.get(sessionId);
    if (!session || session.userId !== user.id) throw new ApiError('user_session_not_found');
    this.auth.sessions.delete(session.id);
  }

  /** Deletes every session of a user. */
  deleteSessions(user: UserRecord): void {
    this.auth.sessions.deleteAll(user.id);
  }

  /**
   * A JWT for a user: for `sessionId`, or for their latest session when it is `recent` or empty.
   * An unknown session is `user_session_not_found`.
   */
  createJwt(user: UserRecord, sessionId: string, durationMs: number): string {
    if (sessionId && sessionId !== 'recent' && !this.auth.sessions.get(sessionId))
      throw new ApiError('user_session_not_found');
    const latest = this.auth.sessions.list(user.id).at(-1);
    const id = sessionId === 'recent' || sessionId === '' ? (latest?.id ?? '') : sessionId;
    return this.auth.sessions.createJwt(user.id, id, durationMs);
  }

  /** A user's memberships in creation order. */
  memberships(user: UserRecord): MembershipRecord[] {
    return this.auth.teams.userMemberships(user.id);
  }

  private publish(user: UserRecord, action: UserAction | 'create' | 'delete'): void {
    this.backend.publish({ resource: 'user', action, userId: user.id, payload: userModel(user) });
  }
}
