import { describe, expect, it } from 'vitest';
import type { Activity } from '../../../domain/entities.ts';
import { describeActivity, primaryAction, takenOverNotice } from './labels.ts';

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

  it('names the amount of a refund, and of a cancel that refunded', () => {
    expect(
      describeActivity(
        entry({ kind: 'refund', actorName: 'Marco Rossi', data: { amountCents: 350 } }),
      ),
    ).toBe('Marco Rossi refunded €3.50');
    expect(describeActivity(entry({ kind: 'refund', actorName: 'Stripe', data: {} }))).toBe(
      'Stripe refunded the order',
    );
    expect(
      describeActivity(
        entry({ kind: 'canceled', actorName: 'Marco', data: { refundCents: 1080 } }),
      ),
    ).toBe('Marco canceled the order and refunded €10.80');
    expect(describeActivity(entry({ kind: 'canceled' }))).toBe('Order canceled');
  });

  it('names the file attached or removed', () => {
    expect(
      describeActivity(
        entry({
          kind: 'attachment',
          actorName: 'Ana',
          data: { action: 'attached', name: 'a.pdf' },
        }),
      ),
    ).toBe('Ana attached a.pdf');
    expect(
      describeActivity(
        entry({ kind: 'attachment', actorName: 'Mia', data: { action: 'removed', name: 'a.pdf' } }),
      ),
    ).toBe('Mia removed a.pdf');
  });
});

describe('primaryAction', () => {
  it('makes exactly one action primary: the next step before Claim', () => {
    // Staff on an unclaimed paid order are offered Start preparing and Claim.
    expect(primaryAction(['start', 'claim'])).toBe('start');
    expect(primaryAction(['claim', 'start'])).toBe('start');
    expect(primaryAction(['ready', 'unclaim', 'cancel'])).toBe('ready');
    expect(primaryAction(['fulfil', 'take-over'])).toBe('fulfil');
    expect(primaryAction(['claim', 'take-over'])).toBe('claim');
    expect(primaryAction(['take-over', 'cancel'])).toBeNull();
    expect(primaryAction([])).toBeNull();
  });
});

describe('takenOverNotice', () => {
  const held = { assigneeId: 'u-ana' };

  it('names who took the order from the member', () => {
    expect(
      takenOverNotice(held, { assigneeId: 'u-marco', assigneeName: 'Marco Rossi' }, 'u-ana'),
    ).toBe('Marco Rossi took over this order.');
  });

  it('says nothing when the member released it, still holds it, or never held it', () => {
    expect(takenOverNotice(held, { assigneeId: null, assigneeName: null }, 'u-ana')).toBeNull();
    expect(takenOverNotice(held, { assigneeId: 'u-ana', assigneeName: 'Ana' }, 'u-ana')).toBeNull();
    expect(
      takenOverNotice(
        { assigneeId: 'u-ben' },
        { assigneeId: 'u-marco', assigneeName: 'M' },
        'u-ana',
      ),
    ).toBeNull();
  });
});
