import { describe, expect, it } from 'vitest';
import { convertChannels, rebindAccountChannels } from './channels.ts';

describe('convertChannels', () => {
  it('adds account.<uid> for a signed-in user and keeps other channels', () => {
    expect(convertChannels(['documents', 'account'], 'u1')).toEqual([
      'documents',
      'account',
      'account.u1',
    ]);
  });

  it('drops every other account.* channel, own id included, as Appwrite does', () => {
    expect(
      convertChannels(['account.u2', 'account.u1', 'account.u1.update', 'teams'], 'u1'),
    ).toEqual(['teams']);
  });

  it('binds account.<action> to the user, and keeps the literal for guests', () => {
    expect(convertChannels(['account.update', 'files'], 'u1')).toEqual([
      'files',
      'account.u1.update',
    ]);
    expect(convertChannels(['account.update', 'account'], null)).toEqual([
      'account.update',
      'account',
    ]);
  });

  it('removes duplicates', () => {
    expect(convertChannels(['teams', 'teams', 'account', 'account'], 'u1')).toEqual([
      'teams',
      'account',
      'account.u1',
    ]);
  });
});

describe('rebindAccountChannels', () => {
  it('binds a guest’s account.<action> to the new user', () => {
    expect(rebindAccountChannels(['account', 'account.create', 'teams'], null, 'u1')).toEqual([
      'account',
      'account.u1.create',
      'teams',
    ]);
  });

  it('moves account.<old> and account.<old>.<action> to the new user', () => {
    expect(
      rebindAccountChannels(['account.u1', 'account.u1.delete', 'account.u1.x'], 'u1', 'u2'),
    ).toEqual(['account.u2', 'account.u2.delete', 'account.u1.x']);
  });

  it('changes nothing for the same user or no user', () => {
    expect(rebindAccountChannels(['account.u1'], 'u1', 'u1')).toEqual(['account.u1']);
    expect(rebindAccountChannels(['account.update'], null, null)).toEqual(['account.update']);
  });
});
