import type { BackendModule } from '../backend.ts';
import type { UserRecord } from '../core/auth.ts';
import { generateEvents } from '../core/events.ts';
import { resolveId } from '../core/ids.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError, invalidParam } from '../http/errors.ts';
import { parseSimpleListQueries } from '../http/list-queries.ts';
import { bool, email, integer, object, stringArray, text } from '../http/params.ts';
import { created, noContent, ok } from '../http/reply.ts';
import { validatePassword } from './account.ts';
import { membershipModel, sessionModel, userModel } from './models.ts';

function findUser(ctx: RequestContext): UserRecord {
  const user = ctx.backend.auth.getUser(ctx.params.userId!);
  if (!user) throw new ApiError('user_not_found');
  return user;
}

function publish(ctx: RequestContext, user: UserRecord, action: string): void {
  ctx.backend.bus.publish({
    events: generateEvents(`users.[userId].${action}`, { userId: user.id }),
    channels: ['account', `account.${user.id}`],
    roles: [`user:${user.id}`],
    payload: userModel(user),
  });
}

/** The Users service (API keys only): what scripts need to manage accounts. */
export const usersModule: BackendModule = {
  name: 'users',
  routes: () => [
    {
      method: 'POST',
      path: '/users',
      scope: 'users.write',
      handler: async (ctx) => {
        const id = resolveId('userId', ctx.input.userId);
        const address =
          ctx.input.email === undefined || ctx.input.email === null
            ? null
            : email(ctx.input, 'email');
        const password =
          ctx.input.password === undefined || ctx.input.password === null
            ? null
            : validatePassword(ctx.input.password);
        const user = ctx.backend.auth.createUser({
          id,
          email: address,
          phone: typeof ctx.input.phone === 'string' ? ctx.input.phone : null,
          passwordHash: password ? await ctx.backend.auth.hashPassword(password) : null,
          name: text(ctx.input, 'name', { max: 128 }),
        });
        publish(ctx, user, 'create');
        return created(userModel(user));
      },
    },
    {
      method: 'GET',
      path: '/users',
      scope: 'users.read',
      handler: (ctx) => {
        const query = parseSimpleListQueries(ctx.input.queries, ['email', 'name']);
        const emailFilter = query.equal.get('email');
        if (emailFilter) {
          const users = emailFilter
            .map((value) => ctx.backend.auth.getUserByEmail(String(value)))
            .filter((u): u is UserRecord => u !== null);
          return ok({ total: users.length, users: users.map(userModel) });
        }
        const search = typeof ctx.input.search === 'string' ? ctx.input.search : undefined;
        const { total, users } = ctx.backend.auth.listUsers({
          ...(search ? { search } : {}),
          limit: query.limit,
          offset: query.offset,
        });
        return ok({ total, users: users.map(userModel) });
      },
    },
    {
      method: 'GET',
      path: '/users/:userId',
      scope: 'users.read',
      handler: (ctx) => ok(userModel(findUser(ctx))),
    },
    {
      method: 'DELETE',
      path: '/users/:userId',
      scope: 'users.write',
      handler: (ctx) => {
        const user = findUser(ctx);
        ctx.backend.auth.deleteUser(user.id);
        publish(ctx, user, 'delete');
        return noContent();
      },
    },
    {
      method: 'PUT',
      path: '/users/:userId/labels',
      scope: 'users.write',
      handler: (ctx) => {
        findUser(ctx);
        const labels = stringArray(ctx.input, 'labels', { required: true, maxLength: 36 });
        if (labels.some((label) => !/^[a-zA-Z0-9]{1,36}$/.test(label)))
          throw invalidParam('labels', 'Value must be alphanumeric and at most 36 chars');
        const user = ctx.backend.auth.updateUser(ctx.params.userId!, { labels });
        publish(ctx, user, 'update.labels');
        return ok(userModel(user));
      },
    },
    {
      method: 'PATCH',
      path: '/users/:userId/name',
      scope: 'users.write',
      handler: (ctx) => {
        findUser(ctx);
        const user = ctx.backend.auth.updateUser(ctx.params.userId!, {
          name: text(ctx.input, 'name', { required: true, max: 128 }),
        });
        publish(ctx, user, 'update.name');
        return ok(userModel(user));
      },
    },
    {
      method: 'PATCH',
      path: '/users/:userId/email',
      scope: 'users.write',
      handler: (ctx) => {
        findUser(ctx);
        const user = ctx.backend.auth.updateUser(ctx.params.userId!, {
          email: email(ctx.input, 'email'),
        });
        publish(ctx, user, 'update.email');
        return ok(userModel(user));
      },
    },
    {
      method: 'PATCH',
      path: '/users/:userId/password',
      scope: 'users.write',
      handler: async (ctx) => {
        findUser(ctx);
        const hash = await ctx.backend.auth.hashPassword(validatePassword(ctx.input.password));
        const user = ctx.backend.auth.updateUser(ctx.params.userId!, { passwordHash: hash });
        publish(ctx, user, 'update.password');
        return ok(userModel(user));
      },
    },
    {
      method: 'PATCH',
      path: '/users/:userId/status',
      scope: 'users.write',
      handler: (ctx) => {
        findUser(ctx);
        const status = bool(ctx.input, 'status', true);
        const user = ctx.backend.auth.updateUser(ctx.params.userId!, { status });
        if (!status) ctx.backend.auth.deleteSessions(user.id);
        publish(ctx, user, 'update.status');
        return ok(userModel(user));
      },
    },
    {
      method: 'PATCH',
      path: '/users/:userId/verification',
      scope: 'users.write',
      handler: (ctx) => {
        findUser(ctx);
        const user = ctx.backend.auth.updateUser(ctx.params.userId!, {
          emailVerification: bool(ctx.input, 'emailVerification', false),
        });
        publish(ctx, user, 'update.verification');
        return ok(userModel(user));
      },
    },
    {
      method: 'GET',
      path: '/users/:userId/prefs',
      scope: 'users.read',
      handler: (ctx) => ok(findUser(ctx).prefs),
    },
    {
      method: 'PATCH',
      path: '/users/:userId/prefs',
      scope: 'users.write',
      handler: (ctx) => {
        findUser(ctx);
        const user = ctx.backend.auth.updateUser(ctx.params.userId!, {
          prefs: object(ctx.input, 'prefs', true)!,
        });
        return ok(user.prefs);
      },
    },
    {
      method: 'GET',
      path: '/users/:userId/sessions',
      scope: 'users.read',
      handler: (ctx) => {
        const sessions = ctx.backend.auth.listSessions(findUser(ctx).id);
        return ok({
          total: sessions.length,
          sessions: sessions.map((s) => sessionModel(s, { current: false })),
        });
      },
    },
    {
      method: 'POST',
      path: '/users/:userId/sessions',
      scope: 'users.write',
      handler: (ctx) => {
        const user = findUser(ctx);
        const { session, cookieValue } = ctx.backend.auth.createSession(user.id, 'server', {
          ip: ctx.ip,
          userAgent: ctx.userAgent,
        });
        return created(sessionModel(session, { current: false, secret: cookieValue }));
      },
    },
    {
      method: 'DELETE',
      path: '/users/:userId/sessions',
      scope: 'users.write',
      handler: (ctx) => {
        ctx.backend.auth.deleteSessions(findUser(ctx).id);
        return noContent();
      },
    },
    {
      method: 'DELETE',
      path: '/users/:userId/sessions/:sessionId',
      scope: 'users.write',
      handler: (ctx) => {
        const user = findUser(ctx);
        const session = ctx.backend.auth.getSession(ctx.params.sessionId!);
        if (!session || session.userId !== user.id) throw new ApiError('user_session_not_found');
        ctx.backend.auth.deleteSession(session.id);
        return noContent();
      },
    },
    {
      method: 'GET',
      path: '/users/:userId/memberships',
      scope: 'users.read',
      handler: (ctx) => {
        const memberships = ctx.backend.auth.userMemberships(findUser(ctx).id);
        return ok({
          total: memberships.length,
          memberships: memberships.map((m) => membershipModel(ctx.backend, m)),
        });
      },
    },
    {
      method: 'POST',
      path: '/users/:userId/jwts',
      scope: 'users.write',
      handler: (ctx) => {
        const user = findUser(ctx);
        const sessionId = typeof ctx.input.sessionId === 'string' ? ctx.input.sessionId : '';
        if (sessionId && sessionId !== 'recent' && !ctx.backend.auth.getSession(sessionId))
          throw new ApiError('user_session_not_found');
        const latest = ctx.backend.auth.listSessions(user.id).at(-1);
        const id = sessionId === 'recent' || sessionId === '' ? (latest?.id ?? '') : sessionId;
        const duration = integer(ctx.input, 'duration', { min: 0, max: 3600, fallback: 900 })!;
        return created({ jwt: ctx.backend.auth.createJwt(user.id, id, duration * 1000) });
      },
    },
  ],
};
