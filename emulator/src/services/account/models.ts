import type { SessionRecord } from '../../core/auth/sessions.ts';

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
