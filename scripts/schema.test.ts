import { describe, expect, it } from 'vitest';
import { BUCKETS, FUNCTIONS } from '../domain/ids.ts';
import { ORDER_SCHEMA } from '../domain/order.ts';
import { LEASE_MS } from '../functions/desk-snapshot/src/lease.ts';
import { attributeOf, schema } from './schema.ts';

describe('provisioning schema', () => {
  it('derives each collection from its entity in domain/', () => {
    const orders = schema.collections.find((c) => c.id === 'orders')!;
    expect(orders.attributes.map((a) => a.key)).toEqual(Object.keys(ORDER_SCHEMA.fields));
    expect(orders.indexes).toEqual(ORDER_SCHEMA.indexes);
    expect(orders.attributes.find((a) => a.key === 'refundedCents')).toEqual({
      type: 'integer',
      key: 'refundedCents',
      required: false,
      min: 0,
      default: 0,
    });
  });

  it('stores JSON as a string attribute and leaves the record-only fallback out', () => {
    expect(attributeOf('items', ORDER_SCHEMA.fields.items)).toEqual({
      type: 'string',
      key: 'items',
      size: 16_384,
      required: true,
    });
    expect(attributeOf('d', { type: 'string', size: 5, required: false, fallback: '' })).toEqual({
      type: 'string',
      key: 'd',
      size: 5,
      required: false,
    });
  });

  it("fills in the orders' items summary from their stored items", () => {
    const orders = schema.collections.find((c) => c.id === 'orders')!;
    const [backfill] = orders.backfills!;
    expect(backfill!.key).toBe('itemsSummary');
    expect(backfill!.reads).toEqual(['items']);
    expect(orders.attributes.map((a) => a.key)).toEqual(
      expect.arrayContaining(['items', 'itemsSummary']),
    );
    const items = JSON.stringify([{ productId: 'p1', name: 'Latte', unitPriceCents: 350, qty: 2 }]);
    expect(backfill!.value({ $id: 'o1', items })).toBe('2× Latte');
  });

  it("keeps the desk's snapshot where the desk reads its orders and only functions write", () => {
    const orders = schema.collections.find((c) => c.id === 'orders')!;
    const snapshots = schema.buckets.find((b) => b.id === BUCKETS.snapshots)!;
    expect(snapshots.permissions).toEqual(orders.permissions);
    expect(snapshots.permissions).toEqual(['read("team:desk")']);
    expect(snapshots.fileSecurity).toBe(false);
    expect(snapshots.maximumFileSize).toBeGreaterThanOrEqual(300_000 * 500);
    const fn = schema.functions.find((f) => f.id === FUNCTIONS.deskSnapshot)!;
    expect(fn).toMatchObject({ execute: [], schedule: '*/15 * * * *', timeout: 300 });
    // A run's lease lasts until Appwrite has ended it.
    expect(fn.timeout * 1000).toBe(LEASE_MS);
    expect(fn.scopes).toEqual(
      expect.arrayContaining(['documents.read', 'files.read', 'files.write']),
    );
  });
});
