import { describe, expect, it } from 'vitest';
import { documentChannels } from '../../core/events.ts';
import {
  eventFrameBuilder,
  legacySubscriptions,
  makeSubscription,
  matchingSubscriptionIds,
  rolesAllow,
} from './delivery.ts';
import { parseRealtimeQueries } from './queries.ts';

function subscriber(roles: string[], subs: [string, string[], string[]?][]) {
  return {
    roles: new Set(roles),
    subscriptions: new Map(
      subs.map(([id, channels, queries]) => [
        id,
        makeSubscription(id, channels, parseRealtimeQueries(queries ?? [])),
      ]),
    ),
  };
}

const event = {
  channels: documentChannels('main', 'orders', 'o1', 'update'),
  roles: ['team:desk', 'user:u9'],
  payload: { $id: 'o1', status: 'open' },
};

describe('rolesAllow', () => {
  it('needs a shared role, or any', () => {
    expect(rolesAllow(new Set(['users', 'team:desk']), ['team:desk'])).toBe(true);
    expect(rolesAllow(new Set(['users']), ['team:desk'])).toBe(false);
    expect(rolesAllow(new Set(['guests']), ['any'])).toBe(true);
    expect(rolesAllow(new Set(['guests']), [])).toBe(false);
  });
});

describe('matchingSubscriptionIds', () => {
  it('lists every subscription whose channels meet the event’s', () => {
    const s = subscriber(
      ['users', 'team:desk'],
      [
        ['a', ['documents']],
        ['b', ['databases.main.collections.orders.documents.o1.update']],
        ['c', ['files']],
        ['d', ['tablesdb.main.tables.orders.rows']],
      ],
    );
    expect(matchingSubscriptionIds(s, event)).toEqual(['a', 'b', 'd']);
  });

  it('gives nothing to a connection without a role the event allows', () => {
    const s = subscriber(['users', 'user:u1'], [['a', ['documents']]]);
    expect(matchingSubscriptionIds(s, event)).toEqual([]);
  });

  it('applies each subscription’s queries to the payload', () => {
    const s = subscriber(
      ['user:u9'],
      [
        [
          'open',
          ['documents'],
          [JSON.stringify({ method: 'equal', attribute: 'status', values: ['open'] })],
        ],
        [
          'done',
          ['documents'],
          [JSON.stringify({ method: 'equal', attribute: 'status', values: ['done'] })],
        ],
      ],
    );
    expect(matchingSubscriptionIds(s, event)).toEqual(['open']);
  });
});

describe('eventFrameBuilder', () => {
  it('serializes the event once and splices in each connection’s ids', () => {
    const frame = eventFrameBuilder({
      ...event,
      events: ['e1'],
      timestamp: '2026-01-01T00:00:00.000+00:00',
    });
    const parsed = JSON.parse(frame(['x', 'y'])) as { type: string; data: Record<string, unknown> };
    expect(parsed.type).toBe('event');
    expect(Object.keys(parsed.data)).toEqual([
      'events',
      'channels',
      'timestamp',
      'payload',
      'subscriptions',
    ]);
    expect(parsed.data.subscriptions).toEqual(['x', 'y']);
    expect(parsed.data.payload).toEqual(event.payload);
  });
});

describe('legacySubscriptions (URL mode)', () => {
  it('puts channels without queries in slot 0 and query slots in their own', () => {
    const equal = JSON.stringify({ method: 'equal', attribute: 'status', values: ['open'] });
    const slots = legacySubscriptions(['documents', 'files'], { documents: [equal] });
    expect(slots.map((s) => s.channels)).toEqual([['documents', 'files']]);
    expect(slots[0]!.queries).toHaveLength(1);
    const two = legacySubscriptions(['teams', 'files'], { teams: [equal, equal] });
    expect(two.map((s) => s.channels)).toEqual([['teams', 'files'], ['teams']]);
  });
});
