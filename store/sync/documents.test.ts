import { describe, expect, it } from 'vitest';
import type { DocumentMeta } from '../../domain/order.ts';
import { Prng } from './testing/prng.ts';
import { makeOrder, orderDocument } from './testing/orders.ts';
import {
  changeFromEvent,
  documentsChannel,
  listOrderFromDocument,
  ORDER_LIST_FIELDS,
  recordFromDocument,
} from './documents.ts';

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

  it('drops what `wanted` turns down before converting it', () => {
    const seen: string[] = [];
    const event = {
      events: [`${channel}.o1.update`],
      channels: [channel],
      timestamp: 0,
      payload: doc,
    };
    expect(
      changeFromEvent(event, (collection, d) => {
        seen.push(`${collection}/${d.$id}`);
        return false;
      }),
    ).toBeNull();
    expect(seen).toEqual(['orders/o1']);
    expect(changeFromEvent(event, () => true)!.record).toEqual(order);
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
    const record = recordFromDocument('orders', doc)!;
    expect(record).toEqual(order);
    expect(Object.isFrozen(record.items)).toBe(true);
    expect(Object.isFrozen(record.items[0])).toBe(true);
  });

  it('freezes nested objects and arrays to the leaves', () => {
    const activity = recordFromDocument('activity', {
      $id: 'a1',
      $createdAt: doc.$createdAt,
      $updatedAt: doc.$updatedAt,
      orderId: 'o1',
      kind: 'status',
      at: doc.$updatedAt,
      data: JSON.stringify({ from: 'paid', to: 'preparing', path: [{ step: 1 }] }),
    } as DocumentMeta)!;
    const data = activity.data as { path: { step: number }[] };
    expect(Object.isFrozen(activity)).toBe(true);
    expect(Object.isFrozen(data)).toBe(true);
    expect(Object.isFrozen(data.path)).toBe(true);
    expect(Object.isFrozen(data.path[0])).toBe(true);
  });
});

describe('listOrderFromDocument', () => {
  it('keeps the list fields, marks the copy partial and puts placeholders in the rest', () => {
    const listed: DocumentMeta & Record<string, unknown> = {
      $id: 'o1',
      $createdAt: doc.$createdAt,
      $updatedAt: doc.$updatedAt,
    };
    for (const field of ORDER_LIST_FIELDS) listed[field] = doc[field];
    const copy = listOrderFromDocument(listed);
    for (const field of ['id', 'createdAt', 'updatedAt', ...ORDER_LIST_FIELDS] as const)
      expect(copy[field]).toEqual(order[field]);
    expect(copy.partial).toBe(true);
    expect(copy.paymentIntentId).toBeNull();
    expect(copy.subtotalCents).toBe(0);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(copy.items[0])).toBe(true);
    // The same from a whole document: the fields it does not list are not taken.
    expect(listOrderFromDocument(doc)).toEqual(copy);
  });
});
