import { ID } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { LEFT_FOR_PEOPLE, leftForPeople } from './simulator.ts';

describe('leftForPeople', () => {
  it('leaves about LEFT_FOR_PEOPLE of order ids to people', () => {
    const ids = Array.from({ length: 20_000 }, () => ID.unique());
    const share = ids.filter(leftForPeople).length / ids.length;
    expect(share).toBeGreaterThan(LEFT_FOR_PEOPLE - 0.03);
    expect(share).toBeLessThan(LEFT_FOR_PEOPLE + 0.03);
  });

  it('answers the same for the same id (a restarted demo keeps its word)', () => {
    for (const id of ['6b04b9e1001b592f5203', 'a', 'order-1042'])
      expect(leftForPeople(id)).toBe(leftForPeople(id));
    expect(new Set(['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8'].map(leftForPeople)).size).toBe(
      2,
    );
  });
});
