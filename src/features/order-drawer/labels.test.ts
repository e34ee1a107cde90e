import { describe, expect, it } from 'vitest';
import type { Activity } from '../../../domain/entities.ts';
import { describeActivity } from './labels.ts';

const entry = (patch: Partial<Activity>): Activity =>
  ({
    id: 'a',
    orderId: 'o',
    kind: 'created',
    actorId: null,
    actorName: null,
    data: {},
    at: 0,
    updatedAt: 0,
    ...patch,
  }) as Activity;

describe('describeActivity', () => {
  it('says who did what', () => {
    expect(describeActivity(entry({ kind: 'paid' }))).toBe('Payment received');
    expect(describeActivity(entry({ kind: 'claimed', actorName: 'Ana Silva' }))).toBe(
      'Ana Silva claimed the order',
    );
    expect(
      describeActivity(
        entry({ kind: 'claimed', actorName: 'Marco', data: { action: 'take-over' } }),
      ),
    ).toBe('Marco took the order over');
    expect(
      describeActivity(entry({ kind: 'status', actorName: 'Ben', data: { to: 'ready' } })),
    ).toBe('Ben marked it ready');
  });
});
