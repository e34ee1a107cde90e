import type { Backend } from '../backend.ts';
import type { MembershipRecord, SessionRecord, TeamRecord, UserRecord } from '../core/auth.ts';

/** Appwrite's User model. */
export function userModel(user: UserRecord): Record<string, unknown> {
  return {
    $id: user.id,
    $createdAt: user.createdAt,
    $updatedAt: user.updatedAt,
    name: user.name,
    registration: user.registration,
    status: user.status,
    labels: user.labels,
    passwordUpdate: user.passwordUpdate,
    email: user.email,
    phone: user.phone,
    emailVerification: user.emailVerification,
    phoneVerification: false,
    mfa: false,
    prefs: user.prefs,
    targets: [],
    accessedAt: user.accessedAt,
  };
}

/** Appwrite's Session model; `secret` is only filled for API-key callers. */
export function sessionModel(
  session: SessionRecord,
  options: { current: boolean; secret?: string; providerUid?: string },
): Record<string, unknown> {
  return {
    $id: session.id,
    $createdAt: session.createdAt,
    $updatedAt: session.updatedAt,
    userId: session.userId,
    expire: session.expire,
    provider: session.provider,
    providerUid: options.providerUid ?? '',
    providerAccessToken: '',
    providerAccessTokenExpiry: '',
    providerRefreshToken: '',
    ip: session.ip,
    osCode: '',
    osName: '',
    osVersion: '',
    clientType: '',
    clientCode: '',
    clientName: session.userAgent.slice(0, 64),
    clientVersion: '',
    clientEngine: '',
    clientEngineVersion: '',
    deviceName: '',
    deviceBrand: '',
    deviceModel: '',
    countryCode: '--',
    countryName: 'Unknown',
    current: options.current,
    factors: [session.provider === 'anonymous' ? 'anonymous' : 'password'],
    secret: options.secret ?? '',
    mfaUpdatedAt: '',
  };
}

/** Appwrite's Team model. */
export function teamModel(backend: Backend, team: TeamRecord): Record<string, unknown> {
  return {
    $id: team.id,
    $createdAt: team.createdAt,
    $updatedAt: team.updatedAt,
    name: team.name,
    total: backend.auth.teamTotal(team.id),
    prefs: team.prefs,
  };
}

/** Appwrite's Membership model. */
export function membershipModel(
  backend: Backend,
  membership: MembershipRecord,
): Record<string, unknown> {
  const user = backend.auth.getUser(membership.userId);
  const team = backend.auth.getTeam(membership.teamId);
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
