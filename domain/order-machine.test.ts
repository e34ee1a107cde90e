import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import type { Order, OrderStatus } from './order.ts';
import { ORDER_STATUSES } from './order.ts';
import {
  availableActions,
  decideOrderAction,
  decideRefund,
  recordTakenRefund,
  expirePendingChange,
  ORDER_ACTIONS,
  PENDING_PAYMENT_TTL_MS,
  type Actor,
  type OrderAction,
  type OrderChange,
} from './order-machine.ts';
import type { DeskRole } from './roles.ts';
import {
  EXPECTED_FOR_MANAGER,
  EXPECTED_FOR_OUTSIDER,
  EXPECTED_FOR_STAFF,
} from './testing/expected-actions.ts';

const IT = 'INVALID_TRANSITION';
const FB = 'FORBIDDEN';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');

function order(patch: Partial<Order> = {}): Order {
  return {
    id: 'o1',
    createdAt: NOW - 60_000,
    updatedAt: NOW - 60_000,
    number: 1001,
    status: 'paid',
    customerName: 'Cleo',
    customerEmail: 'cleo@example.test',
    customerId: null,
    items: [{ productId: 'p1', name: 'Latte', unitPriceCents: 350, qty: 2 }],
    itemsSummary: '2× Latte',
    subtotalCents: 700,
    totalCents: 700,
    currency: 'eur',
    paymentIntentId: 'pi_1',
    paymentStatus: 'succeeded',
    cardBrand: 'visa',
    cardLast4: '4242',
    failureCode: null,
    refundedCents: 0,
    assigneeId: null,
    assigneeName: null,
    paidAt: NOW - 50_000,
    startedAt: null,
    readyAt: null,
    fulfilledAt: null,
    canceledAt: null,
    noteCount: 0,
    attachmentCount: 0,
    rev: 3,
    updatedById: 'webhook',
    updatedByName: 'Stripe',
    ...patch,
  };
}

const actor = (role: DeskRole | null, id = 'me', name = 'Mo'): Actor => ({ id, name, role });

function decide(o: Order, action: OrderAction, who: Actor, expectedRev = o.rev) {
  return decideOrderAction(o, { action, expectedRev }, who, NOW);
}

/** `ok` or the refusal code. */
function outcome(result: OrderChange | AppError): string {
  return result instanceof AppError ? result.code : 'ok';
}

describe('decideOrderAction: every action × role × state (unassigned order)', () => {
  const roles: [DeskRole | null, Record<OrderAction, string[]> | null][] = [
    ['staff', EXPECTED_FOR_STAFF],
    ['manager', EXPECTED_FOR_MANAGER],
    ['owner', EXPECTED_FOR_MANAGER],
    [null, null],
  ];
  for (const [role, table] of roles) {
    for (const action of ORDER_ACTIONS) {
      it(`${role ?? 'non-member'} ${action}`, () => {
        const got = ORDER_STATUSES.map((status) =>
          outcome(decide(order({ status }), action, actor(role))),
        );
        const wanted = (table ?? EXPECTED_FOR_OUTSIDER)[action];
        expect(got).toEqual(wanted);
      });
    }
  }
});

describe('decideOrderAction: who holds the order', () => {
  const heldByAna = (status: OrderStatus) =>
    order({ status, assigneeId: 'ana', assigneeName: 'Ana' });

  it('a claim of an order someone else holds is a conflict naming them', () => {
    const result = decide(heldByAna('paid'), 'claim', actor('manager'));
    expect(result).toBeInstanceOf(AppError);
    expect((result as AppError).code).toBe('ORDER_CONFLICT');
    expect((result as AppError).message).toBe('Ana claimed this order a moment ago.');
  });

  it('managers take over; staff may not', () => {
    expect(outcome(decide(heldByAna('preparing'), 'take-over', actor('manager')))).toBe('ok');
    expect(outcome(decide(heldByAna('preparing'), 'take-over', actor('staff')))).toBe(FB);
    const change = decide(heldByAna('preparing'), 'take-over', actor('owner')) as OrderChange;
    expect(change.patch).toMatchObject({ assigneeId: 'me', assigneeName: 'Mo', rev: 4 });
    expect(change.activity).toEqual({
      kind: 'claimed',
      data: { action: 'take-over', previousAssigneeId: 'ana', previousAssigneeName: 'Ana' },
    });
  });

  it('staff cannot move or release an order someone else holds; managers can', () => {
    for (const [status, action] of [
      ['paid', 'start'],
      ['preparing', 'ready'],
      ['ready', 'fulfil'],
      ['paid', 'unclaim'],
    ] as const) {
      expect(outcome(decide(heldByAna(status), action, actor('staff')))).toBe('ORDER_CONFLICT');
      expect(outcome(decide(heldByAna(status), action, actor('manager')))).toBe('ok');
    }
  });

  it('the holder releases and moves their own order; claiming it again is refused', () => {
    const mine = order({ status: 'paid', assigneeId: 'me', assigneeName: 'Mo' });
    expect(outcome(decide(mine, 'unclaim', actor('staff')))).toBe('ok');
    expect(outcome(decide(mine, 'start', actor('staff')))).toBe('ok');
    const again = decide(mine, 'claim', actor('staff')) as AppError;
    expect(again.code).toBe(IT);
    expect(again.message).toBe('You already hold this order.');
  });
});

describe('decideOrderAction: changes', () => {
  it('claim assigns the actor and bumps rev', () => {
    const change = decide(order(), 'claim', actor('staff')) as OrderChange;
    expect(change.patch).toEqual({
      rev: 4,
      updatedById: 'me',
      updatedByName: 'Mo',
      assigneeId: 'me',
      assigneeName: 'Mo',
    });
    expect(change.activity.kind).toBe('claimed');
  });

  it('start, ready and fulfil move the status, stamp the time and assign an unassigned order', () => {
    const start = decide(order({ status: 'paid' }), 'start', actor('staff')) as OrderChange;
    expect(start.patch).toMatchObject({ status: 'preparing', startedAt: NOW, assigneeId: 'me' });
    expect(start.activity).toEqual({
      kind: 'status',
      data: { action: 'start', from: 'paid', to: 'preparing' },
    });
    const ready = decide(order({ status: 'preparing' }), 'ready', actor('staff')) as OrderChange;
    expect(ready.patch).toMatchObject({ status: 'ready', readyAt: NOW });
    const fulfil = decide(order({ status: 'ready' }), 'fulfil', actor('staff')) as OrderChange;
    expect(fulfil.patch).toMatchObject({ status: 'fulfilled', fulfilledAt: NOW });
  });

  it('cancel sets canceled and canceledAt, and refunds what is left of a card payment', () => {
    const paid = order({ status: 'ready', refundedCents: 200 });
    const change = decide(paid, 'cancel', actor('manager')) as OrderChange;
    expect(change.patch).toMatchObject({
      status: 'canceled',
      canceledAt: NOW,
      rev: 4,
      refundedCents: 700,
    });
    expect(change.activity).toEqual({
      kind: 'canceled',
      data: { from: 'ready', by: 'manager', refundCents: 500 },
    });
  });

  it('cancel refunds nothing when no card payment was taken', () => {
    const unpaid = order({ status: 'payment_failed', paymentStatus: 'failed', paidAt: null });
    const scripted = order({ status: 'paid', paymentIntentId: null });
    for (const o of [unpaid, scripted]) {
      const change = decide(o, 'cancel', actor('owner')) as OrderChange;
      expect(change.patch).not.toHaveProperty('refundedCents');
      expect(change.activity).toEqual({
        kind: 'canceled',
        data: { from: o.status, by: 'manager' },
      });
    }
  });

  it('unclaim clears the assignee', () => {
    const mine = order({ assigneeId: 'me', assigneeName: 'Mo' });
    const change = decide(mine, 'unclaim', actor('staff')) as OrderChange;
    expect(change.patch).toMatchObject({ assigneeId: null, assigneeName: null });
    expect(change.activity).toEqual({ kind: 'unclaimed', data: { previousAssigneeId: 'me' } });
  });

  it('the message of a refused transition names the state', () => {
    const result = decide(order({ status: 'ready' }), 'ready', actor('staff')) as AppError;
    expect(result.message).toBe('This order is already ready.');
    expect(result.details).toEqual({ status: 'ready' });
  });
});

describe('decideOrderAction: stale rev', () => {
  it('an older rev is a conflict naming who changed the order', () => {
    const result = decide(order({ updatedByName: 'Ana' }), 'claim', actor('staff'), 2) as AppError;
    expect(result.code).toBe('ORDER_CONFLICT');
    expect(result.message).toBe('Ana changed this order a moment ago.');
    expect(result.details).toEqual({ currentRev: 3, by: 'Ana' });
  });

  it('the role is checked before the rev', () => {
    expect(outcome(decide(order(), 'cancel', actor('staff'), 0))).toBe(FB);
    expect(outcome(decide(order(), 'claim', actor(null), 0))).toBe(FB);
  });
});

describe('availableActions', () => {
  it('offers exactly the accepted actions', () => {
    expect(availableActions(order({ status: 'paid' }), actor('staff'), NOW)).toEqual([
      'claim',
      'start',
    ]);
    expect(availableActions(order({ status: 'ready' }), actor('manager'), NOW)).toEqual([
      'claim',
      'take-over',
      'fulfil',
      'cancel',
    ]);
    expect(availableActions(order({ status: 'paid' }), actor(null), NOW)).toEqual([]);
  });
});

describe('expirePendingChange', () => {
  it('cancels unpaid orders older than 30 minutes', () => {
    const stale = order({ status: 'pending_payment', createdAt: NOW - PENDING_PAYMENT_TTL_MS });
    const change = expirePendingChange(stale, NOW)!;
    expect(change.patch).toEqual({
      rev: 4,
      updatedById: 'system',
      updatedByName: 'Livedesk',
      status: 'canceled',
      canceledAt: NOW,
    });
    expect(change.activity).toEqual({
      kind: 'canceled',
      data: { from: 'pending_payment', reason: 'payment_timeout', ttlMinutes: 30 },
    });
  });

  it('leaves younger and non-pending orders alone', () => {
    expect(
      expirePendingChange(
        order({ status: 'pending_payment', createdAt: NOW - PENDING_PAYMENT_TTL_MS + 1 }),
        NOW,
      ),
    ).toBeNull();
    for (const status of ORDER_STATUSES.filter((s) => s !== 'pending_payment'))
      expect(expirePendingChange(order({ status, createdAt: 0 }), NOW)).toBeNull();
  });
});

describe('decideRefund', () => {
  const refund = (o: Order, who: Actor, amountCents?: number, expectedRev = o.rev) =>
    decideRefund(o, { expectedRev, ...(amountCents === undefined ? {} : { amountCents }) }, who);

  it('lets managers and owners refund part, then the rest, which makes the order refunded', () => {
    const part = refund(order({ status: 'fulfilled' }), actor('manager'), 300) as OrderChange;
    expect(part.patch).toEqual({
      rev: 4,
      updatedById: 'me',
      updatedByName: 'Mo',
      refundedCents: 300,
      status: 'fulfilled',
    });
    expect(part.activity).toEqual({
      kind: 'refund',
      data: { amountCents: 300, refundedCents: 300, full: false, by: 'manager' },
    });
    const rest = refund(
      order({ status: 'fulfilled', refundedCents: 300 }),
      actor('owner'),
    ) as OrderChange;
    expect(rest.patch).toMatchObject({ refundedCents: 700, status: 'refunded' });
    expect(rest.activity.data).toMatchObject({ amountCents: 400, full: true });
  });

  it('refuses staff and non-members before anything else', () => {
    const staff = refund(order(), actor('staff'), 100, 0) as AppError;
    expect([staff.code, staff.message]).toEqual([
      FB,
      'You don’t have permission to refund orders.',
    ]);
    expect(outcome(refund(order(), actor(null), 100))).toBe(FB);
  });

  it('refuses a stale rev, more than what is left, and orders without a card payment', () => {
    expect(outcome(refund(order(), actor('manager'), 100, 2))).toBe('ORDER_CONFLICT');
    const over = refund(order({ refundedCents: 600 }), actor('manager'), 101) as AppError;
    expect([over.code, over.message]).toEqual(['VALIDATION', 'You can refund at most €1.00.']);
    for (const status of ['pending_payment', 'payment_failed', 'canceled', 'refunded'] as const)
      expect(outcome(refund(order({ status }), actor('manager'), 100))).toBe(IT);
    const scripted = refund(order({ paymentIntentId: null }), actor('manager'), 100) as AppError;
    expect([scripted.code, scripted.message]).toEqual([
      IT,
      'This order was not paid by card, so there is nothing to refund.',
    ]);
  });
});

describe('recordTakenRefund (a refund made at Stripe, recorded after a concurrent change)', () => {
  it('records a refund on the order as it is now, a full one making it refunded', () => {
    const claimed = order({ status: 'preparing', assigneeId: 'ana', assigneeName: 'Ana', rev: 5 });
    const part = recordTakenRefund(claimed, 'refund', 300, actor('manager'), NOW)!;
    expect(part.patch).toEqual({
      rev: 6,
      updatedById: 'me',
      updatedByName: 'Mo',
      refundedCents: 300,
      status: 'preparing',
    });
    expect(part.activity).toEqual({
      kind: 'refund',
      data: { amountCents: 300, refundedCents: 300, full: false, by: 'manager' },
    });
    const full = recordTakenRefund(claimed, 'refund', 700, actor('manager'), NOW)!;
    expect(full.patch).toMatchObject({ refundedCents: 700, status: 'refunded' });
  });

  it('records nothing when the order already shows the refund (the webhook was first)', () => {
    expect(
      recordTakenRefund(order({ refundedCents: 300 }), 'refund', 300, actor('owner'), NOW),
    ).toBe(null);
  });

  it('still cancels when the order can be canceled, with the refund counted', () => {
    const change = recordTakenRefund(
      order({ status: 'ready', rev: 8 }),
      'cancel',
      700,
      actor('manager'),
      NOW,
    )!;
    expect(change.patch).toMatchObject({ status: 'canceled', rev: 9, refundedCents: 700 });
    expect(change.activity).toEqual({
      kind: 'canceled',
      data: { from: 'ready', by: 'manager', refundCents: 700 },
    });
  });

  it('records the refund alone when the order can no longer be canceled', () => {
    const fulfilled = recordTakenRefund(
      order({ status: 'fulfilled' }),
      'cancel',
      700,
      actor('manager'),
      NOW,
    )!;
    expect(fulfilled.patch).toMatchObject({ status: 'refunded', refundedCents: 700 });
    expect(fulfilled.activity.kind).toBe('refund');
    const canceled = order({ status: 'canceled', refundedCents: 700 });
    expect(recordTakenRefund(canceled, 'cancel', 700, actor('manager'), NOW)).toBe(null);
  });
});
