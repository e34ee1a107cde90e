import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { EntityTable } from '../records/entity-table.ts';
import { listOrderFromDocument } from './documents.ts';
import { pageOf } from './persist.ts';
import {
  PAGE_CHUNKS,
  segmentArrays,
  SnapshotDecoder,
  SnapshotEncoder,
  type Segment,
} from './snapshot-codec.ts';
import { makeOrder, orderDocument } from './testing/orders.ts';
import { Prng } from './testing/prng.ts';

const NOW = Date.UTC(2026, 10, 20, 12);
const DAY = 86_400_000;

/** Whole orders and list copies, as the store holds them (frozen). */
function orders(count: number, seed = 1): Order[] {
  const rng = new Prng(seed);
  const out: Order[] = [];
  for (let i = 0; i < count; i++) {
    const status = rng.pick(['paid', 'preparing', 'ready', 'fulfilled', 'canceled'] as const);
    const createdAt = NOW - rng.int(0, 29) * DAY;
    const order = makeOrder(rng, { number: 1000 + i, createdAt, status });
    out.push(
      i % 3 === 0
        ? Object.freeze({ ...order, noteCount: rng.int(0, 4), customerId: `c${i}` })
        : listOrderFromDocument(orderDocument(order, i)),
    );
  }
  return out;
}

/** Every page of `table` encoded, then decoded back (through a structured clone, as stored). */
function roundTrip(table: EntityTable<Order>, encoder = new SnapshotEncoder()) {
  const segments: Segment[] = [];
  for (let p = 0; p * PAGE_CHUNKS < table.chunkCount; p++)
    segments.push(encoder.encode(pageOf(table, p)));
  const decoder = new SnapshotDecoder(structuredClone(encoder.dictionaries()));
  return {
    segments,
    chunks: segments.flatMap((segment) => decoder.decode(structuredClone(segment))),
  };
}

describe('snapshot codec', () => {
  it('encodes a page a chunk at a time as it encodes it whole, pages interleaved too', () => {
    const table = EntityTable.from(orders(5_000, 3));
    const whole = new SnapshotEncoder();
    const expected = [0, 1].map((p) => whole.encode(pageOf(table, p)));
    const stepped = new SnapshotEncoder();
    const got = [0, 1].map((p) => {
      const page = stepped.page();
      for (const chunk of pageOf(table, p)) page.add(chunk);
      return page.finish();
    });
    got.forEach((segment, p) => {
      expect(segment.text).toBe(expected[p]!.text);
      expect(new Uint8Array(segment.data)).toEqual(new Uint8Array(expected[p]!.data));
    });
    expect(stepped.dictionaries()).toEqual(whole.dictionaries());
    // Two pages under way at once, and a page encoded whole in between (the first screens are).
    const encoder = new SnapshotEncoder();
    const [first, second] = [encoder.page(), encoder.page()];
    const [a, b] = [pageOf(table, 0), pageOf(table, 1)];
    for (let c = 0; c < PAGE_CHUNKS; c++) {
      if (a[c]) first!.add(a[c]!);
      if (c === 3) encoder.encode(pageOf(table, 1));
      if (b[c]) second!.add(b[c]!);
    }
    const segments = [first!.finish(), second!.finish()];
    const decoder = new SnapshotDecoder(structuredClone(encoder.dictionaries()));
    const chunks = segments.flatMap((segment) => decoder.decode(structuredClone(segment)));
    chunks.forEach((chunk, c) => expect(chunk).toEqual(table.chunkAt(c)));
    expect(chunks).toHaveLength(a.length + b.length);
    // A page holds PAGE_CHUNKS chunks at most.
    const full = encoder.page();
    for (const chunk of a) full.add(chunk);
    expect(() => full.add(table.chunkAt(0))).toThrow(RangeError);
  });

  it('gives back each chunk it encoded: values, slots, key order, list copies, frozen records', () => {
    // Two pages; the first with an emptied chunk and holes.
    const list = orders(5_000);
    const draft = EntityTable.from(list).edit();
    for (const order of list.slice(100, 300)) draft.delete(order.id);
    for (const order of list.slice(1_000, 1_100)) if (order.number % 2) draft.delete(order.id);
    const table = draft.commit();
    const { chunks } = roundTrip(table);
    expect(chunks).toHaveLength(table.chunkCount);
    chunks.forEach((chunk, c) => {
      expect(chunk).toEqual(table.chunkAt(c));
      chunk.forEach((order, slot) => {
        if (!order) return;
        expect(Object.keys(order)).toEqual(Object.keys(table.chunkAt(c)[slot]!));
        expect(Object.isFrozen(order)).toBe(true);
        expect(Object.isFrozen(order.items)).toBe(true);
      });
    });
    // Items are kept as their distinct elements (product × quantity), not whole lists.
    expect(new SnapshotEncoder().dictionaries().items).toEqual([]);
    const encoder = new SnapshotEncoder();
    encoder.encode(pageOf(table, 0));
    expect(encoder.dictionaries().items!.length).toBeLessThanOrEqual(12);
    // The same table again, chunk for chunk.
    expect(EntityTable.fromChunks(chunks)!.toArray()).toEqual(table.toArray());
  });

  it('keeps numbers and times as compact as they allow, and null apart from every value', () => {
    const list = orders(128);
    const segment = new SnapshotEncoder().encode([EntityTable.from(list).chunkAt(0)]);
    expect(segmentArrays(segment)).toMatchObject({
      number: 'Int32Array',
      createdAt: 'Uint32Array',
      status: 'Uint8Array',
      customerName: 'Uint16Array',
    });
    // Values no compact form holds: a fraction, a time beyond 49 days of the others, text of
    // two-byte characters, very long text, more than 256 distinct values.
    const odd = EntityTable.from(
      list.map((order, i) =>
        Object.freeze({
          ...order,
          totalCents: i === 5 ? 12.5 : order.totalCents,
          paidAt: i === 7 ? NOW + 60 * DAY : order.paidAt,
          customerName: i === 9 ? 'Zoë 🌟 Łukasz' : order.customerName,
          customerEmail: i === 11 ? 'x'.repeat(70_000) : order.customerEmail,
        }),
      ),
    );
    const encoder = new SnapshotEncoder();
    for (let i = 0; i < 300; i++)
      encoder.encode([[Object.freeze({ ...list[0]!, assigneeName: `S${i}` })]]);
    const { segments, chunks } = roundTrip(odd, encoder);
    expect(segmentArrays(segments[0]!)).toMatchObject({
      totalCents: 'Float64Array',
      paidAt: 'Float64Array',
      customerEmail: 'Uint32Array',
      assigneeName: 'Uint16Array',
    });
    expect(chunks[0]).toEqual(odd.chunkAt(0));
  });

  it('an encoder continuing kept dictionaries gives old and new segments the same indexes', () => {
    const list = orders(256);
    const first = new SnapshotEncoder();
    const kept = first.encode([EntityTable.from(list).chunkAt(0)]);
    const dictionaries = structuredClone(first.dictionaries());
    const next = new SnapshotEncoder(dictionaries);
    const later = next.encode([EntityTable.from(list).chunkAt(1)]);
    const decoder = new SnapshotDecoder(next.dictionaries());
    expect(decoder.decode(kept)).toEqual([EntityTable.from(list).chunkAt(0)]);
    expect(decoder.decode(later)).toEqual([EntityTable.from(list).chunkAt(1)]);
  });

  it('refuses what is not a well-formed segment', () => {
    const encoder = new SnapshotEncoder();
    const segment = encoder.encode([EntityTable.from(orders(10)).chunkAt(0)]);
    const decoder = new SnapshotDecoder(encoder.dictionaries());
    const header = (s: Segment) => new Float64Array(s.data, 0, 5);
    const keyAt = (key: string) => Object.keys(segmentArrays(segment)).indexOf(key);
    const column = (s: Segment, key: string) => new Float64Array(s.data, 40 + 32 * keyAt(key), 4);
    const broken = (change: (s: Segment) => void) => {
      const copy = structuredClone(segment);
      change(copy);
      return () => decoder.decode(copy);
    };
    expect(decoder.decode(structuredClone(segment))).toEqual([
      EntityTable.from(orders(10)).chunkAt(0),
    ]);
    expect(() => decoder.decode(null)).toThrow(TypeError);
    expect(() => decoder.decode({ data: new ArrayBuffer(8), text: '' })).toThrow(TypeError);
    expect(() => new SnapshotDecoder(null)).toThrow(TypeError);
    expect(() => new SnapshotDecoder({})).toThrow(TypeError);
    expect(broken((s) => (header(s)[0] = 9))).toThrow(TypeError);
    expect(broken((s) => (header(s)[1] = 11))).toThrow(TypeError);
    expect(broken((s) => (header(s)[1] = 129))).toThrow(TypeError);
    expect(broken((s) => (new Uint16Array(s.data, header(s)[2], 10)[3] = 200))).toThrow(TypeError);
    expect(broken((s) => (header(s)[4] = 40))).toThrow(TypeError);
    expect(broken((s) => (column(s, 'number')[0] = 1))).toThrow(TypeError);
    expect(broken((s) => (column(s, 'status')[1] = 5e6))).toThrow(TypeError);
    expect(broken((s) => (new Uint8Array(s.data, column(s, 'status')[1], 10)[0] = 99))).toThrow(
      TypeError,
    );
    expect(broken((s) => (s.text += 'x'))).toThrow(TypeError);
  });

  it('refuses a value its column cannot hold', () => {
    const [order] = orders(1);
    expect(() =>
      new SnapshotEncoder().encode([[{ ...order!, number: 'x' as unknown as number }]]),
    ).toThrow(TypeError);
  });
});
