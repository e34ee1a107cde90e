import type { TeamRecord } from '../../core/auth/teams.ts';
import type { UserRecord } from '../../core/auth/users.ts';
import { ApiError, invalidParam } from '../../core/errors.ts';
import { resolveId, uniqueId } from '../../core/ids.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import type { RequestContext } from '../../http/context.ts';
import { email, object, stringArray, text } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { sessionCookies } from '../../http/session-cookies.ts';
import type { TeamsStore } from './store.ts';

const ROLE = /^[a-zA-Z0-9_-]{1,32}$/;

function store(ctx: RequestContext): TeamsStore {
  return ctx.backend.services.teams;
}

function parseRoles(ctx: RequestContext, isRequired: boolean): string[] {
  const roles = stringArray(ctx.input, 'roles', { required: isRequired, maxLength: 32 });
  for (const role of roles)
    if (!ROLE.test(role))
      throw invalidParam('roles', `Role "${role}" must be 1–32 chars of a-z, A-Z, 0-9, _ and -`);
  return roles;
}

function searchParam(ctx: RequestContext): string | undefined {
  return typeof ctx.input.search === 'string' && ctx.input.search ? ctx.input.search : undefined;
}

/** The team of `:teamId` when the caller may see it (API key or member), else `team_not_found`. */
function visibleTeam(ctx: RequestContext): TeamRecord {
  const team = store(ctx).get(ctx.params.teamId!);
  if (ctx.identity.kind === 'key') return team;
  if (!ctx.identity.roles.has(`team:${team.id}`)) throw new ApiError('team_not_found');
  return team;
}

/** The team of `:teamId` when the caller is an API key or the team's owner, else `user_unauthorized`. */
function ownedTeam(ctx: RequestContext): TeamRecord {
  const team = visibleTeam(ctx);
  if (ctx.identity.kind !== 'key' && !ctx.identity.roles.has(`team:${team.id}/owner`))
    throw new ApiError('user_unauthorized');
  return team;
}

function createTeam(ctx: RequestContext): Reply {
  const id = resolveId('teamId', ctx.input.teamId);
  const name = text(ctx.input, 'name', { required: true, max: 128 });
  const roles = ctx.input.roles === undefined ? ['owner'] : parseRoles(ctx, false);
  const creator = ctx.identity.kind === 'user' ? ctx.identity.user : null;
  const team = store(ctx).create(id, name, creator, roles);
  return created(store(ctx).teamModelOf(team));
}

function listTeams(ctx: RequestContext): Reply {
  const teams = store(ctx).list({
    ...(ctx.identity.kind === 'user' ? { userId: ctx.identity.user.id } : {}),
    ...(searchParam(ctx) ? { search: searchParam(ctx) } : {}),
  });
  const { total, page } = applyListQueries(
    teams.map((team) => store(ctx).teamModelOf(team)),
    ctx.input.queries,
    ['name', 'total'],
    'Team',
  );
  if (ctx.identity.kind === 'guest') return ok({ total: 0, teams: [] });
  return ok({ total, teams: page });
}

function getTeam(ctx: RequestContext): Reply {
  return ok(store(ctx).teamModelOf(visibleTeam(ctx)));
}

function updateTeam(ctx: RequestContext): Reply {
  const team = ownedTeam(ctx);
  const renamed = store(ctx).rename(team, text(ctx.input, 'name', { required: true, max: 128 }));
  return ok(store(ctx).teamModelOf(renamed));
}

function deleteTeam(ctx: RequestContext): Reply {
  store(ctx).delete(ownedTeam(ctx));
  return noContent();
}

function getPrefs(ctx: RequestContext): Reply {
  return ok(visibleTeam(ctx).prefs);
}

function updatePrefs(ctx: RequestContext): Reply {
  const team = visibleTeam(ctx);
  return ok(store(ctx).updatePrefs(team, object(ctx.input, 'prefs', true)!).prefs);
}

function listMemberships(ctx: RequestContext): Reply {
  const team = visibleTeam(ctx);
  const memberships = store(ctx).memberships(team, searchParam(ctx));
  const { total, page } = applyListQueries(
    memberships.map((membership) => store(ctx).membershipModelOf(membership)),
    ctx.input.queries,
    ['userId', 'roles'],
    'Membership',
  );
  return ok({ total, memberships: page });
}

/** The user a membership is for: `userId`, or the account of `email` (created when there is none). */
function invitee(ctx: RequestContext): UserRecord {
  const { users } = ctx.backend.auth;
  const userId = ctx.input.userId;
  if (typeof userId === 'string' && userId) {
    const user = users.get(userId);
    if (!user) throw new ApiError('user_not_found');
    return user;
  }
  const address = email(ctx.input, 'email', false);
  if (!address)
    throw new ApiError(
      'general_argument_invalid',
      'At least one of userId, email, or phone is required',
    );
  return (
    users.getByEmail(address) ??
    users.create({
      id: uniqueId(),
      email: address,
      passwordHash: null,
      name: text(ctx.input, 'name', { max: 128 }),
    })
  );
}

function createMembership(ctx: RequestContext): Reply {
  const team = ownedTeam(ctx);
  const roles = parseRoles(ctx, true);
  const user = invitee(ctx);
  const url = typeof ctx.input.url === 'string' && ctx.input.url ? ctx.input.url : null;
  const membership = store(ctx).addMember(team, user, roles, ctx.identity.kind === 'key', url);
  return created(store(ctx).membershipModelOf(membership));
}

function getMembership(ctx: RequestContext): Reply {
  const membership = store(ctx).membership(visibleTeam(ctx), ctx.params.membershipId!);
  return ok(store(ctx).membershipModelOf(membership));
}

function updateMembership(ctx: RequestContext): Reply {
  const team = ownedTeam(ctx);
  const membership = store(ctx).membership(team, ctx.params.membershipId!);
  const updated = store(ctx).updateRoles(membership, parseRoles(ctx, true));
  return ok(store(ctx).membershipModelOf(updated));
}

function deleteMembership(ctx: RequestContext): Reply {
  const team = visibleTeam(ctx);
  const membership = store(ctx).membership(team, ctx.params.membershipId!);
  const isSelf = ctx.identity.kind === 'user' && ctx.identity.user.id === membership.userId;
  if (!isSelf) ownedTeam(ctx);
  store(ctx).deleteMembership(membership);
  return noContent();
}

/** Accepting an invitation signs the invitee in (unless they already are). */
function updateMembershipStatus(ctx: RequestContext): Reply {
  const team = store(ctx).get(ctx.params.teamId!);
  const membership = store(ctx).membership(team, ctx.params.membershipId!);
  const userId = text(ctx.input, 'userId', { required: true, max: 36 });
  const secret = text(ctx.input, 'secret', { required: true, max: 256 });
  const signedIn = ctx.identity.kind === 'user' ? ctx.identity.user : null;
  const confirmed = store(ctx).accept(membership, userId, secret, signedIn);
  const body = store(ctx).membershipModelOf(confirmed);
  if (ctx.identity.kind === 'user') return ok(body);
  const user = ctx.backend.auth.users.get(userId)!;
  const { session, cookieValue } = ctx.backend.services.account.openSession(
    user,
    'email',
    { ip: ctx.ip, userAgent: ctx.userAgent },
    ctx.identity.kind === 'key',
  );
  return ok(body, sessionCookies(ctx, cookieValue, session.expire));
}

/** The Teams service: teams, memberships with roles, invitations. */
export const routes: readonly Route[] = [
  route('POST', '/teams', 'teams.write', createTeam),
  route('GET', '/teams', 'teams.read', listTeams),
  route('GET', '/teams/:teamId', 'teams.read', getTeam),
  route('PUT', '/teams/:teamId', 'teams.write', updateTeam),
  route('DELETE', '/teams/:teamId', 'teams.write', deleteTeam),
  route('GET', '/teams/:teamId/prefs', 'teams.read', getPrefs),
  route('PUT', '/teams/:teamId/prefs', 'teams.write', updatePrefs),
  route('GET', '/teams/:teamId/memberships', 'teams.read', listMemberships),
  route('POST', '/teams/:teamId/memberships', 'teams.write', createMembership),
  route('GET', '/teams/:teamId/memberships/:membershipId', 'teams.read', getMembership),
  route('PATCH', '/teams/:teamId/memberships/:membershipId', 'teams.write', updateMembership),
  route('DELETE', '/teams/:teamId/memberships/:membershipId', 'teams.write', deleteMembership),
  route(
    'PATCH',
    '/teams/:teamId/memberships/:membershipId/status',
    'public',
    updateMembershipStatus,
  ),
];
