import type { Backend, BackendModule } from '../backend.ts';
import type { Identity, SessionRecord, UserRecord } from '../core/auth.ts';
import { generateEvents } from '../core/events.ts';
import { resolveId } from '../core/ids.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError, invalidParam } from '../http/errors.ts';
import { email, object, text } from '../http/params.ts';
import { created, noContent, ok, type Cookie, type Reply } from '../http/reply.ts';
import { sessionModel, userModel } from './models.ts';

/** Checks a password as Appwrite does (8–256 characters). */
export function validatePassword(value: unknown, name = 'password'): string {
  if (typeof value !== 'string' || value.length < 8 || value.length > 256) {
    throw invalidParam(name, 'Password must be between 8 and 256 characters long.');
  }
  return value;
}

/** The signed-in user of a request, or Appwrite's "missing scope" error for guests. */
export function currentUser(ctx: RequestContext): {
  user: UserRecord;
  session: SessionRecord | null;
} {
  const identity = ctx.identity;
  if (identity.kind !== 'user') throw new ApiError('user_unauthorized');
  return { user: identity.user, session: identity.session };
}

function sessionCookies(backend: Backend, value: string, expire: string): Cookie[] {
  const name = `a_session_${backend.config.projectId}`;
  const expires = new Date(expire);
  return [
    { name, value, expires, httpOnly: true, sameSite: 'None' },
    { name: `${name}_legacy`, value, expires, httpOnly: true },
  ];
}

/** Publishes `users.[userId].sessions.[sessionId].create|delete` to the user's own connections. */
function publishSessionEvent(
  backend: Backend,
  session: SessionRecord,
  action: 'create' | 'delete',
  payload: Record<string, unknown>,
): void {
  backend.bus.publish({
    events: generateEvents(`users.[userId].sessions.[sessionId].${action}`, {
      userId: session.userId,
      sessionId: session.id,
    }),
    channels: ['account', `account.${session.userId}`],
    roles: [`user:${session.userId}`],
    payload,
  });
}

/** Creates a session for `user` and the reply that sets its cookies. */
export function sessionReply(
  ctx: RequestContext,
  user: UserRecord,
  provider: 'email' | 'anonymous',
): Reply {
  const { backend } = ctx;
  const { session, cookieValue } = backend.auth.createSession(user.id, provider, {
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  });
  const isKey = ctx.identity.kind === 'key';
  const body = sessionModel(session, {
    current: true,
    providerUid: provider === 'email' ? user.email : '',
    ...(isKey ? { secret: cookieValue } : {}),
  });
  publishSessionEvent(backend, session, 'create', body);
  return created(body, {
    cookies: isKey ? [] : sessionCookies(backend, cookieValue, session.expire),
    headers: isKey
      ? {}
      : {
          'X-Fallback-Cookies': JSON.stringify({
            [`a_session_${backend.config.projectId}`]: cookieValue,
          }),
        },
  });
}

function assertNoSession(identity: Identity): void {
  if (identity.kind === 'user') throw new ApiError('user_session_already_exists');
}

function resolveSessionId(ctx: RequestContext, sessionId: string): SessionRecord {
  const { user, session: current } = currentUser(ctx);
  const id = sessionId === 'current' ? current?.id : sessionId;
  const session = id ? ctx.backend.auth.getSession(id) : null;
  if (!session || session.userId !== user.id) throw new ApiError('user_session_not_found');
  return session;
}

function publishUserUpdate(backend: Backend, user: UserRecord, event: string): void {
  backend.bus.publish({
    events: generateEvents(`users.[userId].${event}`, { userId: user.id }),
    channels: ['account', `account.${user.id}`],
    roles: [`user:${user.id}`],
    payload: userModel(user),
  });
}

/** The Account service: sign-up, email/password and anonymous sessions, JWTs, name and prefs. */
export const accountModule: BackendModule = {
  name: 'account',
  routes: () => [
    {
      method: 'POST',
      path: '/account',
      scope: 'sessions.write',
      handler: async (ctx) => {
        const id = resolveId('userId', ctx.input.userId);
        const address = email(ctx.input, 'email');
        const password = validatePassword(ctx.input.password);
        const name = text(ctx.input, 'name', { max: 128 });
        const hash = await ctx.backend.auth.hashPassword(password);
        const user = ctx.backend.auth.createUser({ id, email: address, passwordHash: hash, name });
        ctx.backend.bus.publish({
          events: generateEvents('users.[userId].create', { userId: user.id }),
          channels: [],
          roles: [],
          payload: userModel(user),
        });
        return created(userModel(user));
      },
    },
    {
      method: 'POST',
      path: '/account/sessions/email',
      scope: 'sessions.write',
      handler: async (ctx) => {
        assertNoSession(ctx.identity);
        const address = email(ctx.input, 'email');
        const password = validatePassword(ctx.input.password);
        const user = ctx.backend.auth.getUserByEmail(address);
        if (!user || !(await ctx.backend.auth.verifyPassword(user, password)))
          throw new ApiError('user_invalid_credentials');
        if (!user.status) throw new ApiError('user_blocked');
        return sessionReply(ctx, user, 'email');
      },
    },
    {
      method: 'POST',
      path: '/account/sessions/anonymous',
      scope: 'sessions.write',
      handler: (ctx) => {
        assertNoSession(ctx.identity);
        const user = ctx.backend.auth.createUser({
          id: resolveId('userId', 'unique()'),
          email: null,
          passwordHash: null,
          name: '',
        });
        return sessionReply(ctx, user, 'anonymous');
      },
    },
    {
      method: 'GET',
      path: '/account',
      scope: 'account',
      handler: (ctx) => ok(userModel(currentUser(ctx).user)),
    },
    {
      method: 'PATCH',
      path: '/account/name',
      scope: 'account',
      handler: (ctx) => {
        const { user } = currentUser(ctx);
        const updated = ctx.backend.auth.updateUser(user.id, {
          name: text(ctx.input, 'name', { required: true, max: 128 }),
        });
        publishUserUpdate(ctx.backend, updated, 'update.name');
        return ok(userModel(updated));
      },
    },
    {
      method: 'PATCH',
      path: '/account/password',
      scope: 'account',
      handler: async (ctx) => {
        const { user } = currentUser(ctx);
        const password = validatePassword(ctx.input.password);
        if (
          user.passwordHash &&
          !(await ctx.backend.auth.verifyPassword(user, String(ctx.input.oldPassword ?? '')))
        ) {
          throw new ApiError('user_invalid_credentials');
        }
        const updated = ctx.backend.auth.updateUser(user.id, {
          passwordHash: await ctx.backend.auth.hashPassword(password),
        });
        return ok(userModel(updated));
      },
    },
    {
      method: 'GET',
      path: '/account/prefs',
      scope: 'account',
      handler: (ctx) => ok(currentUser(ctx).user.prefs),
    },
    {
      method: 'PATCH',
      path: '/account/prefs',
      scope: 'account',
      handler: (ctx) => {
        const { user } = currentUser(ctx);
        const updated = ctx.backend.auth.updateUser(user.id, {
          prefs: object(ctx.input, 'prefs', true)!,
        });
        publishUserUpdate(ctx.backend, updated, 'update.prefs');
        return ok(userModel(updated));
      },
    },
    {
      method: 'GET',
      path: '/account/sessions',
      scope: 'account',
      handler: (ctx) => {
        const { user, session: current } = currentUser(ctx);
        const sessions = ctx.backend.auth.listSessions(user.id);
        return ok({
          total: sessions.length,
          sessions: sessions.map((s) => sessionModel(s, { current: s.id === current?.id })),
        });
      },
    },
    {
      method: 'GET',
      path: '/account/sessions/:sessionId',
      scope: 'account',
      handler: (ctx) => {
        const session = resolveSessionId(ctx, ctx.params.sessionId!);
        return ok(sessionModel(session, { current: session.id === currentUser(ctx).session?.id }));
      },
    },
    {
      method: 'DELETE',
      path: '/account/sessions/:sessionId',
      scope: 'account',
      handler: (ctx) => {
        const session = resolveSessionId(ctx, ctx.params.sessionId!);
        const isCurrent = session.id === currentUser(ctx).session?.id;
        ctx.backend.auth.deleteSession(session.id);
        publishSessionEvent(
          ctx.backend,
          session,
          'delete',
          sessionModel(session, { current: isCurrent }),
        );
        return noContent(isCurrent ? clearSessionReply(ctx.backend) : {});
      },
    },
    {
      method: 'DELETE',
      path: '/account/sessions',
      scope: 'account',
      handler: (ctx) => {
        const { user } = currentUser(ctx);
        for (const session of ctx.backend.auth.listSessions(user.id)) {
          ctx.backend.auth.deleteSession(session.id);
          publishSessionEvent(
            ctx.backend,
            session,
            'delete',
            sessionModel(session, { current: false }),
          );
        }
        return noContent(clearSessionReply(ctx.backend));
      },
    },
    {
      method: 'POST',
      path: '/account/jwts',
      scope: 'account',
      handler: (ctx) => {
        const { user, session } = currentUser(ctx);
        return created({ jwt: ctx.backend.auth.createJwt(user.id, session?.id ?? '') });
      },
    },
  ],
};

function clearSessionReply(backend: Backend): Partial<Reply> {
  const name = `a_session_${backend.config.projectId}`;
  const past = new Date(0);
  return {
    cookies: [
      { name, value: '', expires: past, httpOnly: true, sameSite: 'None' },
      { name: `${name}_legacy`, value: '', expires: past, httpOnly: true },
    ],
    headers: { 'X-Fallback-Cookies': '[]' },
  };
}
