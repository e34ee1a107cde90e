import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StripeStore } from './store.ts';

const dirs: string[] = [];
function store(dir = mkdtempSync(join(tmpdir(), 'stripe-store-'))): StripeStore {
  dirs.push(dir);
  return new StripeStore(dir);
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('StripeStore', () => {
  it('lists newest first with limit, starting_after and ending_before, by parent', () => {
    const s = store();
    for (let i = 1; i <= 5; i++)
      s.insert({ id: `re_${i}`, object: 'refund', n: i }, {}, i % 2 ? 'pi_odd' : 'pi_even');
    const ids = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);
    const first = s.list<{ id: string }>('refund', { limit: 2 });
    expect(ids(first)).toEqual(['re_5', 're_4']);
    expect(first.hasMore).toBe(true);
    expect(ids(s.list('refund', { limit: 2, startingAfter: 're_4' }))).toEqual(['re_3', 're_2']);
    const last = s.list<{ id: string }>('refund', { limit: 10, startingAfter: 're_2' });
    expect(ids(last)).toEqual(['re_1']);
    expect(last.hasMore).toBe(false);
    expect(ids(s.list('refund', { limit: 2, endingBefore: 're_2' }))).toEqual(['re_4', 're_3']);
    expect(ids(s.list('refund', { limit: 10, parent: 'pi_odd' }))).toEqual([
      're_5',
      're_3',
      're_1',
    ]);
    s.close();
  });

  it('keeps objects and saved responses in its file, and rolls back a failed transaction', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-store-'));
    const first = store(dir);
    first.insert({ id: 'pi_1', object: 'payment_intent', status: 'succeeded' }, { note: 1 });
    first.saveResponse('k', {
      method: 'POST',
      path: '/v1/x',
      fingerprint: '{}',
      status: 200,
      body: '{}',
    });
    expect(() =>
      first.transaction(() => {
        first.insert({ id: 'pi_2', object: 'payment_intent' });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    first.close();
    const second = store(dir);
    expect(second.get('payment_intent', 'pi_1')).toEqual({
      data: { id: 'pi_1', object: 'payment_intent', status: 'succeeded' },
      internal: { note: 1 },
    });
    expect(second.get('payment_intent', 'pi_2')).toBeUndefined();
    expect(second.get('refund', 'pi_1')).toBeUndefined();
    expect(second.savedResponse('k')?.status).toBe(200);
    second.close();
  });

  it('keeps the webhook delivery queue in its file: due, held, rescheduled and removed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-store-'));
    const first = store(dir);
    const late = first.queueDelivery({ event: 'evt_1', endpoint: 'we_1', attempt: 1, due: 5 });
    const held = first.queueDelivery({ event: 'evt_1', endpoint: 'we_2', attempt: 1, due: null });
    const done = first.queueDelivery({ event: 'evt_2', endpoint: 'we_1', attempt: 1, due: 1 });
    first.rescheduleDelivery(late.seq, 3, 40);
    first.removeDelivery(done.seq);
    expect(first.markDelivered('evt_2', 'we_1')).toBe(true);
    first.close();
    const second = store(dir);
    expect(second.dueDeliveries()).toEqual([{ ...late, attempt: 3, due: 40 }]);
    expect(second.heldDeliveries('we_2')).toEqual([held]);
    expect(second.heldDeliveries('we_1')).toEqual([]);
    expect(second.markDelivered('evt_2', 'we_1')).toBe(false);
    expect(second.markDelivered('evt_1', 'we_1')).toBe(true);
    second.close();
  });
});
