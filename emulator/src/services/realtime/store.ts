import type { Backend } from '../../backend.ts';
import type { Identity } from '../../core/auth.ts';
import type { Store } from '../../core/db.ts';
import { generateEvents } from '../../core/events.ts';
import { resolveId } from '../../core/ids.ts';
import {
  assertCallerMaySet,
  formatPermissions,
  isGranted,
  parsePermissions,
  rolesFor,
  type PermissionType,
} from '../../core/permissions.ts';
import { formatDate, normalizeDate, now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError, invalidParam } from '../../http/errors.ts';
import { bool, object, text } from '../../http/params.ts';
import { noContent, ok } from '../../http/reply.ts';
import type { Route } from '../../http/router.ts';

/**
 * Presences: Appwrite 1.9's `presenceLogs` — one presence per user (`userId` is unique;
 * upserting again updates the user's presence and keeps its first id), written over realtime
 * (`{type:'presence'}`, source `realtime`, expires in 30 days, deleted when the socket closes)
 * or REST (`/v1/presences`, source `rest`, expires in 15 minutes by default). Reads honour each
 * presence's `read` permissions; expired presences are not found.
 */

/** Permission types a presence takes (`write` expands to update and delete). */
const PRESENCE_PERMISSIONS: readonly PermissionType[] = ['read', 'update', 'delete'];

/** A stored presence. */
export interface PresenceRecord {
  id: string;
  sequence: number;
  userId: string;
  createdAt: string;
  updatedAt: string;
  /** Formatted and sorted: `delete("user:U")`, `read("user:U")`, … */
  permissions: string[];
  status: string | null;
  source: string;
  expiresAt: string | null;
  metadata: Record<string, unknown> | null;
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

/** Appwrite's Presence model (the REST answer). */
export function presenceModel(presence: PresenceRecord): Record<string, unknown> {
  return {
    $id: presence.id,
    $createdAt: presence.createdAt,
    $updatedAt: presence.updatedAt,
    $permissions: presence.permissions,
    userId: presence.userId,
    status: presence.status,
    source: presence.source,
    expiresAt: presence.expiresAt,
    metadata: presence.metadata,
  };
}

/** The presence document as realtime sends it (`response` acks, presence events): with `$sequence`. */
export function presencePayload(presence: PresenceRecord): Record<string, unknown> {
  const { $id, ...rest } = presenceModel(presence);
  return { $id, $sequence: String(presence.sequence), ...rest };
}

/** Roles a presence grants `type` to. */
export function presenceRoles(presence: PresenceRecord, type: PermissionType): string[] {
  return rolesFor(parsePermissions(presence.permissions, PRESENCE_PERMISSIONS), type);
}

/** Whether a presence has passed its `expiresAt`. */
function expired(presence: PresenceRecord): boolean {
  return presence.expiresAt !== null && Date.parse(presence.expiresAt) < Date.now();
}

/** The presences table. */
export class PresenceStore {
  private readonly store: Store;

  constructor(store: Store) {
    this.store = store;
    store.sql.exec(`
      CREATE TABLE IF NOT EXISTS presences (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, user_id TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, permissions TEXT NOT NULL,
        status TEXT, source TEXT NOT NULL, expires_at TEXT, metadata TEXT);
    `);
  }

  get(id: string): PresenceRecord | null {
    const row = this.store.prepare('SELECT * FROM presences WHERE id = ?').get(id) as
      Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** Every presence, oldest first. */
  all(): PresenceRecord[] {
    return (this.store.prepare('SELECT * FROM presences ORDER BY seq').all() as Row[]).map(fromRow);
  }

  /**
   * Appwrite's `upsertForUser`: updates the user's presence when there is one (keeping its
   * id and creation date), else creates `presenceId`. Throws `presence_already_exists` when
   * `presenceId` belongs to another user.
   */
  upsertForUser(input: {
    presenceId: string;
    userId: string;
    status: string | null;
    source: string;
    expiresAt: string | null;
    metadata: Record<string, unknown> | null;
    permissions: string[];
  }): PresenceRecord {
    const time = now();
    const values = [
      time,
      JSON.stringify(input.permissions),
      input.status,
      input.source,
      input.expiresAt,
      input.metadata === null ? null : JSON.stringify(input.metadata),
    ];
    return this.store.transaction(() => {
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
  }

  /** Changes some fields of a presence. */
  update(
    id: string,
    patch: {
      userId?: string;
      status?: string;
      expiresAt?: string;
      metadata?: Record<string, unknown>;
      permissions?: string[];
    },
  ): PresenceRecord {
    const sets = ['updated_at = ?'];
    const args: (string | null)[] = [now()];
    if (patch.userId !== undefined) {
      sets.push('user_id = ?');
      args.push(patch.userId);
    }
    if (patch.status !== undefined) {
      sets.push('status = ?');
      args.push(patch.status);
    }
    if (patch.expiresAt !== undefined) {
      sets.push('expires_at = ?');
      args.push(patch.expiresAt);
    }
    if (patch.metadata !== undefined) {
      sets.push('metadata = ?');
      args.push(JSON.stringify(patch.metadata));
    }
    if (patch.permissions !== undefined) {
      sets.push('permissions = ?');
      args.push(JSON.stringify(patch.permissions));
    }
    try {
      this.store.prepare(`UPDATE presences SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
    } catch (error) {
      if (String(error).includes('UNIQUE'))
        throw new ApiError('presence_already_exists', null, [id]);
      throw error;
    }
    return this.get(id)!;
  }

  /** Deletes a presence; returns it when it existed. */
  delete(id: string): PresenceRecord | null {
    const presence = this.get(id);
    if (presence) this.store.prepare('DELETE FROM presences WHERE id = ?').run(id);
    return presence;
  }

  /** Deletes every presence written over realtime (no socket survives a restart). */
  deleteRealtimePresences(): number {
    return Number(
      this.store.prepare("DELETE FROM presences WHERE source = 'realtime'").run().changes,
    );
  }
}

/** The presence store of a backend (created on first use, shared through `backend.services`). */
export function presenceStore(backend: Backend): PresenceStore {
  let store = backend.services.get('realtime:presences') as PresenceStore | undefined;
  if (!store) {
    store = new PresenceStore(backend.store);
    backend.services.set('realtime:presences', store);
  }
  return store;
}

/** Publishes `presences.[presenceId].<action>` to the presence's readers. */
export function publishPresence(
  backend: Backend,
  presence: PresenceRecord,
  action: 'upsert' | 'update' | 'delete',
  payload: Record<string, unknown>,
): void {
  backend.bus.publish({
    events: generateEvents(`presences.[presenceId].${action}`, { presenceId: presence.id }),
    channels: [
      'presences',
      `presences.${presence.id}`,
      `presences.${action}`,
      `presences.${presence.id}.${action}`,
    ],
    roles: presenceRoles(presence, 'read'),
    payload,
  });
}

/**
 * Appwrite's `PresenceState::setPermissions`: the caller's permissions (`write` expanded,
 * each role one the caller holds unless it is an API key), or by default read, update and
 * delete for the owner; sorted as Appwrite stores them.
 */
export function presencePermissions(
  raw: unknown,
  caller: Identity,
  owner: string,
  param = 'permissions',
): string[] {
  let permissions: string[];
  if (raw === undefined || raw === null) {
    permissions = PRESENCE_PERMISSIONS.map((type) => `${type}("user:${owner}")`);
  } else {
    const parsed = parsePermissions(raw, PRESENCE_PERMISSIONS, param);
    if (caller.kind !== 'key') assertCallerMaySet(parsed, caller.roles);
    permissions = formatPermissions(parsed);
  }
  return permissions.sort();
}

const MAX_EXPIRY_MS = 30 * 24 * 3600 * 1000;

function expiresAtParam(input: Record<string, unknown>): string | null {
  const value = input.expiresAt;
  if (value === undefined || value === null) return null;
  const normalized = typeof value === 'string' ? normalizeDate(value) : null;
  const time = normalized ? Date.parse(normalized) : NaN;
  const limit = Date.now() + MAX_EXPIRY_MS;
  if (!normalized || !(time > Date.now()) || time > limit) {
    throw invalidParam(
      'expiresAt',
      `Value must be valid date in the future and between ${formatDate(Date.now())} and ${formatDate(limit)}.`,
    );
  }
  return normalized;
}

function canSee(ctx: RequestContext, presence: PresenceRecord): boolean {
  if (expired(presence)) return false;
  return (
    ctx.identity.kind === 'key' || isGranted(presenceRoles(presence, 'read'), ctx.identity.roles)
  );
}

function visiblePresence(ctx: RequestContext): PresenceRecord {
  const presence = presenceStore(ctx.backend).get(ctx.params.presenceId!);
  if (!presence || !canSee(ctx, presence)) throw new ApiError('presence_not_found');
  return presence;
}

function assertMay(ctx: RequestContext, presence: PresenceRecord, type: PermissionType): void {
  if (ctx.identity.kind === 'key') return;
  if (!isGranted(presenceRoles(presence, type), ctx.identity.roles)) {
    throw new ApiError('user_unauthorized', `No permissions provided for action '${type}'`);
  }
}

/** `userId` targets another user: only API keys may send it. */
function targetUser(ctx: RequestContext): string | null {
  const userId = ctx.input.userId;
  if (userId === undefined || userId === null || userId === '') return null;
  if (ctx.identity.kind !== 'key') {
    throw new ApiError(
      'general_unauthorized_scope',
      'userId is not allowed for non-API key and non-privileged users',
    );
  }
  const id = resolveId('userId', userId);
  if (!ctx.backend.auth.getUser(id)) throw new ApiError('user_not_found');
  return id;
}

const LIST_ATTRIBUTES = [
  'userId',
  'status',
  'source',
  'expiresAt',
  '$id',
  '$createdAt',
  '$updatedAt',
];

function attributeOf(presence: PresenceRecord, attribute: string): unknown {
  const model = presenceModel(presence);
  return model[attribute];
}

/** Filters, orders and pages a presence list the way `GET /v1/presences` takes `queries`. */
function listPresences(
  ctx: RequestContext,
  all: PresenceRecord[],
): { total: number; presences: PresenceRecord[] } {
  let list = all;
  let limit = 25;
  let offset = 0;
  let cursor: { id: string; after: boolean } | null = null;
  let order: { attribute: string; desc: boolean } | null = null;
  const raw = ctx.input.queries ?? [];
  if (!Array.isArray(raw))
    throw new ApiError('general_query_invalid', 'Invalid query: queries must be an array.');
  for (const item of raw) {
    let query: { method?: unknown; attribute?: unknown; values?: unknown };
    try {
      query = (typeof item === 'string' ? JSON.parse(item) : item) as typeof query;
    } catch {
      throw new ApiError('general_query_invalid', 'Invalid query: Syntax error');
    }
    const values = Array.isArray(query.values) ? query.values : [];
    const attribute = typeof query.attribute === 'string' ? query.attribute : '';
    const needsAttribute = ['equal', 'notEqual', 'orderAsc', 'orderDesc'].includes(
      String(query.method),
    );
    if (needsAttribute && !LIST_ATTRIBUTES.includes(attribute)) {
      throw new ApiError(
        'general_query_invalid',
        `Invalid query: Attribute not found in schema: ${attribute}`,
      );
    }
    switch (query.method) {
      case 'equal':
        list = list.filter((p) => values.includes(attributeOf(p, attribute)));
        break;
      case 'notEqual':
        list = list.filter((p) => !values.includes(attributeOf(p, attribute)));
        break;
      case 'orderAsc':
      case 'orderDesc':
        order = { attribute, desc: query.method === 'orderDesc' };
        break;
      case 'limit':
        if (typeof values[0] !== 'number' || values[0] < 1 || values[0] > 5000) {
          throw new ApiError(
            'general_query_invalid',
            'Invalid query: Invalid limit: Value must be a valid range between 1 and 5,000',
          );
        }
        limit = values[0];
        break;
      case 'offset':
        if (typeof values[0] !== 'number' || values[0] < 0)
          throw new ApiError('general_query_invalid', 'Invalid query: Invalid offset');
        offset = values[0];
        break;
      case 'cursorAfter':
      case 'cursorBefore':
        cursor = { id: String(values[0]), after: query.method === 'cursorAfter' };
        break;
      default:
        throw new ApiError(
          'general_query_invalid',
          `Invalid query: Query method not valid: ${String(query.method)}`,
        );
    }
  }
  const total = list.length;
  if (order) {
    const { attribute, desc } = order;
    list = [...list].sort((a, b) => {
      const x = String(attributeOf(a, attribute) ?? '');
      const y = String(attributeOf(b, attribute) ?? '');
      const sign = x < y ? -1 : x > y ? 1 : a.sequence - b.sequence;
      return desc ? -sign : sign;
    });
  }
  if (cursor) {
    const index = list.findIndex((p) => p.id === cursor.id);
    if (index < 0) {
      throw new ApiError(
        'general_cursor_not_found',
        `Presence '${cursor.id}' for the 'cursor' value not found.`,
      );
    }
    list = cursor.after ? list.slice(index + 1) : list.slice(0, index);
    if (!cursor.after) list = list.slice(Math.max(0, list.length - limit));
  }
  return { total, presences: list.slice(offset, offset + limit) };
}

/** `/v1/presences`: list, get, upsert (PUT), update (PATCH) and delete, as the SDKs' `Presences` call them. */
export function presenceRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/presences',
      scope: 'presences.read',
      handler: (ctx) => {
        const visible = presenceStore(ctx.backend)
          .all()
          .filter((presence) => canSee(ctx, presence));
        const { total, presences } = listPresences(ctx, visible);
        return ok({
          total: bool(ctx.input, 'total', true) ? total : 0,
          presences: presences.map(presenceModel),
        });
      },
    },
    {
      method: 'GET',
      path: '/presences/:presenceId',
      scope: 'presences.read',
      handler: (ctx) => ok(presenceModel(visiblePresence(ctx))),
    },
    {
      method: 'PUT',
      path: '/presences/:presenceId',
      scope: 'presences.write',
      handler: (ctx) => {
        const presenceId = resolveId('presenceId', ctx.params.presenceId);
        const userId = targetUser(ctx);
        if (ctx.identity.kind === 'key' && !userId) {
          throw new ApiError(
            'general_bad_request',
            'userId is required for API key authentication',
          );
        }
        const owner = userId ?? (ctx.identity.kind === 'user' ? ctx.identity.user.id : null);
        if (!owner) throw new ApiError('user_unauthorized');
        const status = text(ctx.input, 'status', { required: true, max: 255 });
        const permissions = presencePermissions(ctx.input.permissions, ctx.identity, owner);
        const expiresAt = expiresAtParam(ctx.input) ?? formatDate(Date.now() + 15 * 60 * 1000);
        const metadata = object(ctx.input, 'metadata') ?? {};
        const presence = presenceStore(ctx.backend).upsertForUser({
          presenceId,
          userId: owner,
          status,
          source: 'rest',
          expiresAt,
          metadata,
          permissions,
        });
        publishPresence(ctx.backend, presence, 'upsert', presenceModel(presence));
        return ok(presenceModel(presence));
      },
    },
    {
      method: 'PATCH',
      path: '/presences/:presenceId',
      scope: 'presences.write',
      handler: (ctx) => {
        const userId = targetUser(ctx);
        const presence = visiblePresence(ctx);
        assertMay(ctx, presence, 'update');
        const patch: Parameters<PresenceStore['update']>[1] = {};
        if (ctx.input.status !== undefined && ctx.input.status !== null)
          patch.status = text(ctx.input, 'status', { max: 255 });
        const expiresAt = expiresAtParam(ctx.input);
        if (expiresAt) patch.expiresAt = expiresAt;
        const metadata = object(ctx.input, 'metadata');
        if (metadata) patch.metadata = metadata;
        if (ctx.input.permissions !== undefined && ctx.input.permissions !== null) {
          patch.permissions = presencePermissions(
            ctx.input.permissions,
            ctx.identity,
            userId ?? presence.userId,
          );
        } else if (userId && userId !== presence.userId) {
          patch.permissions = presencePermissions(null, ctx.identity, userId);
        }
        if (userId && userId !== presence.userId) patch.userId = userId;
        if (Object.keys(patch).length === 0) return ok(presenceModel(presence));
        const updated = presenceStore(ctx.backend).update(presence.id, patch);
        publishPresence(ctx.backend, updated, 'update', presenceModel(updated));
        return ok(presenceModel(updated));
      },
    },
    {
      method: 'DELETE',
      path: '/presences/:presenceId',
      scope: 'presences.write',
      handler: (ctx) => {
        const presence = visiblePresence(ctx);
        assertMay(ctx, presence, 'delete');
        presenceStore(ctx.backend).delete(presence.id);
        publishPresence(ctx.backend, presence, 'delete', presenceModel(presence));
        return noContent();
      },
    },
  ];
}
