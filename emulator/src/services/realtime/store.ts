import type { Backend } from '../../backend.ts';
import type { Identity } from '../../core/auth/roles.ts';
import type { Store } from '../../core/db.ts';
import { ApiError } from '../../core/errors.ts';
import {
  assertCallerMaySet,
  formatPermissions,
  isGranted,
  parsePermissions,
  rolesIn,
  type PermissionType,
} from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import { RealtimeHub } from './hub.ts';
import { presenceModel, presencePayload, type PresenceRecord } from './models.ts';

/**
 * Presences: Appwrite 1.9's `presenceLogs` — one presence per user (`userId` is unique;
 * upserting again updates the user's presence and keeps its first id), written over realtime
 * (`{type:'presence'}`, source `realtime`, expires in 30 days, deleted when the socket closes)
 * or REST (`/v1/presences`, source `rest`, expires in 15 minutes by default). Reads honour each
 * presence's `read` permissions; expired presences are not found.
 */

/** Permission types a presence takes (`write` expands to update and delete). */
const PRESENCE_PERMISSIONS: readonly PermissionType[] = ['read', 'update', 'delete'];

/** Where a presence change comes from: a realtime socket, or a REST request. */
export type PresenceChannel = 'realtime' | 'rest';

/** A presence to write for a user. */
export interface PresenceInput {
  presenceId: string;
  userId: string;
  status: string | null;
  source: PresenceChannel;
  expiresAt: string | null;
  metadata: Record<string, unknown> | null;
  permissions: string[];
}

/** The fields of a presence a REST update changes. */
export interface PresencePatch {
  userId?: string;
  status?: string;
  expiresAt?: string;
  metadata?: Record<string, unknown>;
  permissions?: string[];
}

type Row = Record<string, unknown>;

function fromRow(row: Row): PresenceRecord {
  return {
    id: row.id as string,
    sequence: Number(row.seq),
    userId: row.user_id as string,
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    permissions: JSON.parse(row.permissions as string) as string[],
    status: (row.status as string | null) ?? null,
    source: row.source as string,
    expiresAt: (row.expires_at as string | null) ?? null,
    metadata:
      row.metadata === null
        ? null
        : (JSON.parse(row.metadata as string) as Record<string, unknown>),
  };
}

/** Whether a presence has passed its `expiresAt`. */
function expired(presence: PresenceRecord): boolean {
  return presence.expiresAt !== null && Date.parse(presence.expiresAt) < Date.now();
}

/**
 * The Realtime service's store: presences (their table, who may see and change them, their
 * events) and the realtime hub, the socket server that delivers every event.
 */
export class RealtimeStore {
  /** The socket server (`/v1/realtime`). */
  readonly hub: RealtimeHub;
  private readonly backend: Backend;
  private readonly store: Store;

  constructor(backend: Backend) {
    this.backend = backend;
    this.store = backend.store;
    this.store.sql.exec(`
      CREATE TABLE IF NOT EXISTS presences (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, user_id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, permissions TEXT NOT NULL,
        status TEXT, source TEXT NOT NULL, expires_at TEXT, metadata TEXT);
    `);
    this.hub = new RealtimeHub(backend, this);
  }

  private get(id: string): PresenceRecord | null {
    const row = this.store.prepare('SELECT * FROM presences WHERE id = ?').get(id) as
      Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** Whether `identity` may see a presence: an API key, or a reader it grants; never once expired. */
  private canSee(identity: Identity, presence: PresenceRecord): boolean {
    if (expired(presence)) return false;
    return (
      identity.kind === 'key' || isGranted(rolesIn(presence.permissions, 'read'), identity.roles)
    );
  }

  /** The presence `id` when `identity` may see it, else `presence_not_found`. */
  visible(identity: Identity, id: string): PresenceRecord {
    const presence = this.get(id);
    if (!presence || !this.canSee(identity, presence)) throw new ApiError('presence_not_found');
    return presence;
  }

  /** Every presence `identity` may see, oldest first. */
  listVisible(identity: Identity): PresenceRecord[] {
    const rows = this.store.prepare('SELECT * FROM presences ORDER BY seq').all() as Row[];
    return rows.map(fromRow).filter((presence) => this.canSee(identity, presence));
  }

  /** Refuses `identity` the `type` of change to a presence (`user_unauthorized`) unless it is granted. */
  assertMay(identity: Identity, presence: PresenceRecord, type: PermissionType): void {
    if (identity.kind === 'key') return;
    if (!isGranted(rolesIn(presence.permissions, type), identity.roles)) {
      throw new ApiError('user_unauthorized', `No permissions provided for action '${type}'`);
    }
  }

  /**
   * Appwrite's `PresenceState::setPermissions`: the caller's permissions (`write` expanded,
   * each role one the caller holds unless it is an API key), or by default read, update and
   * delete for the owner; sorted as Appwrite stores them.
   */
  permissionsFor(raw: unknown, caller: Identity, owner: string): string[] {
    let permissions: string[];
    if (raw === undefined || raw === null) {
      permissions = PRESENCE_PERMISSIONS.map((type) => `${type}("user:${owner}")`);
    } else {
      const parsed = parsePermissions(raw, PRESENCE_PERMISSIONS);
      if (caller.kind !== 'key') assertCallerMaySet(parsed, caller.roles);
      permissions = formatPermissions(parsed);
    }
    return permissions.sort();
  }

  /**
   * Appwrite's `upsertForUser`: updates the user's presence when there is one (keeping its
   * id and creation date), else creates `presenceId`; publishes `presences.[presenceId].upsert`.
   * Throws `presence_already_exists` when `presenceId` belongs to another user. `answer` is
   * called before the event is published (a socket's ack goes out first, as on Appwrite).
   */
  upsertForUser(input: PresenceInput, answer?: (presence: PresenceRecord) => void): PresenceRecord {
    const time = now();
    const values = [
      time,
      JSON.stringify(input.permissions),
      input.status,
      input.source,
      input.expiresAt,
      input.metadata === null ? null : JSON.stringify(input.metadata),
    ];
    const presence = this.store.transaction(() => {
      const existing = this.store
        .prepare('SELECT id FROM presences WHERE user_id = ?')
        .get(input.userId) as { id: string } | undefined;
      if (existing) {
        this.store
          .prepare(
            `UPDATE presences SET updated_at = ?, permissions = ?, status = ?, source = ?, expires_at = ?, metadata = ?
             WHERE id = ?`,
          )
          .run(...values, existing.id);
        return this.get(existing.id)!;
      }
      if (this.get(input.presenceId)) {
        throw new ApiError('presence_already_exists', null, [input.presenceId]);
      }
      this.store
        .prepare(
          `INSERT INTO presences (id, user_id, created_at, updated_at, permissions, status, source, expires_at, metadata)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(input.presenceId, input.userId, time, ...values);
      return this.get(input.presenceId)!;
    });
    answer?.(presence);
    this.publish(presence, 'upsert', input.source);
    return presence;
  }

  /** Changes some fields of a presence (over REST) and publishes `presences.[presenceId].update`. */
  update(id: string, patch: PresencePatch): PresenceRecord {
    const sets = ['updated_at = ?'];
    const args: (string | null)[] = [now()];
    const set = (column: string, value: string) => {
      sets.push(`${column} = ?`);
      args.push(value);
    };
    if (patch.userId !== undefined) set('user_id', patch.userId);
    if (patch.status !== undefined) set('status', patch.status);
    if (patch.expiresAt !== undefined) set('expires_at', patch.expiresAt);
    if (patch.metadata !== undefined) set('metadata', JSON.stringify(patch.metadata));
    if (patch.permissions !== undefined) set('permissions', JSON.stringify(patch.permissions));
    try {
      this.store.prepare(`UPDATE presences SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
    } catch (error) {
      if (String(error).includes('UNIQUE'))
        throw new ApiError('presence_already_exists', null, [id]);
      throw error;
    }
    const presence = this.get(id)!;
    this.publish(presence, 'update', 'rest');
    return presence;
  }

  /** Deletes a presence and publishes `presences.[presenceId].delete`; returns it when it existed. */
  delete(id: string, via: PresenceChannel): PresenceRecord | null {
    const presence = this.get(id);
    if (!presence) return null;
    this.store.prepare('DELETE FROM presences WHERE id = ?').run(id);
    this.publish(presence, 'delete', via);
    return presence;
  }

  /** Deletes every presence written over realtime (no socket survives a restart). */
  deleteRealtimePresences(): number {
    return Number(
      this.store.prepare("DELETE FROM presences WHERE source = 'realtime'").run().changes,
    );
  }

  /** Publishes a presence event; over realtime its payload carries `$sequence`, as the socket's acks. */
  private publish(
    presence: PresenceRecord,
    action: 'upsert' | 'update' | 'delete',
    via: PresenceChannel,
  ): void {
    this.backend.publish({
      resource: 'presence',
      action,
      presenceId: presence.id,
      permissions: presence.permissions,
      payload: via === 'realtime' ? presencePayload(presence) : presenceModel(presence),
    });
  }
}
