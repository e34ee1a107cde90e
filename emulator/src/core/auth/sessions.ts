import type { Store } from '../db.ts';
import { secret as randomSecret } from '../ids.ts';
import { formatDate, now } from '../time.ts';
import { expiresIn, hashSecret, type TokenSigner } from './tokens.ts';
import type { UserRecord, Users } from './users.ts';

/** Sessions last a year, like Appwrite's default auth duration. */
export const SESSION_DURATION_MS = 365 * 24 * 3600 * 1000;
/** JWTs last 15 minutes. */
export const JWT_DURATION_MS = 15 * 60 * 1000;

/** A stored session (its secret is kept only as a hash). */
export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: string;
  updatedAt: string;
  expire: string;
  provider: string;
  ip: string;
  userAgent: string;
}

/** A user with the session they authenticated with (none for a JWT made without one). */
export interface SignedIn {
  user: UserRecord;
  session: SessionRecord | null;
}

type Row = Record<string, unknown>;

function sessionFromRow(row: Row): SessionRecord {
  return {
    id: row.id as string,
    userId: row.user_id as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    expire: row.expire as string,
    provider: row.provider as string,
    ip: row.ip as string,
    userAgent: row.user_agent as string,
  };
}

/** Sessions (the cookie value is base64 of `{id, secret}`) and the JWTs made from them. */
export class Sessions {
  private readonly store: Store;
  private readonly users: Users;
  private readonly signer: TokenSigner;

  constructor(store: Store, users: Users, signer: TokenSigner) {
    this.store = store;
    this.users = users;
    this.signer = signer;
    store.sql.exec(`
      CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY, user_id TEXT NOT NULL, secret_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, expire TEXT NOT NULL,
        provider TEXT NOT NULL, ip TEXT NOT NULL DEFAULT '', user_agent TEXT NOT NULL DEFAULT '');
      CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
    `);
  }

  /** Creates a session; returns it with the cookie value (base64 of `{id, secret}`). */
  create(
    userId: string,
    provider: string,
    meta: { ip: string; userAgent: string },
  ): { session: SessionRecord; cookieValue: string } {
    const secretValue = randomSecret(32);
    const time = now();
    const id = randomSecret(10);
    const expire = formatDate(Date.now() + SESSION_DURATION_MS);
    this.store
      .prepare(
        `INSERT INTO sessions (id, user_id, secret_hash, created_at, updated_at, expire, provider, ip, user_agent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        userId,
        hashSecret(secretValue),
        time,
        time,
        expire,
        provider,
        meta.ip,
        meta.userAgent,
      );
    this.users.markAccessed(userId, time);
    const cookieValue = Buffer.from(JSON.stringify({ id: userId, secret: secretValue })).toString(
      'base64',
    );
    return { session: this.get(id)!, cookieValue };
  }

  get(id: string): SessionRecord | null {
    const row = this.store.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as
      Row | undefined;
    return row ? sessionFromRow(row) : null;
  }

  /** A user's sessions, oldest first. */
  list(userId: string): SessionRecord[] {
    const rows = this.store
      .prepare('SELECT * FROM sessions WHERE user_id = ? ORDER BY created_at')
      .all(userId) as Row[];
    return rows.map(sessionFromRow);
  }

  delete(id: string): void {
    this.store.prepare('DELETE FROM sessions WHERE id = ?').run(id);
  }

  /** Deletes every session of a user. */
  deleteAll(userId: string): void {
    this.store.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId);
  }

  /**
   * The user and session named by a session cookie value, or null when invalid or expired. A
   * blocked user (`status: false`) is returned too: the caller answers `user_blocked`.
   */
  resolve(cookieValue: string): { user: UserRecord; session: SessionRecord } | null {
    let decoded: { id?: unknown; secret?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(cookieValue, 'base64').toString('utf8')) as typeof decoded;
    } catch {
      return null;
    }
    if (typeof decoded.secret !== 'string' || typeof decoded.id !== 'string') return null;
    const row = this.store
      .prepare('SELECT * FROM sessions WHERE secret_hash = ?')
      .get(hashSecret(decoded.secret)) as Row | undefined;
    if (!row) return null;
    const session = sessionFromRow(row);
    if (session.userId !== decoded.id || Date.parse(session.expire) < Date.now()) return null;
    const user = this.users.get(session.userId);
    if (!user) return null;
    return { user, session };
  }

  /** A JWT for a user's session, valid for {@link JWT_DURATION_MS}. */
  createJwt(userId: string, sessionId: string, durationMs = JWT_DURATION_MS): string {
    return this.signer.sign({ userId, sessionId, exp: expiresIn(durationMs) });
  }

  /**
   * The user and session of a JWT, or null when invalid, expired, or its session is gone (a
   * blocked user is returned, as by {@link resolve}).
   */
  resolveJwt(token: string): SignedIn | null {
    const payload = this.signer.verify(token);
    if (!payload || typeof payload.userId !== 'string') return null;
    const user = this.users.get(payload.userId);
    if (!user) return null;
    const session = typeof payload.sessionId === 'string' ? this.get(payload.sessionId) : null;
    if (typeof payload.sessionId === 'string' && payload.sessionId !== '' && !session) return null;
    return { user, session };
  }
}
