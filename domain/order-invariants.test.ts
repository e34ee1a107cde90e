import { describe, expect, it } from 'vitest';
import { checkOrder, describeDrift, planRepair, type AuditedOrder } from './order-invariants.ts';

const recordId = (orderId: string, rev: number) => `${orderId}.r${rev}`;
const order = (patch: Partial<AuditedOrder> = {}): AuditedOrder => ({
  id: 'o1',
  status: 'preparing',
  rev: 2,
  noteCount: 1,
  attachmentCount: 0,
  ...patch,
});
const records = (...kinds: [string, Record<string, unknown>][]) =>
  kinds.map(([kind, data], rev) => ({ id: `o1.r${rev}`, kind, data }));
const healthy = records(['created', {}], ['paid', {}], ['status', { to: 'preparing' }]);

describe('checkOrder', () => {
  it('finds nothing on a consistent order', () => {
    expect(
      checkOrder(order(), { liveNotes: 1, liveAttachments: 0, records: healthy }, recordId),
    ).toEqual([]);
  });

  it('finds counts that differ from what they count', () => {
    const drift = checkOrder(
      order({ noteCount: 3, attachmentCount: 1 }),
      { liveNotes: 1, liveAttachments: 2, records: healthy },
      recordId,
    );
    expect(drift).toEqual([
      { orderId: 'o1', kind: 'noteCount', stored: 3, counted: 1 },
      { orderId: 'o1', kind: 'attachmentCount', stored: 1, counted: 2 },
    ]);
  });

  it('finds revisions without their record', () => {
    const drift = checkOrder(
      order({ rev: 4 }),
      { liveNotes: 1, liveAttachments: 0, records: healthy.slice(0, 2) },
      recordId,
    );
    expect(drift).toEqual([{ orderId: 'o1', kind: 'missingRecords', revs: [2, 3, 4] }]);
  });

  it('finds a status behind one it reached; canceled and refunded are one final step', () => {
    const reachedReady = records(['created', {}], ['paid', {}], ['status', { to: 'ready' }]);
    expect(
      checkOrder(order(), { liveNotes: 1, liveAttachments: 0, records: reachedReady }, recordId),
    ).toEqual([{ orderId: 'o1', kind: 'movedBackwards', status: 'preparing', reached: 'ready' }]);
    const refunded = records(['created', {}], ['canceled', {}], ['refund', { full: true }]);
    expect(
      checkOrder(
        order({ status: 'canceled' }),
        { liveNotes: 1, liveAttachments: 0, records: refunded },
        recordId,
      ),
    ).toEqual([]);
  });
});

describe('planRepair', () => {
  it('sets counts, writes missing records and only reports a status that moved back', () => {
    const plan = planRepair('o1', [
      { orderId: 'o1', kind: 'noteCount', stored: 3, counted: 1 },
      { orderId: 'o1', kind: 'missingRecords', revs: [2] },
      { orderId: 'o1', kind: 'movedBackwards', status: 'paid', reached: 'ready' },
      { orderId: 'o2', kind: 'attachmentCount', stored: 1, counted: 0 },
    ]);
    expect(plan).toEqual({
      orderId: 'o1',
      noteCount: 1,
      missingRevs: [2],
      unrepairable: [{ orderId: 'o1', kind: 'movedBackwards', status: 'paid', reached: 'ready' }],
    });
    expect(planRepair('o1', [])).toBeNull();
  });

  it('describes drift in one line', () => {
    expect(describeDrift({ orderId: 'o1', kind: 'missingRecords', revs: [2, 3] })).toBe(
      'o1: no activity record for rev 2, 3',
    );
  });
});
