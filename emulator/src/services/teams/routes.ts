import type { Backend, BackendModule } from '../backend.ts';
import type { MembershipRecord, TeamRecord } from '../core/auth.ts';
import { generateEvents } from '../core/events.ts';
import { resolveId } from '../core/ids.ts';
import type { RequestContext } from '../http/context.ts';
import { ApiError, invalidParam } from '../http/errors.ts';
import { parseSimpleListQueries } from '../http/list-queries.ts';
import { email, object, stringArray, text } from '../http/params.ts';
import { created, noContent, ok } from '../http/reply.ts';
import { sessionReply } from './account.ts';
import { membershipModel, teamModel } from './models.ts';

const ROLE = /^[a-zA-Z0-9_-]{1,32}$/;

function parseRoles(ctx: RequestContext, isRequired: boolean): string[] {
  const roles = stringArray(ctx.input, 'roles', { required: isRequired, maxLength: 32 });
  for (const role of roles)
    if (!ROLE.test(role))
      throw invalidParam('roles', `Role "${role}" must be 1–32 chars of a-z, A-Z, 0-9, _ and -`);
  return roles;
}

function publishTeam(
  backend: Backend,
  team: TeamRecord,
  action: string,
  rolesChangedFor: string[] = [],
): void {
  backend.bus.publish({
    events: generateEvents(`teams.[teamId].${action}`, { teamId: team.id }),
    channels: ['teams', `teams.${team.id}`, `teams.${action}`, `teams.${team.id}.${action}`],
    roles: [`team:${team.id}`],
    payload: teamModel(backend, team),
    rolesChangedFor,
  });
}

function publishMembership(backend: Backend, membership: MembershipRecord, action: string): void {
  backend.bus.publish({
    events: generateEvents(`teams.[teamId].memberships.[membershipId].${action}`, {
      teamId: membership.teamId,
      membershipId: membership.id,
    }),
    channels: [
      'memberships',
      `memberships.${membership.id}`,
      `memberships.${action}`,
      `memberships.${membership.id}.${action}`,
    ],
    roles: [`team:${membership.teamId}`, `user:${membership.userId}`],
    payload: membershipModel(backend, membership),
    rolesChangedFor: [membership.userId],
  });
}

/** The team of `:teamId` when the caller may see it (API key or member), else `team_not_found`. */
function visibleTeam(ctx: RequestContext): TeamRecord {
  const team = ctx.backend.auth.getTeam(ctx.params.teamId!);
  if (!team) throw new ApiError('team_not_found');
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

function teamMembership(ctx: RequestContext, team: TeamRecord): MembershipRecord {
  const membership = ctx.backend.auth.getMembership(ctx.params.membershipId!);
  if (!membership) throw new ApiError('membership_not_found');
  if (membership.teamId !== team.id) throw new ApiError('team_membership_mismatch');
  return membership;
}

/** The Teams service: teams, memberships with roles, invitations. */
export const teamsModule: BackendModule = {
  name: 'teams',
  routes: () => [
    {
      method: 'POST',
      path: '/teams',
      scope: 'teams.write',
      handler: (ctx) => {
        const id = resolveId('teamId', ctx.input.teamId);
        const name = text(ctx.input, 'name', { required: true, max: 128 });
        const roles = ctx.input.roles === undefined ? ['owner'] : parseRoles(ctx, false);
        const team = ctx.backend.auth.createTeam(id, name);
        if (ctx.identity.kind === 'user') {
          ctx.backend.auth.createMembership({
            id: resolveId('membershipId', 'unique()'),
            teamId: team.id,
            userId: ctx.identity.user.id,
            roles,
            confirm: true,
          });
        }
        publishTeam(
          ctx.backend,
          team,
          'create',
          ctx.identity.kind === 'user' ? [ctx.identity.user.id] : [],
        );
        return created(teamModel(ctx.backend, team));
      },
    },
    {
      method: 'GET',
      path: '/teams',
      scope: 'teams.read',
      handler: (ctx) => {
        const query = parseSimpleListQueries(ctx.input.queries, ['name']);
        const search =
          typeof ctx.input.search === 'string' && ctx.input.search ? ctx.input.search : undefined;
        const { total, teams } = ctx.backend.auth.listTeams({
          ...(ctx.identity.kind === 'user' ? { userId: ctx.identity.user.id } : {}),
          ...(search ? { search } : {}),
          limit: query.limit,
          offset: query.offset,
        });
        if (ctx.identity.kind === 'guest') return ok({ total: 0, teams: [] });
        return ok({ total, teams: teams.map((team) => teamModel(ctx.backend, team)) });
      },
    },
    {
      method: 'GET',
      path: '/teams/:teamId',
      scope: 'teams.read',
      handler: (ctx) => ok(teamModel(ctx.backend, visibleTeam(ctx))),
    },
    {
      method: 'PUT',
      path: '/teams/:teamId',
      scope: 'teams.write',
      handler: (ctx) => {
        const team = ctx.backend.auth.updateTeam(ownedTeam(ctx).id, {
          name: text(ctx.input, 'name', { required: true, max: 128 }),
        });
        publishTeam(ctx.backend, team, 'update');
        return ok(teamModel(ctx.backend, team));
      },
    },
    {
      method: 'DELETE',
      path: '/teams/:teamId',
      scope: 'teams.write',
      handler: (ctx) => {
        const team = ownedTeam(ctx);
        const payload = teamModel(ctx.backend, team);
        const members = ctx.backend.auth.deleteTeam(team.id);
        ctx.backend.bus.publish({
          events: generateEvents('teams.[teamId].delete', { teamId: team.id }),
          channels: ['teams', `teams.${team.id}`, 'teams.delete', `teams.${team.id}.delete`],
          roles: members.map((userId) => `user:${userId}`),
          payload,
          rolesChangedFor: members,
        });
        return noContent();
      },
    },
    {
      method: 'GET',
      path: '/teams/:teamId/prefs',
      scope: 'teams.read',
      handler: (ctx) => ok(visibleTeam(ctx).prefs),
    },
    {
      method: 'PUT',
      path: '/teams/:teamId/prefs',
      scope: 'teams.write',
      handler: (ctx) => {
        const team = visibleTeam(ctx);
        return ok(
          ctx.backend.auth.updateTeam(team.id, { prefs: object(ctx.input, 'prefs', true)! }).prefs,
        );
      },
    },
    {
      method: 'GET',
      path: '/teams/:teamId/memberships',
      scope: 'teams.read',
      handler: (ctx) => {
        const team = visibleTeam(ctx);
        const query = parseSimpleListQueries(ctx.input.queries, ['userId', 'roles']);
        const search =
          typeof ctx.input.search === 'string' && ctx.input.search ? ctx.input.search : undefined;
        const all = ctx.backend.auth.listMemberships(team.id, search ? { search } : {});
        const userFilter = query.equal.get('userId');
        const filtered = userFilter ? all.filter((m) => userFilter.includes(m.userId)) : all;
        const page = filtered.slice(query.offset, query.offset + query.limit);
        return ok({
          total: filtered.length,
          memberships: page.map((m) => membershipModel(ctx.backend, m)),
        });
      },
    },
    {
      method: 'POST',
      path: '/teams/:teamId/memberships',
      scope: 'teams.write',
      handler: async (ctx) => {
        const team = ownedTeam(ctx);
        const roles = parseRoles(ctx, true);
        const { auth } = ctx.backend;
        let user =
          typeof ctx.input.userId === 'string' && ctx.input.userId
            ? auth.getUser(ctx.input.userId)
            : null;
        if (typeof ctx.input.userId === 'string' && ctx.input.userId && !user)
          throw new ApiError('user_not_found');
        if (!user) {
          const address = email(ctx.input, 'email', false);
          if (!address)
            throw new ApiError(
              'general_argument_invalid',
              'At least one of userId, email, or phone is required',
            );
          user =
            auth.getUserByEmail(address) ??
            auth.createUser({
              id: resolveId('userId', 'unique()'),
              email: address,
              passwordHash: null,
              name: text(ctx.input, 'name', { max: 128 }),
            });
        }
        const isKey = ctx.identity.kind === 'key';
        const { membership, secret } = auth.createMembership({
          id: resolveId('membershipId', 'unique()'),
          teamId: team.id,
          userId: user.id,
          roles,
          confirm: isKey,
        });
        if (secret) {
          const url =
            typeof ctx.input.url === 'string' && ctx.input.url
              ? ctx.input.url
              : 'http://localhost/join';
          const link = `${url}${url.includes('?') ? '&' : '?'}membershipId=${membership.id}&userId=${user.id}&secret=${secret}&teamId=${team.id}`;
          ctx.backend.services.set(`invitation:${membership.id}`, link);
          console.log(`[backend] invitation for ${user.email} to team ${team.name}: ${link}`);
        }
        publishMembership(ctx.backend, membership, 'create');
        return created(membershipModel(ctx.backend, membership));
      },
    },
    {
      method: 'GET',
      path: '/teams/:teamId/memberships/:membershipId',
      scope: 'teams.read',
      handler: (ctx) => ok(membershipModel(ctx.backend, teamMembership(ctx, visibleTeam(ctx)))),
    },
    {
      method: 'PATCH',
      path: '/teams/:teamId/memberships/:membershipId',
      scope: 'teams.write',
      handler: (ctx) => {
        const team = ownedTeam(ctx);
        const membership = ctx.backend.auth.updateMembership(teamMembership(ctx, team).id, {
          roles: parseRoles(ctx, true),
        });
        publishMembership(ctx.backend, membership, 'update');
        return ok(membershipModel(ctx.backend, membership));
      },
    },
    {
      method: 'DELETE',
      path: '/teams/:teamId/memberships/:membershipId',
      scope: 'teams.write',
      handler: (ctx) => {
        const team = visibleTeam(ctx);
        const membership = teamMembership(ctx, team);
        const isSelf = ctx.identity.kind === 'user' && ctx.identity.user.id === membership.userId;
        if (!isSelf) ownedTeam(ctx);
        const payload = membershipModel(ctx.backend, membership);
        ctx.backend.auth.deleteMembership(membership.id);
        ctx.backend.bus.publish({
          events: generateEvents('teams.[teamId].memberships.[membershipId].delete', {
            teamId: team.id,
            membershipId: membership.id,
          }),
          channels: [
            'memberships',
            `memberships.${membership.id}`,
            'memberships.delete',
            `memberships.${membership.id}.delete`,
          ],
          roles: [`team:${team.id}`, `user:${membership.userId}`],
          payload,
          rolesChangedFor: [membership.userId],
        });
        return noContent();
      },
    },
    {
      method: 'PATCH',
      path: '/teams/:teamId/memberships/:membershipId/status',
      scope: 'public',
      handler: (ctx) => {
        const team = ctx.backend.auth.getTeam(ctx.params.teamId!);
        if (!team) throw new ApiError('team_not_found');
        const membership = teamMembership(ctx, team);
        const userId = text(ctx.input, 'userId', { required: true, max: 36 });
        const secret = text(ctx.input, 'secret', { required: true, max: 256 });
        if (membership.userId !== userId) throw new ApiError('team_invite_mismatch');
        if (membership.confirm) throw new ApiError('membership_already_confirmed');
        if (!ctx.backend.auth.checkMembershipSecret(membership.id, secret))
          throw new ApiError('team_invalid_secret');
        const confirmed = ctx.backend.auth.updateMembership(membership.id, { confirm: true });
        publishMembership(ctx.backend, confirmed, 'update.status');
        const user = ctx.backend.auth.getUser(userId)!;
        const session = ctx.identity.kind === 'user' ? null : sessionReply(ctx, user, 'email');
        return { ...(session ?? {}), status: 200, body: membershipModel(ctx.backend, confirmed) };
      },
    },
  ],
};
