import type { UserRecord } from '../../core/auth/users.ts';
import { invalidParam } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, email, integer, object, password, stringArray, text } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
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
  route('POST', '/users', 'users.write', createUser),
  route('GET', '/users', 'users.read', listUsers),
  route('GET', '/users/:userId', 'users.read', getUser),
  route('DELETE', '/users/:userId', 'users.write', deleteUser),
  route('PUT', '/users/:userId/labels', 'users.write', updateLabels),
  route('PATCH', '/users/:userId/name', 'users.write', updateName),
  route('PATCH', '/users/:userId/email', 'users.write', updateEmail),
  route('PATCH', '/users/:userId/password', 'users.write', updatePassword),
  route('PATCH', '/users/:userId/status', 'users.write', updateStatus),
  route('PATCH', '/users/:userId/verification', 'users.write', updateVerification),
  route('GET', '/users/:userId/prefs', 'users.read', getPrefs),
  route('PATCH', '/users/:userId/prefs', 'users.write', updatePrefs),
  route('GET', '/users/:userId/sessions', 'users.read', listSessions),
  route('POST', '/users/:userId/sessions', 'users.write', createSession),
  route('DELETE', '/users/:userId/sessions', 'users.write', deleteSessions),
  route('DELETE', '/users/:userId/sessions/:sessionId', 'users.write', deleteSession),
  route('GET', '/users/:userId/memberships', 'users.read', listMemberships),
  route('POST', '/users/:userId/jwts', 'users.write', createJwt),
];
