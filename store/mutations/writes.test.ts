import { describe, expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import type { DocumentMeta } from '../../domain/schema.ts';
import { selectNotesWithPending } from '../selectors/details.ts';
import {
  createHarness,
  settle,
  type Harness,
  type HarnessOptions,
} from '../sync/testing/harness.ts';
import { makeOrder, orderDocument } from '../sync/testing/orders.ts';

const seedDoc = (h: Harness, fields: { $id: string } & Record<string, unknown>): DocumentMeta => ({
  $createdAt: new Date(h.clock.now - 60_000).toISOString(),
  $updatedAt: new Date(h.clock.now - 60_000).toISOString(),
  ...fields,
});

async function setup(options: HarnessOptions = {}): Promise<Harness> {
  const h = createHarness(options);
  h.server.seed('orders', [
    orderDocument(
      makeOrder(h.rng, { id: 'o1', number: 1, createdAt: h.clock.now - 60_000, status: 'paid' }),
    ),
  ]);
  h.server.seed('products', [
    seedDoc(h, {
      $id: 'p1',
      name: 'Tea',
      description: '',
      priceCents: 300,
      currency: 'chf',
      active: true,
      imageFileId: null,
      sortOrder: 1,
    }),
  ]);
  h.server.seed('members', [
    seedDoc(h, {
      $id: 'm-ben',
      teamId: 'desk',
      userId: 'u-ben',
      userName: 'Ben',
      userEmail: 'ben@livedesk.test',
      roles: ['staff'],
      confirm: true,
    }),
  ]);
  await h.startLive();
  return h;
}

describe('addNote', () => {
  it('shows the note at once as pending, then the backend’s in the same place', async () => {
    const h = await setup();
    const release = h.store.getState().loadOrderDetail('o1');
    await h.drain();
    h.transport.hold = true;
    const sending = h.store.getState().addNote('o1', '  Extra hot, please ');
    await settle();
    const pending = selectNotesWithPending(h.store.getState(), 'o1');
    // Sent and stored exactly as typed, spaces included.
    expect(pending.map((n) => [n.body, n.authorName])).toEqual([['  Extra hot, please ', 'Ana']]);
    expect(h.store.getState().pendingNotes[pending[0]!.id]).toBeDefined();
    h.transport.release();
    expect(await sending).toEqual({ ok: true });
    const state = h.store.getState();
    expect(state.pendingNotes).toEqual({});
    expect(state.notes.get(pending[0]!.id)!.body).toBe('  Extra hot, please ');
    expect(selectNotesWithPending(state, 'o1').map((n) => n.id)).toEqual([pending[0]!.id]);
    // Its realtime echo changes nothing.
    await h.drain();
    expect(h.store.getState().notes).toBe(state.notes);
    expect(h.store.getState().notesByOrder).toBe(state.notesByOrder);
    release();
  });

  it('refuses an empty or too long note without a call, and keeps a failed one’s error', async () => {
    const h = await setup();
    const empty = await h.store.getState().addNote('o1', '   ');
    expect(!empty.ok && empty.error).toMatchObject({
      code: 'VALIDATION',
      message: 'Write something first.',
    });
    const long = await h.store.getState().addNote('o1', 'x'.repeat(2_001));
    expect(!long.ok && long.error.code).toBe('VALIDATION');
    expect(h.transport.calls).toEqual([]);
    h.transport.failWith = new AppError('FORBIDDEN', 'You don’t have permission to add notes.');
    const refused = await h.store.getState().addNote('o1', 'hello');
    expect(!refused.ok && refused.error.code).toBe('FORBIDDEN');
    const state = h.store.getState();
    expect(state.pendingNotes).toEqual({});
    expect(state.failures['notes:o1']).toMatchObject({
      action: 'add',
      error: { code: 'FORBIDDEN' },
    });
  });
});

describe('rate limits', () => {
  it('shows RATE_LIMITED while it waits after a 429, sends again by itself, then clears it', async () => {
    const h = await setup();
    h.transport.failWith = new AppError(
      'RATE_LIMITED',
      'Too many requests — retrying in a few seconds.',
      { retryAfterSeconds: 0 },
    );
    const sending = h.store.getState().addNote('o1', 'After the limit');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.store.getState().failures['notes:o1']).toMatchObject({
      error: { code: 'RATE_LIMITED', message: 'Too many requests — retrying in 1s.' },
    });
    expect(await sending).toEqual({ ok: true });
    const state = h.store.getState();
    expect(state.failures['notes:o1']).toBeUndefined();
    expect(state.pendingNotes).toEqual({});
    expect(h.transport.calls.map((call) => call.method)).toEqual(['createNote', 'createNote']);
  });
});

describe('products', () => {
  it('creates one in the shop’s currency at the end of the catalog, then edits and deactivates it', async () => {
    const h = await setup();
    const created = await h.store
      .getState()
      .saveProduct(null, { name: 'Latte', description: 'Milk', priceCents: 420 });
    expect(created).toEqual({ ok: true });
    let state = h.store.getState();
    const latte = state.productList.find((p) => p.name === 'Latte')!;
    expect(latte).toMatchObject({ currency: 'chf', sortOrder: 2, active: true, priceCents: 420 });
    expect(state.running).toEqual({});
    // (Products have no rev: the later `$updatedAt` wins, so the clock moves between edits.)
    await h.advance(5);
    const edited = { name: 'Latte', description: '', priceCents: 450 };
    expect(await h.store.getState().saveProduct(latte.id, edited)).toEqual({ ok: true });
    await h.advance(5);
    await h.store.getState().setProductActive(latte.id, false);
    state = h.store.getState();
    expect(state.products.get(latte.id)).toMatchObject({ priceCents: 450, active: false });
    expect(h.server.get('products', latte.id)).toMatchObject({ priceCents: 450, active: false });
  });

  it('marks the product while it is saved, and refuses bad input with the field', async () => {
    const h = await setup();
    h.transport.hold = true;
    const saving = h.store.getState().setProductActive('p1', false);
    await settle();
    expect(h.store.getState().running['product:p1']).toBe('deactivate');
    h.transport.release();
    await saving;
    expect(h.store.getState().running['product:p1']).toBeUndefined();
    const bad = await h.store
      .getState()
      .saveProduct(null, { name: '', description: '', priceCents: 10 });
    expect(!bad.ok && bad.error).toMatchObject({ code: 'VALIDATION', details: { field: 'name' } });
    const price = await h.store
      .getState()
      .saveProduct('p1', { name: 'Tea', description: '', priceCents: 1_000_001 });
    expect(!price.ok && price.error.details).toEqual({ field: 'priceCents' });
    expect(h.store.getState().failures['product:p1']!.error.code).toBe('VALIDATION');
    expect(h.server.get('products', 'p1')).toMatchObject({ priceCents: 300 });
  });
});

describe('team', () => {
  it('changes a role, invites and removes members', async () => {
    const h = await setup();
    expect(await h.store.getState().changeMemberRole('m-ben', 'manager')).toEqual({ ok: true });
    expect(h.store.getState().members.get('m-ben')!.role).toBe('manager');
    const invited = await h.store
      .getState()
      .inviteMember({ email: 'cleo@livedesk.test', name: 'Cleo', role: 'staff' });
    expect(invited).toEqual({ ok: true });
    const cleo = h.store.getState().memberList.find((m) => m.email === 'cleo@livedesk.test')!;
    expect(cleo).toMatchObject({ name: 'Cleo', confirmed: false, role: 'staff' });
    expect(await h.store.getState().removeMember('m-ben')).toEqual({ ok: true });
    expect(h.store.getState().memberList.map((m) => m.name)).toEqual(['Cleo']);
    // The removal's realtime echo does not bring Ben back.
    await h.drain();
    expect(h.store.getState().memberList.map((m) => m.name)).toEqual(['Cleo']);
  });

  it('refuses a bad email and keeps a refused change’s error', async () => {
    const h = await setup();
    const bad = await h.store.getState().inviteMember({ email: 'nope', name: '', role: 'staff' });
    expect(!bad.ok && bad.error).toMatchObject({ code: 'VALIDATION', details: { field: 'email' } });
    const member = await h.store
      .getState()
      .inviteMember({ email: 'Ben@livedesk.test', name: '', role: 'staff' });
    expect(!member.ok && member.error).toMatchObject({
      code: 'VALIDATION',
      message: 'Ben is already on the team.',
      details: { field: 'email' },
    });
    expect(h.transport.calls.filter((c) => c.method === 'inviteMember')).toEqual([]);
    h.transport.failWith = new AppError('FORBIDDEN', 'You don’t have permission to change roles.');
    const refused = await h.store.getState().changeMemberRole('m-ben', 'owner');
    expect(!refused.ok && refused.error.code).toBe('FORBIDDEN');
    expect(h.store.getState().failures['member:m-ben']!.error.message).toBe(
      'You don’t have permission to change roles.',
    );
    expect(h.store.getState().members.get('m-ben')!.role).toBe('staff');
    h.store.getState().dismissFailure('member:m-ben');
    expect(Object.keys(h.store.getState().failures)).toEqual(['member:new']);
  });
});

describe('viewOrder', () => {
  it('announces what the member is viewing, and that they left', async () => {
    const h = await setup();
    const leave = h.store.getState().viewOrder('o1');
    await settle();
    await h.advance(5);
    leave();
    leave();
    await settle();
    expect(h.transport.presences.map((p) => [p.status, p.orderId, p.name])).toEqual([
      ['viewing', 'o1', 'Ana'],
      ['online', null, 'Ana'],
    ]);
    // Others see it through the presence set the store syncs.
    await h.drain();
    expect(h.store.getState().presence.toArray()).toMatchObject([
      { userId: 'u-ana', orderId: null, status: 'online' },
    ]);
  });

  it('writes nothing without a signed-in member', async () => {
    const h = await setup({ actor: null });
    h.store.getState().viewOrder('o1')();
    await settle();
    expect(h.transport.calls).toEqual([]);
  });
});
