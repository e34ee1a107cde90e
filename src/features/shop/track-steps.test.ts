import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../../domain/order.ts';
import { TRACK_STEPS, trackView } from './track-steps.ts';

describe('trackView', () => {
  it('walks the four steps in order', () => {
    expect(TRACK_STEPS.map((s) => trackView(s).step)).toEqual([0, 1, 2, 3]);
  });

  it('says plainly when the order is not moving', () => {
    expect(trackView({ status: 'pending_payment' })).toMatchObject({ step: -1, tone: 'wait' });
    expect(trackView({ status: 'payment_failed' }).tone).toBe('bad');
    expect(trackView({ status: 'canceled' }).headline).toBe('This order was canceled');
    expect(trackView({ status: 'refunded' }).headline).toBe('This order was refunded');
  });

  it('has a headline for every status', () => {
    for (const status of ORDER_STATUSES) expect(trackView({ status }).headline).not.toBe('');
  });
});
