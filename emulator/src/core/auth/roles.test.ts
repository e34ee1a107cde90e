import { describe, expect, it } from 'vitest';
import { Roles } from './roles.ts';
import type { MembershipRecord } from './teams.ts';
import type { UserRecord } from './users.ts';

const ana: UserRecord = {
  id: 'ana',
  createdAt: '',
  updatedAt: '',
  name: 'Ana',
  email: 'ana@example.com',
  phone: '',
  passwordHash: null,
  passwordUpdate: '',
  registration: '',
  status: true,
  labels: ['vip'],
  prefs: {},
  emailVerification: true,
  accessedAt: '',
};

function membership(id: string, teamId: string, confirm: boolean): MembershipRecord {
  const time = '';
  return {
    id,
    createdAt: time,
    updatedAt: time,
    teamId,
    userId: 'ana',
    roles: ['owner'],
    invited: time,
    joined: time,
    confirm,
  };
}

describe('Roles', () => {
  it("gives a user Appwrite's roles: users, user, verified state, confirmed teams with their roles, labels", () => {
    const roles = new Roles(() => [
      membership('m1', 'desk', true),
      membership('m2', 'other', false),
    ]);
    expect([...roles.of(ana)].sort()).toEqual(
      [
        'label:vip',
        'member:m1',
        'team:desk',
        'team:desk/owner',
        'user:ana',
        'user:ana/verified',
        'users',
        'users/verified',
      ].sort(),
    );
  });

  it('recomputes the roles of a user once told they changed, and tells its listeners', () => {
    let memberships: MembershipRecord[] = [];
    const roles = new Roles(() => memberships);
    expect(roles.of(ana).has('team:desk')).toBe(false);
    memberships = [membership('m1', 'desk', true)];
    expect(roles.of(ana).has('team:desk')).toBe(false);
    const told: string[] = [];
    const stop = roles.onChanged((userId) => told.push(userId));
    roles.changed('ana');
    expect(roles.of(ana).has('team:desk')).toBe(true);
    expect(told).toEqual(['ana']);
    stop();
    roles.changed('ana');
    expect(told).toEqual(['ana']);
  });
});
