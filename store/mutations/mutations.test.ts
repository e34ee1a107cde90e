import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import type { Actor } from '../../domain/order-machine.ts';
import { orderToDocumentData, type OrderDocument } from '../../domain/order.ts';
import { createHarness, settle, type Harness } from '../sync/testing/harness.ts';
import { ModelOrderGateway } from '../sync/testing/model-gateway.ts';
import { makeOrder, orderDocument } from '../sync/testing/orders.ts';

const ANA: Actor = { id: 'u-ana', name: 'Ana', role: 'staff' };

async function setup(): Promise<Harness & { gateway: ModelOrderGateway }> {
  let gateway!: ModelOrderGateway;
  const h = createHarness({
    gateway: (server, clock) => (gateway = new ModelOrderGateway(server, clock, ANA)),
  });
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
  h.store.getState().setActor(ANA);
  h.store.getState().startSync();
  await settle();
  h.server.connect();
  await h.drain();
  return Object.assign(h, { gateway });
}

describe('performOrderAction', () => {
  it('refuses at once what the order machine refuses, without a call', async () => {
    const h = await setup();
    const result = await h.store.getState().performOrderAction('o2', 'start');
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'INVALID_TRANSITION',
        message: 'This order is already fulfilled.',
        details: { status: 'fulfilled' },
      },
    });
    expect(h.gateway.calls).toEqual([]);
    expect(h.store.getState().orderErrors.o2!.code).toBe('INVALID_TRANSITION');
    const forbidden = await h.store.getState().performOrderAction('o1', 'cancel');
    expect(forbidden.ok).toBe(false);
    expect(h.store.getState().orderErrors.o1!.code).toBe('FORBIDDEN');
    h.store.getState().dismissOrderError('o1');
    expect(h.store.getState().orderErrors.o1).toBeUndefined();
  });

  it('needs a signed-in actor', async () => {
    const h = await setup();
    h.store.getState().setActor(null);
    const result = await h.store.getState().performOrderAction('o1', 'claim');
    expect(result.ok || result.error.code).toBe('AUTH_REQUIRED');
  });

  it('applies optimistically, marked pending, then confirms with the backend record', async () => {
    const h = await setup();
    h.gateway.hold = true;
    const done = h.store.getState().performOrderAction('o1', 'start');
    await settle();
    let state = h.store.getState();
    expect(state.orders.get('o1')!.status).toBe('preparing');
    expect(state.orders.get('o1')!.assigneeId).toBe('u-ana');
    expect(state.pendingActions.o1).toBe('start');
    expect(state.board.columns.preparing.toArray()).toEqual(['o1']);
    expect(state.board.columns.paid.size).toBe(0);
    expect(h.gateway.calls).toEqual([
      { orderId: 'o1', action: 'start', expectedRev: state.overlays.o1!.base!.rev },
    ]);
    h.gateway.release();
    const result = await done;
    state = h.store.getState();
    expect(result.ok).toBe(true);
    expect(state.pendingActions.o1).toBeUndefined();
    expect(state.overlays.o1).toBeUndefined();
    expect(state.orders.get('o1')!.rev).toBe(h.server.get('orders', 'o1')!.rev);
  });

  it('does not apply the echo of its own change twice (echo first, then the answer)', async () => {
    const h = await setup();
    h.gateway.hold = true;
    const done = h.store.getState().performOrderAction('o1', 'claim');
    await settle();
    const optimistic = h.store.getState().orders.get('o1');
    // The backend writes; its echo arrives before the function's answer.
    h.gateway.hold = false;
    h.gateway.release();
    await settle();
    h.server.deliver();
    h.scheduler.runFrame();
    const echoed = h.store.getState().orders.get('o1');
    expect(echoed).not.toBe(optimistic);
    expect(echoed!.assigneeId).toBe('u-ana');
    let changes = 0;
    const stop = h.store.subscribe((s, prev) => {
      if (s.orders.get('o1') !== prev.orders.get('o1')) changes++;
    });
    await done;
    h.server.deliver();
    h.scheduler.runFrame();
    stop();
    expect(changes).toBe(0);
    expect(h.store.getState().orders.get('o1')).toBe(echoed);
  });

  it('does not apply the echo of its own change twice (answer first, then the echo)', async () => {
    const h = await setup();
    await h.store.getState().performOrderAction('o1', 'claim');
    const confirmed = h.store.getState().orders.get('o1');
    expect(h.server.inFlight).toHaveLength(1);
    h.server.deliver();
    h.scheduler.runFrame();
    expect(h.store.getState().orders.get('o1')).toBe(confirmed);
  });

  it('rolls back and keeps the error when someone else changed the order first', async () => {
    const h = await setup();
    h.gateway.hold = true;
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
    h.gateway.release();
    const result = await done;
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('ORDER_CONFLICT');
    await h.drain();
    const state = h.store.getState();
    expect(state.orders.get('o1')!.assigneeName).toBe('Ben');
    expect(state.orderErrors.o1).toMatchObject({
      code: 'ORDER_CONFLICT',
      action: 'claim',
      orderId: 'o1',
    });
    expect(state.orderErrors.o1!.message).toBe('Ben claimed this order a moment ago.');
    expect(state.pendingActions.o1).toBeUndefined();
  });

  it('rolls back on a network failure', async () => {
    const h = await setup();
    const before = h.store.getState().orders.get('o1');
    h.gateway.failWith = new AppError('OFFLINE', 'You’re offline.');
    const result = await h.store.getState().performOrderAction('o1', 'start');
    expect(!result.ok && result.error.code).toBe('OFFLINE');
    expect(h.store.getState().orders.get('o1')).toBe(before);
    expect(h.store.getState().board.columns.paid.toArray()).toEqual(['o1']);
  });

  it('runs actions on one order one after another', async () => {
    const h = await setup();
    const first = h.store.getState().performOrderAction('o1', 'start');
    const second = h.store.getState().performOrderAction('o1', 'ready');
    expect((await first).ok).toBe(true);
    expect((await second).ok).toBe(true);
    expect(h.store.getState().orders.get('o1')!.status).toBe('ready');
    expect(h.gateway.calls.map((c) => c.action)).toEqual(['start', 'ready']);
  });
});
