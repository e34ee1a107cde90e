import type { SessionRecord } from '../../core/auth/sessions.ts';
import type { UserRecord } from '../../core/auth/users.ts';
import { ApiError } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import type { RequestContext } from '../../http/context.ts';
import { email, object, password, text } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { clearedSessionCookies, sessionCookies } from '../../http/session-cookies.ts';
import { userModel } from '../users/models.ts';
import { sessionModel } from './models.ts';
import type { AccountStore } from './store.ts';

function store(ctx: RequestContext): AccountStore {
  return ctx.backend.services.account;
}

/** The signed-in user of a request, or `user_unauthorized` for guests and API keys. */
function currentUser(ctx: RequestContext): { user: UserRecord; session: SessionRecord | null } {
  const identity = ctx.identity;
  if (identity.kind !== 'user') throw new ApiError('user_unauthorized');
  return { user: identity.user, session: identity.session };
}

function assertNoSession(ctx: RequestContext): void {
  if (ctx.identity.kind === 'user') throw new ApiError('user_session_already_exists');
}

/** Opens a session for `user`: 201 with the session, its cookies for a browser, its secret for a key. */
function sessionReply(
  ctx: RequestContext,
  user: UserRecord,
  provider: 'email' | 'anonymous',
): Reply {
  const isKey = ctx.identity.kind === 'key';
  const { session, cookieValue, model } = store(ctx).openSession(
    user,
    provider,
    { ip: ctx.ip, userAgent: ctx.userAgent },
    isKey,
  );
  return created(model, sessionCookies(ctx, cookieValue, session.expire));
}

async function createAccount(ctx: RequestContext): Promise<Reply> {
  const id = resolveId('userId', ctx.input.userId);
  const address = email(ctx.input, 'email');
  const secret = password(ctx.input);
  const name = text(ctx.input, 'name', { max: 128 });
  const user = await store(ctx).signUp({ id, email: address, password: secret, name });
  return created(userModel(user));
}

async function createEmailSession(ctx: RequestContext): Promise<Reply> {
  assertNoSession(ctx);
  const address = email(ctx.input, 'email');
  const secret = password(ctx.input);
  return sessionReply(ctx, await store(ctx).checkCredentials(address, secret), 'email');
}

function createAnonymousSession(ctx: RequestContext): Reply {
  assertNoSession(ctx);
  return sessionReply(ctx, store(ctx).createAnonymousUser(), 'anonymous');
}

function getAccount(ctx: RequestContext): Reply {
  return ok(userModel(currentUser(ctx).user));
}

function updateName(ctx: RequestContext): Reply {
  const { user } = currentUser(ctx);
  const name = text(ctx.input, 'name', { required: true, max: 128 });
  return ok(userModel(ctx.backend.services.users.update(user.id, { name }, 'update.name')));
}

async function updatePassword(ctx: RequestContext): Promise<Reply> {
  const { user } = currentUser(ctx);
  const secret = password(ctx.input);
  const oldPassword = String(ctx.input.oldPassword ?? '');
  return ok(userModel(await store(ctx).updatePassword(user, secret, oldPassword)));
}

function getPrefs(ctx: RequestContext): Reply {
  return ok(currentUser(ctx).user.prefs);
}

function updatePrefs(ctx: RequestContext): Reply {
  const { user } = currentUser(ctx);
  const prefs = object(ctx.input, 'prefs', true)!;
  return ok(userModel(ctx.backend.services.users.update(user.id, { prefs }, 'update.prefs')));
}

function listSessions(ctx: RequestContext): Reply {
  const { user, session: current } = currentUser(ctx);
  const sessions = store(ctx).sessions(user);
  return ok({
    total: sessions.length,
    sessions: sessions.map((s) => sessionModel(s, { current: s.id === current?.id })),
  });
}

function getSession(ctx: RequestContext): Reply {
  const { user, session: current } = currentUser(ctx);
  const session = store(ctx).session(user, current, ctx.params.sessionId!);
  return ok(sessionModel(session, { current: session.id === current?.id }));
}

function deleteSession(ctx: RequestContext): Reply {
  const { user, session: current } = currentUser(ctx);
  const session = store(ctx).session(user, current, ctx.params.sessionId!);
  const isCurrent = session.id === current?.id;
  store(ctx).deleteSession(session, isCurrent);
  return noContent(isCurrent ? clearedSessionCookies(ctx.backend.config.projectId) : {});
}

function deleteSessions(ctx: RequestContext): Reply {
  store(ctx).deleteSessions(currentUser(ctx).user);
  return noContent(clearedSessionCookies(ctx.backend.config.projectId));
}

function createJwt(ctx: RequestContext): Reply {
  const { user, session } = currentUser(ctx);
  return created({ jwt: store(ctx).createJwt(user, session) });
}

/** The Account service: sign-up, email/password and anonymous sessions, JWTs, name and prefs. */
export const routes: readonly Route[] = [
  route('POST', '/account', 'sessions.write', createAccount),
  route('POST', '/account/sessions/email', 'sessions.write', createEmailSession),
  route('POST', '/account/sessions/anonymous', 'sessions.write', createAnonymousSession),
  route('GET', '/account', 'account', getAccount),
  route('PATCH', '/account/name', 'account', updateName),
  route('PATCH', '/account/password', 'account', updatePassword),
  route('GET', '/account/prefs', 'account', getPrefs),
  route('PATCH', '/account/prefs', 'account', updatePrefs),
  route('GET', '/account/sessions', 'account', listSessions),
  route('GET', '/account/sessions/:sessionId', 'account', getSession),
  route('DELETE', '/account/sessions/:sessionId', 'account', deleteSession),
  route('DELETE', '/account/sessions', 'account', deleteSessions),
  route('POST', '/account/jwts', 'account', createJwt),
];
