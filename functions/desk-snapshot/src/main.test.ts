import { describe, expect, it } from 'vitest';
import { describeRun } from './main.ts';

const run = {
  orders: 100_000,
  bytes: 16_328_317,
  watermark: Date.UTC(2026, 10, 30, 8, 33, 0, 123),
  stored: true,
  readMs: 1369,
  encodeMs: 214,
  storeMs: 507,
};

describe("desk-snapshot's log line", () => {
  it('says what was written and where the time went', () => {
    expect(describeRun(run)).toBe(
      'desk-snapshot: 100000 orders, 16.33 MB, watermark 2026-11-30T08:33:00.123Z; read 1369 ms, encoded 214 ms, stored in 507 ms',
    );
  });

  it('says when there were no orders, and when another run stored its file first', () => {
    expect(describeRun({ ...run, orders: 0, bytes: 1234, watermark: 0, stored: false })).toBe(
      'desk-snapshot: 0 orders, 0.00 MB, watermark none; read 1369 ms, encoded 214 ms, another run stored its own first in 507 ms',
    );
  });

  it('says when no order changed since the stored file', () => {
    expect(describeRun({ ...run, unchanged: true, readMs: 12 })).toBe(
      'desk-snapshot: no order changed since the stored file (watermark 2026-11-30T08:33:00.123Z); checked in 12 ms',
    );
  });
});
