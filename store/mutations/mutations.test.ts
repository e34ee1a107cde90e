import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import { orderToDocumentData, type OrderDocument } from '../../domain/order.ts';
import {
  createHarness,
  settle,
  type Harness,
  type HarnessOptions,
} from '../sync/testing/harness.ts';
import { makeOrder, orderDocument } from '../sync/testing/orders.ts';

async function setup(options: HarnessOptions = {}): Promise<Harness> {
  const h = createHarness(options);
  h.server.seed('orders', [
    orderDocument({
      ...makeOrder(h.rng, { id: 'o1', number: 1, createdAt: h.clock.now - 60_000, status: 'paid' }),
      assigneeId: null,
      assigneeName: null,
    }),
    orderDocument(
      makeOrder(h.rng, {
        id: 'o2',
        number: 2,
        createdAt: h.clock.now - 50_000,
        status: 'fulfilled',
      }),
    ),
  ]);
  await h.startLive();
  return h;
}

describe('performOrderAction', () => {
  it('refuses at once what the order machine refuses, without a call', async () => {
    const h = await setup();
    const result = await h.store.getState().performOrderAction('o2', 'start');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: 'This order is already fulfilled.',
      details: { status: 'fulfilled' },
    });
    expect(h.transport.calls).toEqual([]);
    expect(h.store.getState().failures['order:o2']).toMatchObject({
      action: 'start',
      error: { code: 'INVALID_TRANSITION' },
    });
    const forbidden = await h.store.getState().performOrderAction('o1', 'cancel');
    expect(forbidden.ok).toBe(false);
    expect(h.store.getState().failures['order:o1']!.error.code).toBe('FORBIDDEN');
    h.store.getState().dismissFailure('order:o1');
    expect(h.store.getState().failures['order:o1']).toBeUndefined();
  });

  it('needs a signed-in actor', async () => {
    const h = await setup({ actor: null });
    const result = await h.store.getState().performOrderAction('o1', 'claim');
    expect(result.ok || result.error.code).toBe('AUTH_REQUIRED');
  });

  it('applies optimistically, marked pending, then confirms with the backend record', async () => {
    const h = await setup();
    h.transport.hold = true;
    const done = h.store.getState().performOrderAction('o1', 'start');
    await settle();
    let state = h.store.getState();
    expect(state.shownOrders.get('o1')!.status).toBe('preparing');
    expect(state.shownOrders.get('o1')!.assigneeId).toBe('u-ana');
    // The records keep what the backend has; the optimistic record is the mutations'.
    expect(state.orders.get('o1')!.status).toBe('paid');
    expect(state.running['order:o1']).toBe('start');
    expect(state.board.columns.preparing.toArray()).toEqual(['o1']);
    expect(state.board.columns.paid.size).toBe(0);
    expect(h.transport.orderActions).toEqual([
      { orderId: 'o1', action: 'start', expectedRev: state.orders.get('o1')!.rev },
    ]);
    h.transport.release();
    const result = await done;
    state = h.store.getState();
    expect(result.ok).toBe(true);
    expect(state.running['order:o1']).toBeUndefined();
    expect(state.optimistic.o1).toBeUndefined();
    expect(state.shownOrders).toBe(state.orders);
    expect(state.orders.get('o1')!.rev).toBe(h.server.get('orders', 'o1')!.rev);
  });

  it('does not apply the echo of its own change twice (echo first, then the answer)', async () => {
    const h = await setup();
    h.transport.hold = true;
    const done = h.store.getState().performOrderAction('o1', 'claim');
    await settle();
    const optimistic = h.store.getState().shownOrders.get('o1');
    // The backend writes; its echo arrives before the function's answer.
    h.transport.hold = false;
    h.transport.release();
    await settle();
    h.server.deliver();
    h.scheduler.runFrame();
    const echoed = h.store.getState().shownOrders.get('o1');
    expect(echoed).not.toBe(optimistic);
    expect(echoed!.assigneeId).toBe('u-ana');
    let changes = 0;
    const stop = h.store.subscribe((s, prev) => {
      if (s.shownOrders.get('o1') !== prev.shownOrders.get('o1')) changes++;
    });
    await done;
    h.server.deliver();
    h.scheduler.runFrame();
    stop();
    expect(changes).toBe(0);
    expect(h.store.getState().shownOrders.get('o1')).toBe(echoed);
  });

  it('does not apply the echo of its own change twice (answer first, then the echo)', async () => {
    const h = await setup();
    await h.store.getState().performOrderAction('o1', 'claim');
    const confirmed = h.store.getState().shownOrders.get('o1');
    expect(h.server.inFlight).toHaveLength(1);
    h.server.deliver();
    h.scheduler.runFrame();
    expect(h.store.getState().shownOrders.get('o1')).toBe(confirmed);
  });

  it('rolls back and keeps the error when someone else changed the order first', async () => {
    const h = await setup();
    h.transport.hold = true;
    const done = h.store.getState().performOrderAction('o1', 'claim');
    await settle();
    // Ben claims first.
    const current = h.server.get('orders', 'o1') as unknown as OrderDocument;
    h.server.write('orders', 'update', 'o1', {
      ...orderToDocumentData({
        assigneeId: 'u-ben',
        assigneeName: 'Ben',
        rev: current.rev + 1,
        updatedByName: 'Ben',
      }),
    });
    h.server.commitDue(true);
    h.transport.release();
    const result = await done;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('ORDER_CONFLICT');
    await h.drain();
    const state = h.store.getState();
    expect(state.shownOrders.get('o1')!.assigneeName).toBe('Ben');
    expect(state.failures['order:o1']).toMatchObject({
      action: 'claim',
      error: { code: 'ORDER_CONFLICT', message: 'Ben claimed this order a moment ago.' },
    });
    expect(state.running['order:o1']).toBeUndefined();
  });

  it('rolls back on a network failure', async () => {
    const h = await setup();
    const before = h.store.getState().shownOrders.get('o1');
    h.transport.failWith = new AppError('OFFLINE', 'You’re offline.');
    const result = await h.store.getState().performOrderAction('o1', 'start');
    expect(!result.ok && result.error.code).toBe('OFFLINE');
    expect(h.store.getState().shownOrders.get('o1')).toBe(before);
    expect(h.store.getState().board.columns.paid.toArray()).toEqual(['o1']);
  });

  it('runs actions on one order one after another', async () => {
    const h = await setup();
    const first = h.store.getState().performOrderAction('o1', 'start');
    const second = h.store.getState().performOrderAction('o1', 'ready');
    expect((await first).ok).toBe(true);
    expect((await second).ok).toBe(true);
    expect(h.store.getState().shownOrders.get('o1')!.status).toBe('ready');
    expect(h.transport.orderActions.map((c) => c.action)).toEqual(['start', 'ready']);
  });
});

describe('refundOrder', () => {
  const MARCO = { id: 'u-marco', name: 'Marco', role: 'manager' as const };

  /** The desk with o1's whole record loaded (the drawer open): list copies lack the payment. */
  async function opened(options: HarnessOptions = {}): Promise<Harness> {
    const h = await setup(options);
    h.store.getState().loadOrderDetail('o1');
    await h.drain();
    return h;
  }

  it('refunds part, then the rest, each shown at once and confirmed by order-action', async () => {
    const h = await opened({ actor: MARCO });
    const total = h.store.getState().shownOrders.get('o1')!.totalCents;
    const rev = h.store.getState().shownOrders.get('o1')!.rev;
    h.transport.hold = true;
    const first = h.store.getState().refundOrder('o1', 1);
    await settle();
    expect(h.store.getState().running['order:o1']).toBe('refund');
    expect(h.store.getState().shownOrders.get('o1')!.refundedCents).toBe(1);
    h.transport.release();
    h.transport.hold = false;
    expect((await first).ok).toBe(true);
    const rest = await h.store.getState().refundOrder('o1');
    expect(rest.ok && rest.order).toMatchObject({ status: 'refunded', refundedCents: total });
    expect(h.transport.orderActions).toEqual([
      { orderId: 'o1', action: 'refund', expectedRev: rev, amountCents: 1 },
      { orderId: 'o1', action: 'refund', expectedRev: rev + 1 },
    ]);
    expect(h.store.getState().running['order:o1']).toBeUndefined();
  });

  it('refuses at once a staff refund and one above what is left, sending nothing', async () => {
    const staff = await opened();
    const forbidden = await staff.store.getState().refundOrder('o1', 100);
    expect(forbidden.ok || forbidden.error.message).toBe(
      'You don’t have permission to refund orders.',
    );
    const h = await opened({ actor: MARCO });
    const total = h.store.getState().shownOrders.get('o1')!.totalCents;
    const tooMuch = await h.store.getState().refundOrder('o1', total + 1);
    expect(tooMuch.ok || tooMuch.error.code).toBe('VALIDATION');
    expect(h.store.getState().failures['order:o1']!.action).toBe('refund');
    expect([...staff.transport.calls, ...h.transport.calls]).toEqual([]);
    expect(h.store.getState().shownOrders.get('o1')!.refundedCents).toBe(0);
  });
});
