import { AppError } from '../../../domain/errors.ts';

/** The parts of an invitation link (`/join?teamId&membershipId&userId&secret`). */
export interface InvitationLink {
  teamId: string;
  membershipId: string;
  userId: string;
  secret: string;
}

/** Why an invitation was refused, for the page to offer the way on. */
export type InvitationRefusalReason = 'accepted' | 'other-account' | 'invalid' | 'withdrawn';

/** What each reason says, and as which code. */
const REFUSALS: Record<InvitationRefusalReason, [AppError['code'], string]> = {
  accepted: [
    'INVALID_TRANSITION',
    'You have already accepted this invitation. Sign in to open the desk.',
  ],
  'other-account': [
    'FORBIDDEN',
    'This invitation is for another account. Sign out, then accept it.',
  ],
  invalid: ['VALIDATION', 'This invitation link is not valid. Ask an owner to invite you again.'],
  withdrawn: ['NOT_FOUND', 'This invitation was withdrawn. Ask an owner to invite you again.'],
};

/** Appwrite's refusals of an acceptance (`updateMembershipStatus`), by reason. */
const REASON_OF_TYPE: Record<string, InvitationRefusalReason> = {
  membership_already_confirmed: 'accepted',
  team_invite_mismatch: 'other-account',
  team_invalid_secret: 'invalid',
  team_membership_mismatch: 'invalid',
  membership_not_found: 'withdrawn',
  team_not_found: 'withdrawn',
};

/** Reads an invitation link's query; null when a part is missing (a link cut short). */
export function parseInvitationLink(search: string): InvitationLink | null {
  const params = new URLSearchParams(search);
  const link = {
    teamId: params.get('teamId') ?? '',
    membershipId: params.get('membershipId') ?? '',
    userId: params.get('userId') ?? '',
    secret: params.get('secret') ?? '',
  };
  return Object.values(link).every((part) => part !== '') ? link : null;
}

/**
 * The backend's refusal of an invitation as its invitee should hear it (`details.reason` tells
 * the page what to offer: sign in, sign out); null for any other error.
 */
export function invitationRefusal(error: unknown): AppError | null {
  const type =
    typeof error === 'object' && error !== null && 'type' in error ? String(error.type) : '';
  const reason = REASON_OF_TYPE[type];
  if (!reason) return null;
  const [code, message] = REFUSALS[reason];
  return new AppError(code, message, { reason });
}

/** The reason of an invitation refusal made by {@link invitationRefusal}, else null. */
export function refusalReason(error: AppError): InvitationRefusalReason | null {
  const reason = error.details?.reason;
  return typeof reason === 'string' && Object.hasOwn(REFUSALS, reason)
    ? (reason as InvitationRefusalReason)
    : null;
}
