import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.ts';
import { invitationRefusal, parseInvitationLink, refusalReason } from './invitation.ts';

describe('invitation links', () => {
  it('reads the four parts of the link the backend sends', () => {
    expect(parseInvitationLink('?membershipId=m1&userId=u1&secret=s3cr3t&teamId=desk')).toEqual({
      teamId: 'desk',
      membershipId: 'm1',
      userId: 'u1',
      secret: 's3cr3t',
    });
  });

  it('refuses a link cut short (a part missing or empty)', () => {
    expect(parseInvitationLink('?membershipId=m1&userId=u1&teamId=desk')).toBeNull();
    expect(parseInvitationLink('?membershipId=m1&userId=u1&secret=&teamId=desk')).toBeNull();
    expect(parseInvitationLink('')).toBeNull();
  });
});

describe('invitation refusals', () => {
  it('says an invitation accepted before was accepted, and to sign in', () => {
    const error = invitationRefusal({ code: 409, type: 'membership_already_confirmed' })!;
    expect(error.message).toBe(
      'You have already accepted this invitation. Sign in to open the desk.',
    );
    expect(refusalReason(error)).toBe('accepted');
  });

  it('says an invitation for another account is theirs, and to sign out', () => {
    const error = invitationRefusal({ code: 401, type: 'team_invite_mismatch' })!;
    expect(error.code).toBe('FORBIDDEN');
    expect(refusalReason(error)).toBe('other-account');
  });

  it('tells a wrong secret and a removed invitation apart', () => {
    expect(invitationRefusal({ code: 401, type: 'team_invalid_secret' })?.message).toBe(
      'This invitation link is not valid. Ask an owner to invite you again.',
    );
    expect(invitationRefusal({ code: 404, type: 'membership_not_found' })?.message).toBe(
      'This invitation was withdrawn. Ask an owner to invite you again.',
    );
  });

  it('leaves other errors to the general conversion', () => {
    expect(invitationRefusal({ code: 500, type: 'general_unknown' })).toBeNull();
    expect(invitationRefusal(new TypeError('Failed to fetch'))).toBeNull();
    expect(refusalReason(new AppError('SERVER_ERROR', 'x'))).toBeNull();
  });
});
