import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../domain/order.ts';
import { CHUNK_SLOTS, EntityTable } from '../records/entity-table.ts';
import { makeOrder } from '../sync/testing/orders.ts';
import { Prng } from '../sync/testing/prng.ts';
import { statusCodesAt, statusMask } from './status-codes.ts';

describe('status codes', () => {
  const rng = new Prng(7);
  const orders = EntityTable.from(
    Array.from({ length: CHUNK_SLOTS + 100 }, (_, i) =>
      makeOrder(rng, { number: i + 1, createdAt: i, status: rng.pick(ORDER_STATUSES) }),
    ),
  );

  it('marks the slots whose order has one of the statuses, and no empty slot', () => {
    const mask = statusMask(['paid', 'refunded']);
    for (let c = 0; c < orders.chunkCount; c++) {
      const codes = statusCodesAt(orders, c);
      for (let i = 0; i < CHUNK_SLOTS; i++) {
        const order = orders.atSlot(c * CHUNK_SLOTS + i);
        const kept = order !== undefined && ['paid', 'refunded'].includes(order.status);
        expect(mask[codes[i]!]).toBe(kept ? 1 : 0);
      }
    }
  });

  it('makes a chunk once and a changed chunk again', () => {
    expect(statusCodesAt(orders, 0)).toBe(statusCodesAt(orders, 0));
    const draft = orders.edit();
    const first = orders.atSlot(0)!;
    draft.set({ ...first, status: first.status === 'paid' ? 'ready' : 'paid' });
    const next = draft.commit();
    expect(statusCodesAt(next, 1)).toBe(statusCodesAt(orders, 1));
    const mask = statusMask([next.atSlot(0)!.status]);
    expect(mask[statusCodesAt(next, 0)[0]!]).toBe(1);
    expect(mask[statusCodesAt(orders, 0)[0]!]).toBe(0);
  });
});
