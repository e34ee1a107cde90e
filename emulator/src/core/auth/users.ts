import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Store } from '../db.ts';
import { ApiError } from '../errors.ts';
import { now } from '../time.ts';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;

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

/** The fields of a user that can change (the password as its hash). */
export type UserPatch = Partial<
  Pick<UserRecord, 'name' | 'email' | 'labels' | 'prefs' | 'status' | 'emailVerification'>
> & { passwordHash?: string };

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

/** The users table and passwords (scrypt hashes). */
export class Users {
  private readonly store: Store;
  private readonly rolesChanged: (userId: string) => void;

  /** `rolesChanged` is told of users whose labels or verification change. */
  constructor(store: Store, rolesChanged: (userId: string) => void) {
    this.store = store;
    this.rolesChanged = rolesChanged;
    store.sql.exec(`
      CREATE TABLE IF NOT EXISTS users (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, name TEXT NOT NULL DEFAULT '',
        email TEXT UNIQUE, phone TEXT, password_hash TEXT, password_update TEXT,
        registration TEXT NOT NULL, status INTEGER NOT NULL DEFAULT 1,
        labels TEXT NOT NULL DEFAULT '[]', prefs TEXT NOT NULL DEFAULT '{}',
        email_verification INTEGER NOT NULL DEFAULT 0, accessed_at TEXT);
    `);
  }

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
  create(input: {
    id: string;
    email: string | null;
    phone?: string | null;
    passwordHash: string | null;
    name: string;
  }): UserRecord {
    const time = now();
    const email = input.email?.toLowerCase() ?? null;
    if (this.get(input.id) || (email && this.getByEmail(email))) {
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
    return this.get(input.id)!;
  }

  get(id: string): UserRecord | null {
    const row = this.store.prepare('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
    return row ? userFromRow(row) : null;
  }

  getByEmail(email: string): UserRecord | null {
    const row = this.store
      .prepare('SELECT * FROM users WHERE email = ?')
      .get(email.toLowerCase()) as Row | undefined;
    return row ? userFromRow(row) : null;
  }

  /** Users in creation order, optionally only those whose name or email contains `search` (or whose id it is). */
  list(search?: string): UserRecord[] {
    const rows = (
      search
        ? this.store
            .prepare('SELECT * FROM users WHERE name LIKE ? OR email LIKE ? OR id = ? ORDER BY seq')
            .all(`%${search}%`, `%${search}%`, search)
        : this.store.prepare('SELECT * FROM users ORDER BY seq').all()
    ) as Row[];
    return rows.map(userFromRow);
  }

  /** Updates some fields of a user and returns it. Throws `user_email_already_exists`. */
  update(id: string, patch: UserPatch): UserRecord {
    const sets: string[] = ['updated_at = ?'];
    const args: (string | number | null)[] = [now()];
    const set = (column: string, value: string | number) => {
      sets.push(`${column} = ?`);
      args.push(value);
    };
    if (patch.name !== undefined) set('name', patch.name);
    if (patch.email !== undefined) set('email', patch.email.toLowerCase());
    if (patch.labels !== undefined) set('labels', JSON.stringify(patch.labels));
    if (patch.prefs !== undefined) set('prefs', JSON.stringify(patch.prefs));
    if (patch.status !== undefined) set('status', patch.status ? 1 : 0);
    if (patch.emailVerification !== undefined)
      set('email_verification', patch.emailVerification ? 1 : 0);
    if (patch.passwordHash !== undefined) {
      set('password_hash', patch.passwordHash);
      set('password_update', now());
    }
    try {
      this.store.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('user_email_already_exists');
      throw error;
    }
    if (patch.labels !== undefined || patch.emailVerification !== undefined) this.rolesChanged(id);
    return this.get(id)!;
  }

  /** Records that the user signed in at `time`. */
  markAccessed(id: string, time: string): void {
    this.store.prepare('UPDATE users SET accessed_at = ? WHERE id = ?').run(time, id);
  }

  /** Deletes the user's row (see `Auth.deleteUser` for the user with their sessions and memberships). */
  delete(id: string): void {
    this.store.prepare('DELETE FROM users WHERE id = ?').run(id);
  }
}
