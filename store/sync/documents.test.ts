import { describe, expect, it } from 'vitest';
import { Prng } from './testing/prng.ts';
import { makeOrder, orderDocument } from './testing/orders.ts';
import { changeFromEvent, documentsChannel, recordFromDocument } from './documents.ts';

const order = makeOrder(new Prng(1), {
  id: 'o1',
  number: 7,
  createdAt: Date.UTC(2026, 0, 1),
  status: 'paid',
});
const doc = orderDocument(order, 3);
const channel = documentsChannel('orders');

describe('changeFromEvent', () => {
  it('reads upserts and deletes of synced collections', () => {
    const upsert = changeFromEvent({
      events: [`${channel}.o1.update`, channel],
      channels: [channel, `${channel}.o1`],
      timestamp: '2026-01-01T00:00:00.000+00:00',
      payload: doc,
    });
    expect(upsert).toEqual({ collection: 'orders', kind: 'upsert', record: order });
    expect(Object.isFrozen(upsert!.record)).toBe(true);
    const removed = changeFromEvent({
      events: [`${channel}.o1.delete`],
      channels: [channel],
      timestamp: 0,
      payload: doc,
    });
    expect(removed!.kind).toBe('delete');
  });

  it('ignores other channels and payloads that are not documents', () => {
    expect(
      changeFromEvent({ events: [], channels: ['account'], timestamp: 0, payload: doc }),
    ).toBeNull();
    expect(
      changeFromEvent({
        events: [],
        channels: [documentsChannel('stripe_events')],
        timestamp: 0,
        payload: doc,
      }),
    ).toBeNull();
    expect(
      changeFromEvent({ events: [], channels: [channel], timestamp: 0, payload: { x: 1 } }),
    ).toBeNull();
    expect(
      changeFromEvent({ events: [], channels: [channel], timestamp: 0, payload: null }),
    ).toBeNull();
  });
});

describe('recordFromDocument', () => {
  it('converts with the domain converters and freezes deeply', () => {
    const record = recordFromDocument('orders', doc);
    expect(record).toEqual(order);
    expect(Object.isFrozen(record.items)).toBe(true);
    expect(Object.isFrozen(record.items[0])).toBe(true);
  });
});
