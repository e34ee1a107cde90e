import { describe, expect, it } from 'vitest';
import type { DocumentMeta } from '../../../domain/schema.ts';
import { listOrderFromDocument, ORDER_LIST_SELECT } from '../../../store/sync/documents.ts';
import { readPersisted, SNAPSHOT_VERSION } from '../../../store/sync/persist.ts';
import { decodeSnapshotFile } from '../../../store/sync/snapshot-file.ts';
import { snapshotBytes } from './snapshot-bytes.ts';

const STATUSES = ['paid', 'preparing', 'ready', 'fulfilled', 'canceled'] as const;

/** An order document as a list read with `ORDER_LIST_SELECT` answers it. */
function listDocument(i: number): DocumentMeta {
  const at = (ms: number) => new Date(1_790_000_000_000 + ms).toISOString();
  const claimed = i % 3 !== 0;
  return {
    $id: `order-${i}`,
    $createdAt: at(i * 1000),
    $updatedAt: at(i * 1000 + 500),
    number: 1000 + i,
    status: STATUSES[i % STATUSES.length],
    customerName: i % 11 === 0 ? `Zoë Ñúñez ${i} — 田中` : `Customer ${i}`,
    customerEmail: `c${i}@example.test`,
    itemsSummary: `${1 + (i % 4)}× Latte`,
    totalCents: 350 * (1 + (i % 4)),
    currency: 'eur',
    refundedCents: 0,
    assigneeId: claimed ? `staff-${i % 5}` : null,
    assigneeName: claimed ? `Staff ${i % 5}` : null,
    paidAt: at(i * 1000 + 100),
    readyAt: i % 2 ? at(i * 1000 + 300) : null,
    fulfilledAt: null,
    rev: i % 6,
  } as DocumentMeta;
}

describe("desk-snapshot's file", () => {
  it('is read back by the store as the same list copies and watermark', () => {
    const orders = Array.from({ length: 3_000 }, (_, i) => listOrderFromDocument(listDocument(i)));
    const bytes = snapshotBytes({ savedAt: 42, watermark: 1_790_003_000_500, orders });
    const restored = readPersisted(decodeSnapshotFile(bytes.buffer), SNAPSHOT_VERSION);
    expect(restored).not.toBeNull();
    expect(restored!.savedAt).toBe(42);
    expect(restored!.watermark).toBe(1_790_003_000_500);
    const back = restored!.orders.toArray();
    expect(back).toEqual(orders);
    expect(back.every((order) => order.partial)).toBe(true);
  });

  it('holds no order when there are none', () => {
    const bytes = snapshotBytes({ savedAt: 1, watermark: 0, orders: [] });
    const restored = readPersisted(decodeSnapshotFile(bytes.buffer), SNAPSHOT_VERSION);
    expect(restored?.watermark).toBe(0);
    expect(restored?.orders.toArray()).toEqual([]);
  });

  it('reads every list field the documents hold', () => {
    expect(Object.keys(listDocument(1)).sort()).toEqual([...ORDER_LIST_SELECT].sort());
  });
});
