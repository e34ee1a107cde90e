import { describe, expect, it } from 'vitest';
import { alreadyOnTheTeam, type TeamMember } from './people.ts';

const member = (name: string, email: string, confirmed = true): TeamMember => ({
  id: `m-${name}`,
  createdAt: 0,
  updatedAt: 0,
  userId: `u-${name}`,
  name,
  email,
  role: 'staff',
  confirmed,
});

describe('alreadyOnTheTeam', () => {
  const team = [member('Ana Silva', 'ana@livedesk.test'), member('Ivy', 'ivy@x.test', false)];

  it('names the member an email belongs to, whatever its case and spaces', () => {
    expect(alreadyOnTheTeam(team, ' ANA@livedesk.test ')).toEqual({
      field: 'email',
      message: 'Ana Silva is already on the team.',
    });
  });

  it('lets an open invitation be sent again, and a stranger be invited', () => {
    expect(alreadyOnTheTeam(team, 'ivy@x.test')).toBeNull();
    expect(alreadyOnTheTeam(team, 'new@x.test')).toBeNull();
  });
});
