import type { MembershipRecord, TeamRecord } from '../../core/auth/teams.ts';
import type { UserRecord } from '../../core/auth/users.ts';

/** Appwrite's Team model. */
export function teamModel(team: TeamRecord, total: number): Record<string, unknown> {
  return {
    $id: team.id,
    $createdAt: team.createdAt,
    $updatedAt: team.updatedAt,
    name: team.name,
    total,
    prefs: team.prefs,
  };
}

/** Appwrite's Membership model, with the names of its user and team (blank once deleted). */
export function membershipModel(
  membership: MembershipRecord,
  user: UserRecord | null,
  team: TeamRecord | null,
): Record<string, unknown> {
  return {
    $id: membership.id,
    $createdAt: membership.createdAt,
    $updatedAt: membership.updatedAt,
    userId: membership.userId,
    userName: user?.name ?? '',
    userEmail: user?.email ?? '',
    teamId: membership.teamId,
    teamName: team?.name ?? '',
    invited: membership.invited,
    joined: membership.joined,
    confirm: membership.confirm,
    mfa: false,
    roles: membership.roles,
  };
}
