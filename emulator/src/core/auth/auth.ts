import {
  createHash,
  createHmac,
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';
import { ApiError } from '../http/errors.ts';
import type { Store } from './db.ts';
import { secret as randomSecret } from './ids.ts';
import { formatDate, now } from './time.ts';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;

/** Sessions last a year, like Appwrite's default auth duration. */
export const SESSION_DURATION_MS = 365 * 24 * 3600 * 1000;
/** JWTs last 15 minutes. */
export const JWT_DURATION_MS = 15 * 60 * 1000;

/** A stored user. */
export interface UserRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  email: string;
  phone: string;
  passwordHash: string | null;
  passwordUpdate: string;
  registration: string;
  status: boolean;
  labels: string[];
  prefs: Record<string, unknown>;
  emailVerification: boolean;
  accessedAt: string;
}

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

/** A stored team. */
export interface TeamRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  name: string;
  prefs: Record<string, unknown>;
}

/** A stored membership of a user in a team. */
export interface MembershipRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  teamId: string;
  userId: string;
  roles: string[];
  invited: string;
  joined: string;
  confirm: boolean;
}

/** An API key: the bootstrap key, a project key, or a short-lived dynamic key. */
export interface KeyRecord {
  id: string;
  name: string;
  scopes: string[];
  expire: string | null;
}

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

type Row = Record<string, unknown>;

function userFromRow(row: Row): UserRecord {
  return {
    id: row.id as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    name: row.name as string,
    email: (row.email as string | null) ?? '',
    phone: (row.phone as string | null) ?? '',
    passwordHash: row.password_hash as string | null,
    passwordUpdate: (row.password_update as string | null) ?? '',
    registration: row.registration as string,
    status: row.status === 1,
    labels: JSON.parse(row.labels as string) as string[],
    prefs: JSON.parse(row.prefs as string) as Record<string, unknown>,
    emailVerification: row.email_verification === 1,
    accessedAt: (row.accessed_at as string | null) ?? '',
  };
}

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

function teamFromRow(row: Row): TeamRecord {
  return {
    id: row.id as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    name: row.name as string,
    prefs: JSON.parse(row.prefs as string) as Record<string, unknown>,
  };
}

function membershipFromRow(row: Row): MembershipRecord {
  return {
    id: row.id as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    teamId: row.team_id as string,
    userId: row.user_id as string,
    roles: JSON.parse(row.roles as string) as string[],
    invited: row.invited as string,
    joined: (row.joined as string | null) ?? '',
    confirm: row.confirm === 1,
  };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/**
 * Accounts, sessions, JWTs, API keys, teams and memberships, and the roles they give.
 * Every other service asks this one who a caller is.
 */
export class Auth {
  private readonly store: Store;
  private readonly projectId: string;
  private readonly bootstrapKey: KeyRecord & { secret: string };
  private readonly signingSecret: string;
  private readonly roleCache = new Map<string, ReadonlySet<string>>();
  /** Dynamic keys already verified (a function execution sends its key with every request). */
  private readonly verifiedKeys = new Map<string, KeyRecord & { exp: number }>();
  private readonly roleListeners = new Set<(userId: string) => void>();

  constructor(store: Store, projectId: string, apiKey: string) {
    this.store = store;
    this.projectId = projectId;
    this.bootstrapKey = {
      id: 'bootstrap',
      name: 'Bootstrap key',
      scopes: ['*'],
      expire: null,
      secret: apiKey,
    };
    store.sql.exec(`
      CREATE TABLE IF NOT EXISTS users (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
        email TEXT UNIQUE, phone TEXT, password_hash TEXT, password_update TEXT,
        registration TEXT NOT NULL, status INTEGER NOT NULL DEFAULT 1,
        labels TEXT NOT NULL DEFAULT '[]', prefs TEXT NOT NULL DEFAULT '{}',
        email_verification INTEGER NOT NULL DEFAULT 0, accessed_at TEXT);
      CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY, user_id TEXT NOT NULL, secret_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, expire TEXT NOT NULL,
        provider TEXT NOT NULL, ip TEXT NOT NULL DEFAULT '', user_agent TEXT NOT NULL DEFAULT '');
      CREATE INDEX IF NOT EXISTS sessions_user ON sessions (user_id);
      CREATE TABLE IF NOT EXISTS teams (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, name TEXT NOT NULL,
        prefs TEXT NOT NULL DEFAULT '{}');
      CREATE TABLE IF NOT EXISTS memberships (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, team_id TEXT NOT NULL,
        user_id TEXT NOT NULL, roles TEXT NOT NULL, invited TEXT NOT NULL, joined TEXT,
        confirm INTEGER NOT NULL, secret_hash TEXT, UNIQUE (team_id, user_id));
      CREATE INDEX IF NOT EXISTS memberships_user ON memberships (user_id);
      CREATE TABLE IF NOT EXISTS api_keys (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, scopes TEXT NOT NULL, secret TEXT NOT NULL UNIQUE,
        expire TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, accessed_at TEXT);
    `);
    this.signingSecret = store.metaValue('jwt_secret', () => randomSecret(32));
  }

  // ── users ────────────────────────────────────────────────────────────────

  async hashPassword(password: string): Promise<string> {
    const salt = randomBytes(16);
    const hash = await scrypt(password, salt, 32);
    return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
  }

  async verifyPassword(user: UserRecord, password: string): Promise<boolean> {
    if (!user.passwordHash) return false;
    const [, saltText, hashText] = user.passwordHash.split('$');
    const expected = Buffer.from(hashText ?? '', 'base64');
    const actual = await scrypt(password, Buffer.from(saltText ?? '', 'base64'), expected.length);
    return expected.length > 0 && timingSafeEqual(expected, actual);
  }

  /** Creates a user; `email` is stored lower-case. Throws `user_already_exists`. */
  createUser(input: {
    id: string;
    email: string | null;
    phone?: string | null;
    passwordHash: string | null;
    name: string;
  }): UserRecord {
    const time = now();
    const email = input.email?.toLowerCase() ?? null;
    if (this.getUser(input.id) || (email && this.getUserByEmail(email))) {
      throw new ApiError('user_already_exists');
    }
    this.store
      .prepare(
        `INSERT INTO users (id, created_at, updated_at, name, email, phone, password_hash, password_update, registration)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        input.id,
        time,
        time,
        input.name,
        email,
        input.phone ?? null,
        input.passwordHash,
        input.passwordHash ? time : null,
        time,
      );
    return this.getUser(input.id)!;
  }

  getUser(id: string): UserRecord | null {
    const row = this.store.prepare('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
    return row ? userFromRow(row) : null;
  }

  getUserByEmail(email: string): UserRecord | null {
    const row = this.store
      .prepare('SELECT * FROM users WHERE email = ?')
      .get(email.toLowerCase()) as Row | undefined;
    return row ? userFromRow(row) : null;
  }

  /** Users ordered by creation, optionally filtered by a search over name and email. */
  listUsers(options: { search?: string; limit: number; offset: number }): {
    total: number;
    users: UserRecord[];
  } {
    const where = options.search ? 'WHERE name LIKE ? OR email LIKE ? OR id = ?' : '';
    const args = options.search
      ? [`%${options.search}%`, `%${options.search}%`, options.search]
      : [];
    const total = (
      this.store.prepare(`SELECT COUNT(*) AS n FROM users ${where}`).get(...args) as { n: number }
    ).n;
    const rows = this.store
      .prepare(`SELECT * FROM users ${where} ORDER BY seq LIMIT ? OFFSET ?`)
      .all(...args, options.limit, options.offset) as Row[];
    return { total, users: rows.map(userFromRow) };
  }

  /** Updates some fields of a user and returns it. */
  updateUser(
    id: string,
    patch: Partial<
      Pick<UserRecord, 'name' | 'email' | 'labels' | 'prefs' | 'status' | 'emailVerification'>
    > & {
      passwordHash?: string;
    },
  ): UserRecord {
    const sets: string[] = ['updated_at = ?'];
    const args: (string | number | null)[] = [now()];
    if (patch.name !== undefined) {
      sets.push('name = ?');
      args.push(patch.name);
    }
    if (patch.email !== undefined) {
      sets.push('email = ?');
      args.push(patch.email.toLowerCase());
    }
    if (patch.labels !== undefined) {
      sets.push('labels = ?');
      args.push(JSON.stringify(patch.labels));
    }
    if (patch.prefs !== undefined) {
      sets.push('prefs = ?');
      args.push(JSON.stringify(patch.prefs));
    }
    if (patch.status !== undefined) {
      sets.push('status = ?');
      args.push(patch.status ? 1 : 0);
    }
    if (patch.emailVerification !== undefined) {
      sets.push('email_verification = ?');
      args.push(patch.emailVerification ? 1 : 0);
    }
    if (patch.passwordHash !== undefined) {
      sets.push('password_hash = ?', 'password_update = ?');
      args.push(patch.passwordHash, now());
    }
    try {
      this.store.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('user_email_already_exists');
      throw error;
    }
    if (patch.labels !== undefined || patch.emailVerification !== undefined) this.rolesChanged(id);
    return this.getUser(id)!;
  }

  deleteUser(id: string): void {
    this.store.transaction(() => {
      this.store.prepare('DELETE FROM sessions WHERE user_id = ?').run(id);
      this.store.prepare('DELETE FROM memberships WHERE user_id = ?').run(id);
      this.store.prepare('DELETE FROM users WHERE id = ?').run(id);
    });
    this.rolesChanged(id);
  }

  // ── sessions ─────────────────────────────────────────────────────────────

  /** Creates a session; returns it with the cookie value (base64 of `{id, secret}`). */
  createSession(
    userId: string,
    provider: string,
    meta: { ip: string; userAgent: string },
  ): {
    session: SessionRecord;
    cookieValue: string;
  } {
    const secretValue = randomSecret(32);
    const time = now();
    const id = randomSecret(10);
    const expire = formatDate(Date.now() + SESSION_DURATION_MS);
    this.store
      .prepare(
        `INSERT INTO sessions (id, user_id, secret_hash, created_at, updated_at, expire, provider, ip, user_agent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, userId, sha256(secretValue), time, time, expire, provider, meta.ip, meta.userAgent);
    this.store.prepare('UPDATE users SET accessed_at = ? WHERE id = ?').run(time, userId);
    const cookieValue = Buffer.from(JSON.stringify({ id: userId, secret: secretValue })).toString(
      'base64',
    );
    return { session: this.getSession(id)!, cookieValue };
  }

  getSession(id: string): SessionRecord | null {
    const row = this.store.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as
      Row | undefined;
    return row ? sessionFromRow(row) : null;
  }

  listSessions(userId: string): SessionRecord[] {
    const rows = this.store
      .prepare('SELECT * FROM sessions WHERE user_id = ? ORDER BY created_at')
      .all(userId) as Row[];
    return rows.map(sessionFromRow);
  }

  deleteSession(id: string): void {
    this.store.prepare('DELETE FROM sessions WHERE id = ?').run(id);
  }

  deleteSessions(userId: string): void {
    this.store.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId);
  }

  /** The user and session named by a session cookie value, or null when invalid or expired. */
  resolveSession(cookieValue: string): { user: UserRecord; session: SessionRecord } | null {
    let decoded: { id?: unknown; secret?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(cookieValue, 'base64').toString('utf8')) as typeof decoded;
    } catch {
      return null;
    }
    if (typeof decoded.secret !== 'string' || typeof decoded.id !== 'string') return null;
    const row = this.store
      .prepare('SELECT * FROM sessions WHERE secret_hash = ?')
      .get(sha256(decoded.secret)) as Row | undefined;
    if (!row) return null;
    const session = sessionFromRow(row);
    if (session.userId !== decoded.id || Date.parse(session.expire) < Date.now()) return null;
    const user = this.getUser(session.userId);
    if (!user || !user.status) return null;
    return { user, session };
  }

  // ── JWTs and keys ────────────────────────────────────────────────────────

  private sign(payload: Record<string, unknown>): string {
    const head = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const body = base64url(JSON.stringify(payload));
    const signature = createHmac('sha256', this.signingSecret)
      .update(`${head}.${body}`)
      .digest('base64url');
    return `${head}.${body}.${signature}`;
  }

  private verify(token: string): Record<string, unknown> | null {
    const [head, body, signature] = token.split('.');
    if (!head || !body || !signature) return null;
    const expected = createHmac('sha256', this.signingSecret)
      .update(`${head}.${body}`)
      .digest('base64url');
    if (
      expected.length !== signature.length ||
      !timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
    ) {
      return null;
    }
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      if (typeof payload.exp === 'number' && payload.exp * 1000 < Date.now()) return null;
      return payload;
    } catch {
      return null;
    }
  }

  /** A JWT for a user's session, valid for {@link JWT_DURATION_MS}. */
  createJwt(userId: string, sessionId: string, durationMs = JWT_DURATION_MS): string {
    return this.sign({ userId, sessionId, exp: Math.floor((Date.now() + durationMs) / 1000) });
  }

  /** The user and session of a JWT, or null when invalid, expired, or its session is gone. */
  resolveJwt(token: string): { user: UserRecord; session: SessionRecord | null } | null {
    const payload = this.verify(token);
    if (!payload || typeof payload.userId !== 'string') return null;
    const user = this.getUser(payload.userId);
    if (!user || !user.status) return null;
    const session =
      typeof payload.sessionId === 'string' ? this.getSession(payload.sessionId) : null;
    if (typeof payload.sessionId === 'string' && payload.sessionId !== '' && !session) return null;
    return { user, session };
  }

  /** A short-lived API key (as functions receive), `dynamic_<jwt>`. */
  createDynamicKey(scopes: readonly string[], durationMs: number): string {
    return `dynamic_${this.sign({ projectId: this.projectId, scopes, exp: Math.floor((Date.now() + durationMs) / 1000) })}`;
  }

  /** Creates a project API key with its secret. */
  createKey(input: {
    id: string;
    name: string;
    scopes: string[];
    expire: string | null;
  }): KeyRecord & {
    secret: string;
    createdAt: string;
    updatedAt: string;
  } {
    const time = now();
    const secretValue = `standard_${randomSecret(64)}`;
    try {
      this.store
        .prepare(
          'INSERT INTO api_keys (id, name, scopes, secret, expire, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          input.id,
          input.name,
          JSON.stringify(input.scopes),
          secretValue,
          input.expire,
          time,
          time,
        );
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('key_already_exists');
      throw error;
    }
    return { ...input, secret: secretValue, createdAt: time, updatedAt: time };
  }

  listKeys(): (KeyRecord & {
    secret: string;
    createdAt: string;
    updatedAt: string;
    accessedAt: string;
  })[] {
    const rows = this.store.prepare('SELECT * FROM api_keys ORDER BY created_at').all() as Row[];
    return rows.map((row) => ({
      id: row.id as string,
      name: row.name as string,
      scopes: JSON.parse(row.scopes as string) as string[],
      expire: (row.expire as string | null) ?? null,
      secret: row.secret as string,
      createdAt: row.created_at as string,
      updatedAt: row.updated_at as string,
      accessedAt: (row.accessed_at as string | null) ?? '',
    }));
  }

  deleteKey(id: string): boolean {
    return Number(this.store.prepare('DELETE FROM api_keys WHERE id = ?').run(id).changes) > 0;
  }

  /** The key for an `X-Appwrite-Key` secret; `'expired'` when it was valid once; null when unknown. */
  resolveKey(secretValue: string): KeyRecord | 'expired' | null {
    if (secretValue === this.bootstrapKey.secret) return this.bootstrapKey;
    if (secretValue.startsWith('dynamic_')) {
      const known = this.verifiedKeys.get(secretValue);
      if (known && known.exp * 1000 >= Date.now()) return known;
      const payload = this.verify(secretValue.slice('dynamic_'.length));
      if (!payload || payload.projectId !== this.projectId || !Array.isArray(payload.scopes))
        return null;
      const key = {
        id: 'dynamic',
        name: 'Dynamic key',
        scopes: payload.scopes as string[],
        expire: null,
        exp: typeof payload.exp === 'number' ? payload.exp : 0,
      };
      if (this.verifiedKeys.size >= 1000) this.verifiedKeys.clear();
      this.verifiedKeys.set(secretValue, key);
      return key;
    }
    const key = this.listKeys().find((candidate) => candidate.secret === secretValue);
    if (!key) return null;
    if (key.expire && Date.parse(key.expire) < Date.now()) return 'expired';
    return key;
  }

  // ── teams and memberships ────────────────────────────────────────────────

  createTeam(id: string, name: string): TeamRecord {
    const time = now();
    try {
      this.store
        .prepare('INSERT INTO teams (id, created_at, updated_at, name) VALUES (?, ?, ?, ?)')
        .run(id, time, time, name);
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('team_already_exists');
      throw error;
    }
    return this.getTeam(id)!;
  }

  getTeam(id: string): TeamRecord | null {
    const row = this.store.prepare('SELECT * FROM teams WHERE id = ?').get(id) as Row | undefined;
    return row ? teamFromRow(row) : null;
  }

  /** Teams, all of them or only those `userId` is a confirmed member of. */
  listTeams(options: { userId?: string; search?: string; limit: number; offset: number }): {
    total: number;
    teams: TeamRecord[];
  } {
    const clauses: string[] = [];
    const args: (string | number)[] = [];
    if (options.userId) {
      clauses.push('id IN (SELECT team_id FROM memberships WHERE user_id = ? AND confirm = 1)');
      args.push(options.userId);
    }
    if (options.search) {
      clauses.push('(name LIKE ? OR id = ?)');
      args.push(`%${options.search}%`, options.search);
    }
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
    const total = (
      this.store.prepare(`SELECT COUNT(*) AS n FROM teams ${where}`).get(...args) as { n: number }
    ).n;
    const rows = this.store
      .prepare(`SELECT * FROM teams ${where} ORDER BY seq LIMIT ? OFFSET ?`)
      .all(...args, options.limit, options.offset) as Row[];
    return { total, teams: rows.map(teamFromRow) };
  }

  updateTeam(id: string, patch: { name?: string; prefs?: Record<string, unknown> }): TeamRecord {
    if (patch.name !== undefined)
      this.store
        .prepare('UPDATE teams SET name = ?, updated_at = ? WHERE id = ?')
        .run(patch.name, now(), id);
    if (patch.prefs !== undefined) {
      this.store
        .prepare('UPDATE teams SET prefs = ?, updated_at = ? WHERE id = ?')
        .run(JSON.stringify(patch.prefs), now(), id);
    }
    return this.getTeam(id)!;
  }

  deleteTeam(id: string): string[] {
    const members = this.listMemberships(id).map((m) => m.userId);
    this.store.transaction(() => {
      this.store.prepare('DELETE FROM memberships WHERE team_id = ?').run(id);
      this.store.prepare('DELETE FROM teams WHERE id = ?').run(id);
    });
    for (const userId of members) this.rolesChanged(userId);
    return members;
  }

  /** Number of confirmed members. */
  teamTotal(teamId: string): number {
    return (
      this.store
        .prepare('SELECT COUNT(*) AS n FROM memberships WHERE team_id = ? AND confirm = 1')
        .get(teamId) as { n: number }
    ).n;
  }

  /** Adds a membership (an open invitation is replaced); confirmed ones take effect at once. */
  createMembership(input: {
    id: string;
    teamId: string;
    userId: string;
    roles: string[];
    confirm: boolean;
  }): {
    membership: MembershipRecord;
    secret: string | null;
  } {
    const time = now();
    const secretValue = input.confirm ? null : randomSecret(32);
    const existing = this.store
      .prepare('SELECT * FROM memberships WHERE team_id = ? AND user_id = ?')
      .get(input.teamId, input.userId) as Row | undefined;
    if (existing?.confirm === 1) throw new ApiError('membership_already_confirmed');
    if (existing)
      this.store.prepare('DELETE FROM memberships WHERE id = ?').run(existing.id as string);
    this.store
      .prepare(
        `INSERT INTO memberships (id, created_at, updated_at, team_id, user_id, roles, invited, joined, confirm, secret_hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        input.id,
        time,
        time,
        input.teamId,
        input.userId,
        JSON.stringify(input.roles),
        time,
        input.confirm ? time : null,
        input.confirm ? 1 : 0,
        secretValue ? sha256(secretValue) : null,
      );
    this.store.prepare('UPDATE teams SET updated_at = ? WHERE id = ?').run(time, input.teamId);
    if (input.confirm) this.rolesChanged(input.userId);
    return { membership: this.getMembership(input.id)!, secret: secretValue };
  }

  getMembership(id: string): MembershipRecord | null {
    const row = this.store.prepare('SELECT * FROM memberships WHERE id = ?').get(id) as
      Row | undefined;
    return row ? membershipFromRow(row) : null;
  }

  listMemberships(
    teamId: string,
    options: { search?: string; limit?: number; offset?: number } = {},
  ): MembershipRecord[] {
    const search = options.search
      ? 'AND (m.user_id IN (SELECT id FROM users WHERE name LIKE ? OR email LIKE ?))'
      : '';
    const args: (string | number)[] = [teamId];
    if (options.search) args.push(`%${options.search}%`, `%${options.search}%`);
    const rows = this.store
      .prepare(
        `SELECT m.* FROM memberships m WHERE m.team_id = ? ${search} ORDER BY m.seq LIMIT ? OFFSET ?`,
      )
      .all(...args, options.limit ?? 5000, options.offset ?? 0) as Row[];
    return rows.map(membershipFromRow);
  }

  userMemberships(userId: string): MembershipRecord[] {
    const rows = this.store
      .prepare('SELECT * FROM memberships WHERE user_id = ? ORDER BY seq')
      .all(userId) as Row[];
    return rows.map(membershipFromRow);
  }

  updateMembership(id: string, patch: { roles?: string[]; confirm?: boolean }): MembershipRecord {
    const membership = this.getMembership(id)!;
    const time = now();
    if (patch.roles)
      this.store
        .prepare('UPDATE memberships SET roles = ?, updated_at = ? WHERE id = ?')
        .run(JSON.stringify(patch.roles), time, id);
    if (patch.confirm) {
      this.store
        .prepare(
          'UPDATE memberships SET confirm = 1, joined = ?, secret_hash = NULL, updated_at = ? WHERE id = ?',
        )
        .run(time, time, id);
    }
    this.rolesChanged(membership.userId);
    return this.getMembership(id)!;
  }

  /** Whether `secretValue` is the invitation secret of an unconfirmed membership. */
  checkMembershipSecret(id: string, secretValue: string): boolean {
    const row = this.store.prepare('SELECT secret_hash FROM memberships WHERE id = ?').get(id) as
      { secret_hash: string | null } | undefined;
    return !!row?.secret_hash && row.secret_hash === sha256(secretValue);
  }

  deleteMembership(id: string): void {
    const membership = this.getMembership(id);
    if (!membership) return;
    this.store.prepare('DELETE FROM memberships WHERE id = ?').run(id);
    this.rolesChanged(membership.userId);
  }

  // ── roles ────────────────────────────────────────────────────────────────

  /** Appwrite's roles of a user: `users`, `user:ID` (+ verified state), teams, memberships, labels. */
  rolesOf(user: UserRecord): ReadonlySet<string> {
    const cached = this.roleCache.get(user.id);
    if (cached) return cached;
    const verified = user.emailVerification ? 'verified' : 'unverified';
    const roles = new Set<string>([
      'users',
      `user:${user.id}`,
      `user:${user.id}/${verified}`,
      `users/${verified}`,
    ]);
    for (const membership of this.userMemberships(user.id)) {
      if (!membership.confirm) continue;
      roles.add(`team:${membership.teamId}`);
      roles.add(`member:${membership.id}`);
      for (const role of membership.roles) roles.add(`team:${membership.teamId}/${role}`);
    }
    for (const label of user.labels) roles.add(`label:${label}`);
    this.roleCache.set(user.id, roles);
    return roles;
  }

  /** Calls `listener(userId)` whenever a user's roles change (memberships, labels, deletion). */
  onRolesChanged(listener: (userId: string) => void): () => void {
    this.roleListeners.add(listener);
    return () => this.roleListeners.delete(listener);
  }

  private rolesChanged(userId: string): void {
    this.roleCache.delete(userId);
    for (const listener of this.roleListeners) listener(userId);
  }

  /** The identity of a user (for sessions and JWTs). */
  userIdentity(user: UserRecord, session: SessionRecord | null): Identity {
    return { kind: 'user', user, session, roles: this.rolesOf(user), scopes: USER_SCOPES };
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
