import { describe, expect, it } from 'vitest';
import { documentChannels, generateEvents } from './events.ts';

describe('generateEvents', () => {
  it('expands every level to its id and to *, with and without the action, plus parents', () => {
    const events = generateEvents(
      'databases.[databaseId].collections.[collectionId].documents.[documentId].create',
      {
        databaseId: 'D',
        collectionId: 'C',
        documentId: 'X',
      },
    );
    for (const expected of [
      'databases.D.collections.C.documents.X.create',
      'databases.D.collections.C.documents.X',
      'databases.D.collections.C.documents.*.create',
      'databases.*.collections.*.documents.*.create',
      'databases.D.collections.*',
      'databases.D.collections.C',
      'databases.D',
      'databases.*',
    ]) {
      expect(events).toContain(expected);
    }
    expect(new Set(events).size).toBe(events.length);
  });

  it('keeps a dotted action such as update.status whole', () => {
    const events = generateEvents('teams.[teamId].memberships.[membershipId].update.status', {
      teamId: 'T',
      membershipId: 'M',
    });
    expect(events).toContain('teams.T.memberships.M.update.status');
    expect(events).toContain('teams.*.memberships.*.update.status');
    expect(events).toContain('teams.T');
  });

  it('fails loudly on a missing param', () => {
    expect(() => generateEvents('users.[userId].create', {})).toThrow(/missing param userId/);
  });
});

describe('documentChannels', () => {
  it('lists the 16 channels of a document event', () => {
    const channels = documentChannels('D', 'C', 'X', 'update');
    expect(channels).toHaveLength(16);
    expect(channels).toContain('databases.D.collections.C.documents.X.update');
    expect(channels).toContain('documents');
  });
});
