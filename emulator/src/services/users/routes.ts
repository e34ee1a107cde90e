import type { UserRecord } from '../../core/auth/users.ts';
import { invalidParam } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, email, integer, object, password, stringArray, text } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import type { Route } from '../../http/router.ts';
import { sessionModel } from '../account/models.ts';
import { userModel } from './models.ts';
import type { UsersStore } from './store.ts';

const LABEL = /^[a-zA-Z0-9]{1,36}$/;

function store(ctx: RequestContext): UsersStore {
  return ctx.backend.services.users;
}

/** The user of `:userId`, or `user_not_found`. */
function user(ctx: RequestContext): UserRecord {
  return store(ctx).get(ctx.params.userId!);
}

async function createUser(ctx: RequestContext): Promise<Reply> {
  const id = resolveId('userId', ctx.input.userId);
  const address =
    ctx.input.email === undefined || ctx.input.email === null ? null : email(ctx.input, 'email');
  const secret =
    ctx.input.password === undefined || ctx.input.password === null ? null : password(ctx.input);
  const newUser = await store(ctx).create({
    id,
    email: address,
    phone: typeof ctx.input.phone === 'string' ? ctx.input.phone : null,
    password: secret,
    name: text(ctx.input, 'name', { max: 128 }),
  });
  return created(userModel(newUser));
}

function listUsers(ctx: RequestContext): Reply {
  const search = typeof ctx.input.search === 'string' ? ctx.input.search : undefined;
  const { total, page } = applyListQueries(
    store(ctx).list(search).map(userModel),
    ctx.input.queries,
    ['email', 'name'],
    'User',
  );
  return ok({ total, users: page });
}

function getUser(ctx: RequestContext): Reply {
  return ok(userModel(user(ctx)));
}

function deleteUser(ctx: RequestContext): Reply {
  store(ctx).delete(user(ctx));
  return noContent();
}

function updateLabels(ctx: RequestContext): Reply {
  const { id } = user(ctx);
  const labels = stringArray(ctx.input, 'labels', { required: true, maxLength: 36 });
  if (labels.some((label) => !LABEL.test(label)))
    throw invalidParam('labels', 'Value must be alphanumeric and at most 36 chars');
  return ok(userModel(store(ctx).update(id, { labels }, 'update.labels')));
}

function updateName(ctx: RequestContext): Reply {
  const { id } = user(ctx);
  const name = text(ctx.input, 'name', { required: true, max: 128 });
  return ok(userModel(store(ctx).update(id, { name }, 'update.name')));
}

function updateEmail(ctx: RequestContext): Reply {
  const { id } = user(ctx);
  return ok(userModel(store(ctx).update(id, { email: email(ctx.input, 'email') }, 'update.email')));
}

async function updatePassword(ctx: RequestContext): Promise<Reply> {
  const { id } = user(ctx);
  return ok(userModel(await store(ctx).updatePassword(id, password(ctx.input))));
}

function updateStatus(ctx: RequestContext): Reply {
  const { id } = user(ctx);
  return ok(userModel(store(ctx).updateStatus(id, bool(ctx.input, 'status', true))));
}

function updateVerification(ctx: RequestContext): Reply {
  const { id } = user(ctx);
  const emailVerification = bool(ctx.input, 'emailVerification', false);
  return ok(userModel(store(ctx).update(id, { emailVerification }, 'update.verification')));
}

function getPrefs(ctx: RequestContext): Reply {
  return ok(user(ctx).prefs);
}

function updatePrefs(ctx: RequestContext): Reply {
  const { id } = user(ctx);
  return ok(store(ctx).update(id, { prefs: object(ctx.input, 'prefs', true)! }, null).prefs);
}

function listSessions(ctx: RequestContext): Reply {
  const sessions = store(ctx).sessions(user(ctx));
  return ok({
    total: sessions.length,
    sessions: sessions.map((session) => sessionModel(session, { current: false })),
  });
}

function createSession(ctx: RequestContext): Reply {
  const { session, cookieValue } = store(ctx).createSession(user(ctx), {
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  return created(sessionModel(session, { current: false, secret: cookieValue }));
}

function deleteSessions(ctx: RequestContext): Reply {
  store(ctx).deleteSessions(user(ctx));
  return noContent();
}

function deleteSession(ctx: RequestContext): Reply {
  store(ctx).deleteSession(user(ctx), ctx.params.sessionId!);
  return noContent();
}

function listMemberships(ctx: RequestContext): Reply {
  const memberships = store(ctx).memberships(user(ctx));
  const teams = ctx.backend.services.teams;
  return ok({
    total: memberships.length,
    memberships: memberships.map((membership) => teams.membershipModelOf(membership)),
  });
}

function createJwt(ctx: RequestContext): Reply {
  const subject = user(ctx);
  const sessionId = typeof ctx.input.sessionId === 'string' ? ctx.input.sessionId : '';
  const duration = integer(ctx.input, 'duration', { min: 0, max: 3600, fallback: 900 })!;
  return created({ jwt: store(ctx).createJwt(subject, sessionId, duration * 1000) });
}

/** The Users service (API keys only): what scripts need to manage accounts. */
export const routes: readonly Route[] = [
  { method: 'POST', path: '/users', scope: 'users.write', handler: createUser },
  { method: 'GET', path: '/users', scope: 'users.read', handler: listUsers },
  { method: 'GET', path: '/users/:userId', scope: 'users.read', handler: getUser },
  { method: 'DELETE', path: '/users/:userId', scope: 'users.write', handler: deleteUser },
  { method: 'PUT', path: '/users/:userId/labels', scope: 'users.write', handler: updateLabels },
  { method: 'PATCH', path: '/users/:userId/name', scope: 'users.write', handler: updateName },
  { method: 'PATCH', path: '/users/:userId/email', scope: 'users.write', handler: updateEmail },
  {
    method: 'PATCH',
    path: '/users/:userId/password',
    scope: 'users.write',
    handler: updatePassword,
  },
  { method: 'PATCH', path: '/users/:userId/status', scope: 'users.write', handler: updateStatus },
  {
    method: 'PATCH',
    path: '/users/:userId/verification',
    scope: 'users.write',
    handler: updateVerification,
  },
  { method: 'GET', path: '/users/:userId/prefs', scope: 'users.read', handler: getPrefs },
  { method: 'PATCH', path: '/users/:userId/prefs', scope: 'users.write', handler: updatePrefs },
  { method: 'GET', path: '/users/:userId/sessions', scope: 'users.read', handler: listSessions },
  {
    method: 'POST',
    path: '/users/:userId/sessions',
    scope: 'users.write',
    handler: createSession,
  },
  {
    method: 'DELETE',
    path: '/users/:userId/sessions',
    scope: 'users.write',
    handler: deleteSessions,
  },
  {
    method: 'DELETE',
    path: '/users/:userId/sessions/:sessionId',
    scope: 'users.write',
    handler: deleteSession,
  },
  {
    method: 'GET',
    path: '/users/:userId/memberships',
    scope: 'users.read',
    handler: listMemberships,
  },
  { method: 'POST', path: '/users/:userId/jwts', scope: 'users.write', handler: createJwt },
];
