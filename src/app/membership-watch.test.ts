import { describe, expect, it } from 'vitest';
import type { TeamMember } from '../../store/index.ts';
import { membershipDrift } from './membership-watch.ts';

const member = (userId: string, role: TeamMember['role']): TeamMember => ({
  id: `m-${userId}`,
  createdAt: 0,
  updatedAt: 0,
  userId,
  name: userId,
  email: `${userId}@x.test`,
  role,
  confirmed: true,
});

describe('membershipDrift', () => {
  it('sees no drift while the list is still loading (the member not yet seen)', () => {
    expect(membershipDrift([], 'ana', 'staff', false)).toEqual({ seen: false, drift: false });
  });

  it('sees no drift when the member holds the role the desk opened with', () => {
    expect(membershipDrift([member('ana', 'staff')], 'ana', 'staff', false)).toEqual({
      seen: true,
      drift: false,
    });
  });

  it('sees a role changed by an owner', () => {
    expect(membershipDrift([member('ana', 'manager')], 'ana', 'staff', true).drift).toBe(true);
  });

  it('sees a membership gone once it was seen', () => {
    expect(membershipDrift([member('ben', 'staff')], 'ana', 'staff', true)).toEqual({
      seen: true,
      drift: true,
    });
  });
});
