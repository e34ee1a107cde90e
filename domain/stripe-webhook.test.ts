import { describe, expect, it } from 'vitest';
import type { Order } from './order.ts';
import type { OrderChange } from './order-machine.ts';
import {
  paymentEventFromStripe,
  reducePaymentEvent,
  refundActor,
  refundActorMetadata,
  cancelRefundInProgress,
  STRIPE_ACTOR,
  type PaymentEvent,
  type PaymentOrder,
} from './stripe-webhook.ts';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');
const PI = 'pi_1';

type TestOrder = PaymentOrder &
  Pick<Order, 'failureCode' | 'cardBrand' | 'cardLast4' | 'paidAt' | 'canceledAt'>;

function order(patch: Partial<TestOrder> = {}): TestOrder {
  return {
    status: 'pending_payment',
    paymentStatus: 'requires_payment_method',
    paymentIntentId: PI,
    totalCents: 2000,
    refundedCents: 0,
    rev: 1,
    failureCode: null,
    cardBrand: null,
    cardLast4: null,
    paidAt: null,
    canceledAt: null,
    ...patch,
  };
}

let sequence = 0;
function event(body: Record<string, unknown> & { type: PaymentEvent['type'] }): PaymentEvent {
  return {
    id: `evt_${++sequence}`,
    created: sequence,
    orderId: 'o1',
    paymentIntentId: PI,
    ...body,
  } as PaymentEvent;
}

const succeeded = () =>
  event({
    type: 'payment_intent.succeeded',
    amountCents: 2000,
    card: { brand: 'visa', last4: '4242' },
  });
const failed = (failureCode = 'insufficient_funds') =>
  event({
    type: 'payment_intent.payment_failed',
    failureCode,
    message: 'Your card has insufficient funds.',
  });
const canceled = () => event({ type: 'payment_intent.canceled' });
const refunded = (refundedCents: number) => event({ type: 'charge.refunded', refundedCents });
const requiresAction = () => event({ type: 'payment_intent.requires_action' });

function applied(decision: ReturnType<typeof reducePaymentEvent>): OrderChange {
  if (decision.kind !== 'apply') throw new Error(`expected apply, got ${JSON.stringify(decision)}`);
  return decision.change;
}

describe('reducePaymentEvent', () => {
  it('pays an order awaiting payment, with card details, as Stripe', () => {
    const change = applied(reducePaymentEvent(order(), succeeded(), NOW));
    expect(change.patch).toMatchObject({
      status: 'paid',
      paymentStatus: 'succeeded',
      cardBrand: 'visa',
      cardLast4: '4242',
      failureCode: null,
      paidAt: NOW,
      rev: 2,
      updatedById: STRIPE_ACTOR.id,
      updatedByName: 'Stripe',
    });
    expect(change.activity.kind).toBe('paid');
    const afterFailure = order({
      status: 'payment_failed',
      paymentStatus: 'failed',
      failureCode: 'x',
    });
    expect(applied(reducePaymentEvent(afterFailure, succeeded(), NOW)).patch.status).toBe('paid');
  });

  it('ignores a repeated or late success, and events of another PaymentIntent', () => {
    for (const status of ['paid', 'preparing', 'ready', 'fulfilled', 'refunded'] as const)
      expect(
        reducePaymentEvent(order({ status, paymentStatus: 'succeeded' }), succeeded(), NOW),
      ).toEqual({ kind: 'ignore', reason: 'already_paid' });
    expect(reducePaymentEvent(order({ paymentIntentId: 'pi_other' }), succeeded(), NOW)).toEqual({
      kind: 'ignore',
      reason: 'another_payment_intent',
    });
    expect(
      applied(reducePaymentEvent(order({ paymentIntentId: null }), succeeded(), NOW)).patch
        .paymentIntentId,
    ).toBe(PI);
  });

  it('marks a pending order payment_failed once, and never a paid one', () => {
    const change = applied(reducePaymentEvent(order(), failed(), NOW));
    expect(change.patch).toMatchObject({
      status: 'payment_failed',
      paymentStatus: 'failed',
      failureCode: 'insufficient_funds',
    });
    expect(change.activity).toMatchObject({ kind: 'payment_failed' });
    expect(
      reducePaymentEvent(
        order({ status: 'payment_failed', paymentStatus: 'failed' }),
        failed(),
        NOW,
      ).kind,
    ).toBe('ignore');
    expect(reducePaymentEvent(order({ status: 'paid' }), failed(), NOW).kind).toBe('ignore');
  });

  it('cancels an order awaiting payment when its PaymentIntent is canceled, and nothing else', () => {
    expect(applied(reducePaymentEvent(order(), canceled(), NOW)).patch).toMatchObject({
      status: 'canceled',
      paymentStatus: 'canceled',
      canceledAt: NOW,
    });
    expect(reducePaymentEvent(order({ status: 'paid' }), canceled(), NOW).kind).toBe('ignore');
    expect(reducePaymentEvent(order({ status: 'canceled' }), canceled(), NOW).kind).toBe('ignore');
  });

  it('records a payment that lands on an order canceled meanwhile, and asks for its refund', () => {
    const decision = reducePaymentEvent(order({ status: 'canceled' }), succeeded(), NOW);
    expect(decision).toMatchObject({
      kind: 'apply',
      refundNeeded: true,
      change: { patch: { paymentStatus: 'succeeded' }, activity: { kind: 'paid' } },
    });
    expect(applied(decision).patch.status).toBeUndefined();
  });

  it('raises refundedCents to the running total, a full refund making the order refunded', () => {
    const paid = order({ status: 'preparing', paymentStatus: 'succeeded' });
    const part = applied(reducePaymentEvent(paid, refunded(500), NOW));
    expect(part.patch).toMatchObject({ refundedCents: 500, status: 'preparing' });
    expect(part.activity).toMatchObject({
      kind: 'refund',
      data: { amountCents: 500, full: false },
    });
    const rest = applied(
      reducePaymentEvent({ ...paid, refundedCents: 500, rev: 2 }, refunded(2000), NOW),
    );
    expect(rest.patch).toMatchObject({ refundedCents: 2000, status: 'refunded', rev: 3 });
    expect(rest.activity.data).toMatchObject({ amountCents: 1500, full: true });
    expect(reducePaymentEvent({ ...paid, refundedCents: 2000 }, refunded(500), NOW)).toEqual({
      kind: 'ignore',
      reason: 'already_refunded',
    });
    const canceledWithRefund = order({ status: 'canceled', paymentStatus: 'succeeded' });
    expect(applied(reducePaymentEvent(canceledWithRefund, refunded(2000), NOW)).patch.status).toBe(
      'canceled',
    );
  });

  it('defers a refund that arrives before the payment, and does not track processing or 3DS', () => {
    expect(reducePaymentEvent(order(), refunded(500), NOW)).toEqual({
      kind: 'defer',
      reason: 'refund_before_payment',
    });
    expect(reducePaymentEvent(order(), requiresAction(), NOW)).toEqual({
      kind: 'ignore',
      reason: 'not_tracked',
    });
  });
});

/** A small seeded random generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Run {
  final: TestOrder;
  activities: OrderChange['activity'][];
}

/**
 * Delivers `events` as the webhook would get them: shuffled, some twice, a deferred one again
 * at the end of the queue; applies each decision to the order.
 */
function deliver(start: TestOrder, events: PaymentEvent[], seed: number | null): Run {
  const next = seed === null ? () => 0.99 : random(seed);
  const queue = [...events];
  if (seed !== null) {
    for (const e of events) if (next() < 0.3) queue.push(e);
    for (let i = queue.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [queue[i], queue[j]] = [queue[j]!, queue[i]!];
    }
  }
  let current = { ...start };
  const activities: OrderChange['activity'][] = [];
  for (let guard = 0; queue.length > 0; guard++) {
    if (guard > 1000) throw new Error('deliveries never settle');
    const e = queue.shift()!;
    const decision = reducePaymentEvent(current, e, NOW);
    if (decision.kind === 'defer') queue.push(e);
    if (decision.kind !== 'apply') continue;
    current = { ...current, ...decision.change.patch } as TestOrder;
    activities.push(decision.change.activity);
  }
  return { final: current, activities };
}

const SCENARIOS: { name: string; start: TestOrder; events: () => PaymentEvent[] }[] = [
  {
    name: 'declined, 3-D Secure, paid, refunded in two parts',
    start: order(),
    events: () => [failed(), requiresAction(), succeeded(), refunded(500), refunded(2000)],
  },
  {
    name: 'declined twice, then abandoned',
    start: order(),
    events: () => [failed(), failed('lost_card'), canceled()],
  },
  {
    name: 'paid while preparing is refunded in part',
    start: order(),
    events: () => [succeeded(), refunded(300), refunded(1200)],
  },
  {
    name: 'paid after the order expired, then refunded',
    start: order({ status: 'canceled', paymentStatus: 'requires_payment_method' }),
    events: () => [requiresAction(), succeeded(), refunded(2000)],
  },
];

function failureCodes(events: PaymentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'payment_intent.payment_failed' ? [e.failureCode] : []));
}

describe('reducePaymentEvent under duplicated, reordered and late deliveries', () => {
  for (const scenario of SCENARIOS) {
    it(`ends like in-order delivery for 200 seeded trials: ${scenario.name}`, () => {
      const events = scenario.events();
      const inOrder = deliver(scenario.start, events, null);
      const refundedTotal = (run: Run) =>
        run.activities
          .filter((a) => a.kind === 'refund')
          .reduce((sum, a) => sum + Number(a.data.amountCents), 0);
      for (let seed = 1; seed <= 200; seed++) {
        const run = deliver(scenario.start, events, seed);
        // Times differ; the failure code kept is that of the first decline delivered, and none
        // when the cancellation came first (a late decline never touches a canceled order).
        const { paidAt: _p, canceledAt: _c, rev: _r, failureCode, ...state } = run.final;
        const {
          paidAt: _p2,
          canceledAt: _c2,
          rev: _r2,
          failureCode: code,
          ...expected
        } = inOrder.final;
        expect(state, `seed ${seed}`).toEqual(expected);
        if (code === null) expect(failureCode).toBeNull();
        else expect([null, ...failureCodes(events)]).toContain(failureCode);
        // one activity per change, and each change counted once
        expect(run.final.rev - scenario.start.rev).toBe(run.activities.length);
        expect(run.activities.filter((a) => a.kind === 'paid').length).toBeLessThanOrEqual(1);
        expect(refundedTotal(run)).toBe(run.final.refundedCents);
        const ids = run.activities.map((a) => a.data.eventId);
        expect(new Set(ids).size).toBe(ids.length);
      }
    });
  }
});

describe('paymentEventFromStripe', () => {
  it('reads the events the desk uses from Stripe event JSON', () => {
    const intent = {
      id: PI,
      object: 'payment_intent',
      amount: 2000,
      amount_received: 2000,
      metadata: { orderId: 'o9' },
      latest_charge: { payment_method_details: { card: { brand: 'visa', last4: '4242' } } },
      last_payment_error: {
        code: 'card_declined',
        decline_code: 'stolen_card',
        message: 'Your card was declined.',
      },
    };
    expect(
      paymentEventFromStripe({
        id: 'evt_1',
        created: 5,
        type: 'payment_intent.succeeded',
        data: { object: intent },
      }),
    ).toEqual({
      id: 'evt_1',
      created: 5,
      orderId: 'o9',
      type: 'payment_intent.succeeded',
      paymentIntentId: PI,
      amountCents: 2000,
      card: { brand: 'visa', last4: '4242' },
    });
    expect(
      paymentEventFromStripe({
        id: 'evt_2',
        created: 6,
        type: 'payment_intent.payment_failed',
        data: { object: { ...intent, latest_charge: 'ch_1' } },
      }),
    ).toMatchObject({ failureCode: 'stolen_card', message: 'Your card was declined.' });
    expect(
      paymentEventFromStripe({
        id: 'evt_3',
        created: 7,
        type: 'charge.refunded',
        data: {
          object: {
            id: 'ch_1',
            payment_intent: PI,
            amount_refunded: 700,
            metadata: { orderId: 'o9' },
          },
        },
      }),
    ).toMatchObject({
      type: 'charge.refunded',
      paymentIntentId: PI,
      refundedCents: 700,
      orderId: 'o9',
    });
    expect(
      paymentEventFromStripe({ id: 'evt_4', type: 'customer.created', data: { object: {} } }),
    ).toBeNull();
    expect(paymentEventFromStripe('nonsense')).toBeNull();
  });
});

describe('refundActor', () => {
  const mia = { id: 'u-mia', name: 'Mia Manager' };
  const oscar = { id: 'u-oscar', name: 'Oscar Owner' };
  const refund = (amount: number, actor: typeof mia | null, status = 'succeeded') => ({
    amount,
    status,
    metadata: actor ? { orderId: 'o1', ...refundActorMetadata(actor) } : { orderId: 'o1' },
  });

  it('names the desk member whose refunds the change records', () => {
    expect(refundActor([refund(300, mia)], 0, 300)).toEqual(mia);
    // Mia's 300 was recorded already; Oscar's 200 is what this event adds.
    expect(refundActor([refund(300, mia), refund(200, oscar)], 300, 500)).toEqual(oscar);
    // Both of Mia's, recorded by one event; a failed refund counts for nothing.
    expect(
      refundActor([refund(100, mia), refund(50, oscar, 'failed'), refund(200, mia)], 0, 300),
    ).toEqual(mia);
  });

  it('is Stripe for refunds made outside the desk, by several people, or none found', () => {
    expect(refundActor([refund(300, null)], 0, 300)).toEqual(STRIPE_ACTOR);
    expect(refundActor([refund(300, mia), refund(200, oscar)], 0, 500)).toEqual(STRIPE_ACTOR);
    expect(refundActor([refund(300, mia), refund(200, null)], 300, 500)).toEqual(STRIPE_ACTOR);
    expect(refundActor([], 0, 300)).toEqual(STRIPE_ACTOR);
    expect(
      refundActor([{ amount: 300, status: 'succeeded', metadata: { actorId: 'u' } }], 0, 300),
    ).toEqual(STRIPE_ACTOR);
  });
});

describe('cancelRefundInProgress', () => {
  const refund = (amount: number, created: number, intent?: string) => ({
    amount,
    created,
    status: 'succeeded',
    metadata: (intent ? { intent } : {}) as Record<string, string>,
  });
  it('holds a fresh refund made by a cancel, and only that', () => {
    const now = 1_000_000;
    expect(cancelRefundInProgress([refund(700, now - 2, 'cancel')], 0, 700, now)).toBe(true);
    expect(cancelRefundInProgress([refund(700, now - 2)], 0, 700, now)).toBe(false);
    expect(cancelRefundInProgress([refund(700, now - 61, 'cancel')], 0, 700, now)).toBe(false);
    // Already recorded (the order counts it): nothing in progress.
    expect(cancelRefundInProgress([refund(700, now - 2, 'cancel')], 700, 700, now)).toBe(false);
  });
});
