import { describe, expect, it } from 'vitest';
import { Coverage } from './coverage.ts';

describe('Coverage', () => {
  it('tracks the watermark', () => {
    const c = new Coverage();
    c.observe(10);
    c.observe(5);
    expect(c.watermark).toBe(10);
  });

  it('needs nothing when every read ran with the subscription active', () => {
    const c = new Coverage();
    c.observe(10);
    c.pageRead(true);
    expect(c.riskFrom).toBeNull();
    expect(c.take()).toBeNull();
  });

  it('cannot miss anything before the first read', () => {
    const c = new Coverage();
    c.closed();
    expect(c.riskFrom).toBeNull();
  });

  it('is at risk from the watermark when the subscription drops', () => {
    const c = new Coverage();
    c.observe(100);
    c.pageRead(true);
    c.closed();
    c.observe(500);
    c.closed();
    expect(c.riskFrom).toBe(100);
    expect(c.take()).toBe(100);
    expect(c.riskFrom).toBeNull();
  });

  it('is at risk from the watermark after a read while not active', () => {
    // An empty read counts from a server time known to be past (another set's watermark); with
    // none at all it does not count (the reads that follow bound what may be missed).
    const unknown = new Coverage();
    unknown.pageRead(false);
    unknown.closed();
    expect(unknown.riskFrom).toBeNull();
    const empty = new Coverage();
    empty.pageRead(true, 40);
    expect(empty.riskFrom).toBeNull();
    empty.closed();
    expect(empty.riskFrom).toBe(40);
    const c = new Coverage();
    c.observe(70);
    c.pageRead(false);
    c.observe(90);
    c.pageRead(false);
    expect(c.riskFrom).toBe(70);
  });

  it('restores the risk of a failed recovery', () => {
    const c = new Coverage();
    c.observe(10);
    c.pageRead(false);
    const from = c.take()!;
    c.observe(50);
    c.closed();
    c.restore(from);
    expect(c.riskFrom).toBe(10);
  });
});
