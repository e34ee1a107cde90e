import { describe, expect, it } from 'vitest';
import { ACTIVITY_SCHEMA, PRODUCT_SCHEMA } from './entities.ts';
import { ORDER_SCHEMA } from './order.ts';
import {
  deepFreeze,
  documentDataFrom,
  entity,
  field,
  fieldsOfType,
  listFields,
  parseTime,
  recordFromDocument,
  shareString,
  type DocumentMeta,
  type DocumentOf,
  type RecordOf,
} from './schema.ts';

const META = {
  $id: 'x1',
  $createdAt: '2026-03-10T12:00:00.000Z',
  $updatedAt: '2026-03-10T12:05:00.000Z',
};

/** A document with these attributes (some absent or malformed on purpose). */
const docWith = (fields: Record<string, unknown>): DocumentMeta => ({ ...META, ...fields });

const TICKET = entity('tickets', 'Tickets', {
  title: field.text(80, { required: true, list: true }),
  body: field.text(500, { fallback: '' }),
  priority: field.enum(['low', 'high'] as const, { required: true }),
  seats: field.integer({ min: 0, default: 2 }),
  closedAt: field.datetime({ list: true }),
  tags: field.json(1_000, [] as string[]),
});

describe('entity schema', () => {
  it('converts a document into its record: times as epoch ms, JSON parsed, nulls never missing', () => {
    const doc: DocumentOf<typeof TICKET> = {
      ...META,
      title: 'Printer',
      body: null,
      priority: 'high',
      seats: 4,
      closedAt: '2026-03-10T13:00:00.000Z',
      tags: '["a","b"]',
    };
    const record: RecordOf<typeof TICKET> = recordFromDocument(TICKET, doc);
    expect(record).toEqual({
      id: 'x1',
      createdAt: Date.parse(META.$createdAt),
      updatedAt: Date.parse(META.$updatedAt),
      title: 'Printer',
      body: '',
      priority: 'high',
      seats: 4,
      closedAt: Date.parse('2026-03-10T13:00:00.000Z'),
      tags: ['a', 'b'],
    });
  });

  it('reads shared fields (one copy per value) as they are, JSON ones walked in place', () => {
    const fallback = Object.freeze([]) as unknown as { sku: string; qty: number }[];
    const LINE = entity('lines', 'Lines', {
      currency: field.text(3, { required: true, shared: true }),
      owner: field.text(36, { shared: true }),
      items: field.json(1_000, fallback, { required: true, shared: true }),
    });
    const items = '[{"sku":"p1","qty":2,"tags":["x",{"k":"v"}]},{"sku":"p1","qty":1}]';
    const a = recordFromDocument(LINE, docWith({ currency: 'eur', owner: null, items }));
    const b = recordFromDocument(LINE, docWith({ currency: 'eur', owner: 'u1', items: 'bad' }));
    expect(a).toMatchObject({ currency: 'eur', owner: null });
    expect(a.items).toEqual([
      { sku: 'p1', qty: 2, tags: ['x', { k: 'v' }] },
      { sku: 'p1', qty: 1 },
    ]);
    // An unreadable value gives the (frozen, shared) fallback, never written to.
    expect(b).toMatchObject({ currency: 'eur', owner: 'u1' });
    expect(b.items).toBe(fallback);
    // The same text read again gives the same value, frozen: records share it, none changes it.
    const again = recordFromDocument(
      LINE,
      docWith({ currency: 'eur', items: ` ${items}`.slice(1) }),
    );
    expect(again.items).toBe(a.items);
    expect(Object.isFrozen(a.items) && Object.isFrozen(a.items[0])).toBe(true);
    expect(() => (a.items as { sku: string }[]).push({ sku: 'p2' })).toThrow(TypeError);
    const other = recordFromDocument(
      LINE,
      docWith({ currency: 'eur', items: '[{"sku":"p2","qty":1}]' }),
    );
    expect(other.items).toEqual([{ sku: 'p2', qty: 1 }]);
    expect(other.items).not.toBe(a.items);
    expect([shareString('eur'), shareString(7), shareString(null)]).toEqual(['eur', 7, null]);
  });

  it("reads times as Date.parse does: Appwrite's form from its digits, any other through Date.parse", () => {
    const start = Date.UTC(1999, 11, 31, 23, 59, 59, 999);
    for (let i = 0; i < 5_000; i++) {
      const iso = new Date(start + i * 7_919_993_117).toISOString().replace('Z', '+00:00');
      expect(parseTime(iso)).toBe(Date.parse(iso));
    }
    for (const text of [
      '2024-02-29T12:00:00.000+00:00',
      '2023-02-29T12:00:00.000+00:00',
      '2100-02-29T00:00:00.000+00:00',
      '2000-02-29T00:00:00.000+00:00',
      '2026-04-31T00:00:00.000+00:00',
      '2026-13-01T00:00:00.000+00:00',
      '2026-00-10T00:00:00.000+00:00',
      '2026-01-00T00:00:00.000+00:00',
      '2026-01-01T24:00:00.000+00:00',
      '2026-01-01T23:60:00.000+00:00',
      '2026-01-01T23:59:60.000+00:00',
      '2026-01-01T23:59:59.000+01:00',
      '2026-01-01T23:59:59.000-00:00',
      '0099-01-01T00:00:00.000+00:00',
      '2026-0a-01T00:00:00.000+00:00',
      '2026-01-01 00:00:00.000+00:00',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00+00:00',
      'not a time at all, 29 chars.',
    ])
      expect(parseTime(text), text).toBe(Number.isNaN(Date.parse(text)) ? null : Date.parse(text));
    expect([parseTime(null), parseTime(undefined), parseTime('')]).toEqual([null, null, null]);
  });

  it('gives absent fields their default, fallback, null or (required) a placeholder', () => {
    const record = recordFromDocument(TICKET, docWith({ tags: 'not json' }));
    expect(record).toMatchObject({
      title: '',
      body: '',
      priority: 'low',
      seats: 2,
      closedAt: null,
      tags: [],
    });
  });

  it('reads only the list fields of a list copy', () => {
    const record = recordFromDocument(
      TICKET,
      docWith({ title: 'T', priority: 'high', seats: 9, closedAt: null }),
      'list',
    );
    expect(record).toMatchObject({ title: 'T', priority: 'low', seats: 2, closedAt: null });
    expect(listFields(TICKET)).toEqual(['title', 'closedAt']);
  });

  it('converts a record back into document attributes', () => {
    const record = recordFromDocument(
      TICKET,
      docWith({ title: 'T', priority: 'low', closedAt: '2026-03-10T13:00:00.000Z', tags: '["x"]' }),
    );
    expect(documentDataFrom(TICKET, record)).toEqual({
      title: 'T',
      body: '',
      priority: 'low',
      seats: 2,
      closedAt: '2026-03-10T13:00:00.000Z',
      tags: '["x"]',
    });
    expect(documentDataFrom(TICKET, { id: 'x', seats: 1 })).toEqual({ seats: 1 });
  });

  it('describes the product entities', () => {
    expect(listFields(ORDER_SCHEMA)).toContain('status');
    expect(listFields(ORDER_SCHEMA)).not.toContain('paymentIntentId');
    expect(fieldsOfType(ACTIVITY_SCHEMA, 'datetime')).toEqual(['at']);
    expect(recordFromDocument(PRODUCT_SCHEMA, docWith({ name: 'Tea', priceCents: 300 }))).toEqual({
      id: 'x1',
      createdAt: Date.parse(META.$createdAt),
      updatedAt: Date.parse(META.$updatedAt),
      name: 'Tea',
      description: '',
      priceCents: 300,
      currency: '',
      active: true,
      imageFileId: null,
      sortOrder: 0,
    });
  });
});

describe('deepFreeze', () => {
  it('freezes a value and everything in it, and gives it back; primitives pass through', () => {
    const value = { items: [{ sku: 'p1', tags: ['a'] }], note: { text: 'x' } };
    expect(deepFreeze(value)).toBe(value);
    for (const part of [value, value.items, value.items[0], value.items[0]!.tags, value.note])
      expect(Object.isFrozen(part)).toBe(true);
    expect([deepFreeze(null), deepFreeze(7), deepFreeze('s')]).toEqual([null, 7, 's']);
  });
});
