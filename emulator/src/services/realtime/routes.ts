import { ApiError, invalidParam } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import { formatDate, normalizeDate } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, object, text } from '../../http/params.ts';
import { noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { presenceModel } from './models.ts';
import type { PresencePatch, RealtimeStore } from './store.ts';

/** A REST presence expires this long after it is written, unless the request says otherwise. */
const DEFAULT_EXPIRY_MS = 15 * 60 * 1000;
/** … and at most this long. */
const MAX_EXPIRY_MS = 30 * 24 * 3600 * 1000;

function store(ctx: RequestContext): RealtimeStore {
  return ctx.backend.services.realtime;
}

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
  if (!ctx.backend.auth.users.get(id)) throw new ApiError('user_not_found');
  return id;
}

function listPresences(ctx: RequestContext): Reply {
  const { total, page } = applyListQueries(
    store(ctx).listVisible(ctx.identity).map(presenceModel),
    ctx.input.queries,
    ['userId', 'status', 'source', 'expiresAt'],
    'Presence',
  );
  return ok({ total: bool(ctx.input, 'total', true) ? total : 0, presences: page });
}

function getPresence(ctx: RequestContext): Reply {
  return ok(presenceModel(store(ctx).visible(ctx.identity, ctx.params.presenceId!)));
}

function upsertPresence(ctx: RequestContext): Reply {
  const presenceId = resolveId('presenceId', ctx.params.presenceId);
  const userId = targetUser(ctx);
  if (ctx.identity.kind === 'key' && !userId) {
    throw new ApiError('general_bad_request', 'userId is required for API key authentication');
  }
  const owner = userId ?? (ctx.identity.kind === 'user' ? ctx.identity.user.id : null);
  if (!owner) throw new ApiError('user_unauthorized');
  const status = text(ctx.input, 'status', { required: true, max: 255 });
  const permissions = store(ctx).permissionsFor(ctx.input.permissions, ctx.identity, owner);
  const expiresAt = expiresAtParam(ctx.input) ?? formatDate(Date.now() + DEFAULT_EXPIRY_MS);
  const metadata = object(ctx.input, 'metadata') ?? {};
  const presence = store(ctx).upsertForUser({
    presenceId,
    userId: owner,
    status,
    source: 'rest',
    expiresAt,
    metadata,
    permissions,
  });
  return ok(presenceModel(presence));
}

function updatePresence(ctx: RequestContext): Reply {
  const userId = targetUser(ctx);
  const presence = store(ctx).visible(ctx.identity, ctx.params.presenceId!);
  store(ctx).assertMay(ctx.identity, presence, 'update');
  const patch: PresencePatch = {};
  if (ctx.input.status !== undefined && ctx.input.status !== null)
    patch.status = text(ctx.input, 'status', { max: 255 });
  const expiresAt = expiresAtParam(ctx.input);
  if (expiresAt) patch.expiresAt = expiresAt;
  const metadata = object(ctx.input, 'metadata');
  if (metadata) patch.metadata = metadata;
  const owner = userId ?? presence.userId;
  if (ctx.input.permissions !== undefined && ctx.input.permissions !== null)
    patch.permissions = store(ctx).permissionsFor(ctx.input.permissions, ctx.identity, owner);
  else if (userId && userId !== presence.userId)
    patch.permissions = store(ctx).permissionsFor(null, ctx.identity, userId);
  if (userId && userId !== presence.userId) patch.userId = userId;
  if (Object.keys(patch).length === 0) return ok(presenceModel(presence));
  return ok(presenceModel(store(ctx).update(presence.id, patch)));
}

function deletePresence(ctx: RequestContext): Reply {
  const presence = store(ctx).visible(ctx.identity, ctx.params.presenceId!);
  store(ctx).assertMay(ctx.identity, presence, 'delete');
  store(ctx).delete(presence.id, 'rest');
  return noContent();
}

/** `/v1/presences`: list, get, upsert (PUT), update (PATCH) and delete, as the SDKs' `Presences` call them. */
export const routes: readonly Route[] = [
  route('GET', '/presences', 'presences.read', listPresences),
  route('GET', '/presences/:presenceId', 'presences.read', getPresence),
  route('PUT', '/presences/:presenceId', 'presences.write', upsertPresence),
  route('PATCH', '/presences/:presenceId', 'presences.write', updatePresence),
  route('DELETE', '/presences/:presenceId', 'presences.write', deletePresence),
];
