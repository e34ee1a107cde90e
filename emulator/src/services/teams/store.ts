import type { Backend } from '../../backend.ts';
import type { MembershipRecord, TeamRecord } from '../../core/auth/teams.ts';
import type { UserRecord } from '../../core/auth/users.ts';
import { ApiError } from '../../core/errors.ts';
import { uniqueId } from '../../core/ids.ts';
import { membershipModel, teamModel } from './models.ts';

/** Where an invitation link points when the inviter gives no `url`. */
const DEFAULT_INVITATION_URL = 'http://localhost/join';

/**
 * The Teams service's store: teams, memberships with roles, invitations, and their events.
 * Records live in core's `auth.teams` (they give users their roles).
 */
export class TeamsStore {
  private readonly backend: Backend;

  constructor(backend: Backend) {
    this.backend = backend;
  }

  private get auth() {
    return this.backend.auth;
  }

  /** Appwrite's Team model of a team (with its number of confirmed members). */
  teamModelOf(team: TeamRecord): Record<string, unknown> {
    return teamModel(team, this.auth.teams.total(team.id));
  }

  /** Appwrite's Membership model of a membership (with its user's and team's names). */
  membershipModelOf(membership: MembershipRecord): Record<string, unknown> {
    return membershipModel(
      membership,
      this.auth.users.get(membership.userId),
      this.auth.teams.get(membership.teamId),
    );
  }

  /** The team `id`, or `team_not_found`. */
  get(id: string): TeamRecord {
    const team = this.auth.teams.get(id);
    if (!team) throw new ApiError('team_not_found');
    return team;
  }

  /** Teams in creation order: all, or those `userId` is a confirmed member of; `search` filters names. */
  list(options: { userId?: string; search?: string }): TeamRecord[] {
    return this.auth.teams.list(options);
  }

  /** Creates a team; a user creating it becomes its first member with `roles`. */
  create(id: string, name: string, creator: UserRecord | null, roles: string[]): TeamRecord {
    const team = this.auth.teams.create(id, name);
    if (creator) {
      this.auth.teams.createMembership({
        id: uniqueId(),
        teamId: team.id,
        userId: creator.id,
        roles,
        confirm: true,
      });
    }
    this.publishTeam(team, 'create', creator ? [creator.id] : []);
    return team;
  }

  rename(team: TeamRecord, name: string): TeamRecord {
    const renamed = this.auth.teams.update(team.id, { name });
    this.publishTeam(renamed, 'update', []);
    return renamed;
  }

  updatePrefs(team: TeamRecord, prefs: Record<string, unknown>): TeamRecord {
    return this.auth.teams.update(team.id, { prefs });
  }

  /** Deletes a team and its memberships; its former members receive the event. */
  delete(team: TeamRecord): void {
    const payload = this.teamModelOf(team);
    const members = this.auth.teams.delete(team.id);
    this.backend.publish({ resource: 'team', action: 'delete', teamId: team.id, members, payload });
  }

  /** A team's memberships in creation order; `search` filters by the members' name or email. */
  memberships(team: TeamRecord, search?: string): MembershipRecord[] {
    return this.auth.teams.listMemberships(team.id, search);
  }

  /** The membership `id` of `team`: `membership_not_found`, or `team_membership_mismatch`. */
  membership(team: TeamRecord, id: string): MembershipRecord {
    const membership = this.auth.teams.getMembership(id);
    if (!membership) throw new ApiError('membership_not_found');
    if (membership.teamId !== team.id) throw new ApiError('team_membership_mismatch');
    return membership;
  }

  /**
   * Adds `user` to `team` with `roles`: confirmed at once when `confirm` (an API key adds them),
   * else invited — the invitation link (to `url`) is printed, as the local backend sends no mail.
   */
  addMember(
    team: TeamRecord,
    user: UserRecord,
    roles: string[],
    confirm: boolean,
    url: string | null,
  ): MembershipRecord {
    const { membership, secret } = this.auth.teams.createMembership({
      id: uniqueId(),
      teamId: team.id,
      userId: user.id,
      roles,
      confirm,
    });
    if (secret) {
      const base = url ?? DEFAULT_INVITATION_URL;
      const link = `${base}${base.includes('?') ? '&' : '?'}membershipId=${membership.id}&userId=${user.id}&secret=${secret}&teamId=${team.id}`;
      console.log(`[backend] invitation for ${user.email} to team ${team.name}: ${link}`);
    }
    this.publishMembership(membership, 'create');
    return membership;
  }

  updateRoles(membership: MembershipRecord, roles: string[]): MembershipRecord {
    const updated = this.auth.teams.updateMembership(membership.id, { roles });
    this.publishMembership(updated, 'update');
    return updated;
  }

  /**
   * Accepts an invitation, checked in Appwrite's order: `team_invalid_secret`, then
   * `team_invite_mismatch` (the link names another user, or another user is signed in: `signedIn`
   * is the caller's user, with their email), then `membership_already_confirmed`.
   */
  accept(
    membership: MembershipRecord,
    userId: string,
    secret: string,
    signedIn: { id: string; email: string } | null,
  ): MembershipRecord {
    if (!this.auth.teams.checkMembershipSecret(membership.id, secret))
      throw new ApiError('team_invalid_secret');
    if (membership.userId !== userId) throw new ApiError('team_invite_mismatch');
    if (signedIn && signedIn.id !== membership.userId)
      throw new ApiError(
        'team_invite_mismatch',
        `Invite does not belong to current user (${signedIn.email})`,
      );
    if (membership.confirm) throw new ApiError('membership_already_confirmed');
    const confirmed = this.auth.teams.updateMembership(membership.id, { confirm: true });
    this.publishMembership(confirmed, 'update.status');
    return confirmed;
  }

  deleteMembership(membership: MembershipRecord): void {
    const payload = this.membershipModelOf(membership);
    this.auth.teams.deleteMembership(membership.id);
    this.publishMembership(membership, 'delete', payload);
  }

  private publishTeam(team: TeamRecord, action: 'create' | 'update', members: string[]): void {
    this.backend.publish({
      resource: 'team',
      action,
      teamId: team.id,
      members,
      payload: this.teamModelOf(team),
    });
  }

  private publishMembership(
    membership: MembershipRecord,
    action: 'create' | 'update' | 'update.status' | 'delete',
    payload = this.membershipModelOf(membership),
  ): void {
    this.backend.publish({
      resource: 'membership',
      action,
      teamId: membership.teamId,
      membershipId: membership.id,
      userId: membership.userId,
      payload,
    });
  }
}
