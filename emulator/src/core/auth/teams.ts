import type { Store } from '../db.ts';
import { ApiError } from '../errors.ts';
import { secret as randomSecret } from '../ids.ts';
import { now } from '../time.ts';
import { hashSecret } from './tokens.ts';

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

type Row = Record<string, unknown>;

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

/** Teams and memberships (an invitation keeps only the hash of its secret). */
export class Teams {
  private readonly store: Store;
  private readonly rolesChanged: (userId: string) => void;

  /** `rolesChanged` is told of users whose confirmed memberships change. */
  constructor(store: Store, rolesChanged: (userId: string) => void) {
    this.store = store;
    this.rolesChanged = rolesChanged;
    store.sql.exec(`
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
    `);
  }

  /** Creates a team. Throws `team_already_exists`. */
  create(id: string, name: string): TeamRecord {
    const time = now();
    try {
      this.store
        .prepare('INSERT INTO teams (id, created_at, updated_at, name) VALUES (?, ?, ?, ?)')
        .run(id, time, time, name);
    } catch (error) {
      if (String(error).includes('UNIQUE')) throw new ApiError('team_already_exists');
      throw error;
    }
    return this.get(id)!;
  }

  get(id: string): TeamRecord | null {
    const row = this.store.prepare('SELECT * FROM teams WHERE id = ?').get(id) as Row | undefined;
    return row ? teamFromRow(row) : null;
  }

  /**
   * Teams in creation order: all of them, or only those `userId` is a confirmed member of;
   * optionally only those whose name contains `search` (or whose id it is).
   */
  list(options: { userId?: string; search?: string }): TeamRecord[] {
    const clauses: string[] = [];
    const args: string[] = [];
    if (options.userId) {
      clauses.push('id IN (SELECT team_id FROM memberships WHERE user_id = ? AND confirm = 1)');
      args.push(options.userId);
    }
    if (options.search) {
      clauses.push('(name LIKE ? OR id = ?)');
      args.push(`%${options.search}%`, options.search);
    }
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
    const rows = this.store
      .prepare(`SELECT * FROM teams ${where} ORDER BY seq`)
      .all(...args) as Row[];
    return rows.map(teamFromRow);
  }

  update(id: string, patch: { name?: string; prefs?: Record<string, unknown> }): TeamRecord {
    if (patch.name !== undefined)
      this.store
        .prepare('UPDATE teams SET name = ?, updated_at = ? WHERE id = ?')
        .run(patch.name, now(), id);
    if (patch.prefs !== undefined) {
      this.store
        .prepare('UPDATE teams SET prefs = ?, updated_at = ? WHERE id = ?')
        .run(JSON.stringify(patch.prefs), now(), id);
    }
    return this.get(id)!;
  }

  /** Deletes a team and its memberships; returns the users who were members. */
  delete(id: string): string[] {
    const members = this.listMemberships(id).map((m) => m.userId);
    this.store.transaction(() => {
      this.store.prepare('DELETE FROM memberships WHERE team_id = ?').run(id);
      this.store.prepare('DELETE FROM teams WHERE id = ?').run(id);
    });
    for (const userId of members) this.rolesChanged(userId);
    return members;
  }

  /** Number of confirmed members. */
  total(teamId: string): number {
    return (
      this.store
        .prepare('SELECT COUNT(*) AS n FROM memberships WHERE team_id = ? AND confirm = 1')
        .get(teamId) as { n: number }
    ).n;
  }

  /**
   * Adds a membership (an open invitation is replaced); confirmed ones take effect at once, others
   * come with the invitation's secret. Throws `membership_already_confirmed`.
   */
  createMembership(input: {
    id: string;
    teamId: string;
    userId: string;
    roles: string[];
    confirm: boolean;
  }): { membership: MembershipRecord; secret: string | null } {
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
        secretValue ? hashSecret(secretValue) : null,
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

  /** A team's memberships in creation order, optionally of users whose name or email contains `search`. */
  listMemberships(teamId: string, search?: string): MembershipRecord[] {
    const filter = search
      ? 'AND (m.user_id IN (SELECT id FROM users WHERE name LIKE ? OR email LIKE ?))'
      : '';
    const args = search ? [teamId, `%${search}%`, `%${search}%`] : [teamId];
    const rows = this.store
      .prepare(`SELECT m.* FROM memberships m WHERE m.team_id = ? ${filter} ORDER BY m.seq`)
      .all(...args) as Row[];
    return rows.map(membershipFromRow);
  }

  /** A user's memberships in creation order. */
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
        .prepare('UPDATE memberships SET confirm = 1, joined = ?, updated_at = ? WHERE id = ?')
        .run(time, time, id);
    }
    this.rolesChanged(membership.userId);
    return this.getMembership(id)!;
  }

  /** Whether `secretValue` is the invitation secret of an unconfirmed membership. */
  checkMembershipSecret(id: string, secretValue: string): boolean {
    const row = this.store.prepare('SELECT secret_hash FROM memberships WHERE id = ?').get(id) as
      { secret_hash: string | null } | undefined;
    return !!row?.secret_hash && row.secret_hash === hashSecret(secretValue);
  }

  deleteMembership(id: string): void {
    const membership = this.getMembership(id);
    if (!membership) return;
    this.store.prepare('DELETE FROM memberships WHERE id = ?').run(id);
    this.rolesChanged(membership.userId);
  }

  /** Deletes every membership of a user (the user is being deleted). */
  deleteUserMemberships(userId: string): void {
    this.store.prepare('DELETE FROM memberships WHERE user_id = ?').run(userId);
  }
}
