import type { Backend } from '../../backend.ts';
import type { SessionRecord } from '../../core/auth/sessions.ts';
import type { UserRecord } from '../../core/auth/users.ts';
import { ApiError } from '../../core/errors.ts';
import { uniqueId } from '../../core/ids.ts';
import { sessionModel } from './models.ts';

/** Where a session is opened from (its request's address and client). */
export interface SessionOrigin {
  ip: string;
  userAgent: string;
}

/** A session just opened, with its cookie value and its model. */
export interface OpenedSession {
  session: SessionRecord;
  cookieValue: string;
  model: Record<string, unknown>;
}

/**
 * The Account service's store: what a caller does with their own account — sign up, sign in with
 * email and password or anonymously, sessions, JWTs. Changes to the user go through the Users
 * service's store.
 */
export class AccountStore {
  private readonly backend: Backend;

  constructor(backend: Backend) {
    this.backend = backend;
  }

  private get auth() {
    return this.backend.auth;
  }

  /** Creates an account with email and password (publishes `users.[userId].create`). */
  signUp(input: {
    id: string;
    email: string;
    password: string;
    name: string;
  }): Promise<UserRecord> {
    return this.backend.services.users.create(input);
  }

  /** The user of an email and password: `user_invalid_credentials`, or `user_blocked`. */
  async checkCredentials(email: string, password: string): Promise<UserRecord> {
    const user = this.auth.users.getByEmail(email);
    if (!user || !(await this.auth.users.verifyPassword(user, password)))
      throw new ApiError('user_invalid_credentials');
    if (!user.status) throw new ApiError('user_blocked');
    return user;
  }

  /** A new user without email or password, for an anonymous session. */
  createAnonymousUser(): UserRecord {
    return this.auth.users.create({ id: uniqueId(), email: null, passwordHash: null, name: '' });
  }

  /**
   * Opens a session for `user` and publishes `users.[userId].sessions.[sessionId].create`. Its
   * model reveals the session's secret only when `revealSecret` (an API key asked).
   */
  openSession(
    user: UserRecord,
    provider: 'email' | 'anonymous',
    origin: SessionOrigin,
    revealSecret: boolean,
  ): OpenedSession {
    const { session, cookieValue } = this.auth.sessions.create(user.id, provider, origin);
    const model = sessionModel(session, {
      current: true,
      providerUid: provider === 'email' ? user.email : '',
      ...(revealSecret ? { secret: cookieValue } : {}),
    });
    this.publishSession(session, 'create', model);
    return { session, cookieValue, model };
  }

  /** Changes the user's password; one is set already, `oldPassword` must match it. */
  async updatePassword(
    user: UserRecord,
    password: string,
    oldPassword: string,
  ): Promise<UserRecord> {
    if (user.passwordHash && !(await this.auth.users.verifyPassword(user, oldPassword)))
      throw new ApiError('user_invalid_credentials');
    const passwordHash = await this.auth.users.hashPassword(password);
    return this.backend.services.users.update(user.id, { passwordHash }, null);
  }

  /** The user's sessions, oldest first. */
  sessions(user: UserRecord): SessionRecord[] {
    return this.auth.sessions.list(user.id);
  }

  /** One of the user's sessions (`current`: the one in use), or `user_session_not_found`. */
  session(user: UserRecord, current: SessionRecord | null, sessionId: string): SessionRecord {
    const id = sessionId === 'current' ? current?.id : sessionId;
    const session = id ? this.auth.sessions.get(id) : null;
    if (!session || session.userId !== user.id) throw new ApiError('user_session_not_found');
    return session;
  }

  /** Deletes a session (publishes `…sessions.[sessionId].delete`). */
  deleteSession(session: SessionRecord, isCurrent: boolean): void {
    this.auth.sessions.delete(session.id);
    this.publishSession(session, 'delete', sessionModel(session, { current: isCurrent }));
  }

  /** Deletes every session of the user, one event each. */
  deleteSessions(user: UserRecord): void {
    for (const session of this.auth.sessions.list(user.id)) this.deleteSession(session, false);
  }

  /** A JWT for the user's session. */
  createJwt(user: UserRecord, session: SessionRecord | null): string {
    return this.auth.sessions.createJwt(user.id, session?.id ?? '');
  }

  private publishSession(
    session: SessionRecord,
    action: 'create' | 'delete',
    payload: Record<string, unknown>,
  ): void {
    this.backend.publish({
      resource: 'session',
      action,
      userId: session.userId,
      sessionId: session.id,
      payload,
    });
  }
}
