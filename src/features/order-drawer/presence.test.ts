import { describe, expect, it } from 'vitest';
import { presenceIdFor, viewersOf } from './presence.ts';

describe('presence', () => {
  it('lists other viewers of the order once each, by name', () => {
    const presences = new Map([
      ['p1', { userId: 'ana', name: 'Ana Silva', orderId: 'o1' }],
      ['p2', { userId: 'ben', name: 'Ben Okafor', orderId: 'o2' }],
      ['p3', { userId: 'me', name: 'Me', orderId: 'o1' }],
      ['p4', { userId: 'marco', name: 'Marco Rossi', orderId: 'o1' }],
    ]);
    expect(viewersOf(presences, 'o1', 'me').map((v) => v.name)).toEqual([
      'Ana Silva',
      'Marco Rossi',
    ]);
  });

  it('makes valid presence ids of at most 36 characters', () => {
    const id = presenceIdFor('6921f0a8c3d1e2f3a4b5', '6921f0a8c3d1e2f3a4b6');
    expect(id.length).toBeLessThanOrEqual(36);
    expect(id).toMatch(/^[a-zA-Z0-9._-]+$/);
  });
});
