import { describe, expect, it } from 'vitest';
import type { Activity } from '../../../domain/entities.ts';
import { parseRefundAmount, refundInput, refundsOf } from './refund.ts';

const ORDER = { totalCents: 1250, refundedCents: 300, currency: 'eur' };

describe('parseRefundAmount', () => {
  it('reads amounts with a point, a comma, a euro sign before or after, or no decimals', () => {
    expect(parseRefundAmount('3.50', ORDER)).toEqual({ ok: true, cents: 350 });
    expect(parseRefundAmount(' 3,5 ', ORDER)).toEqual({ ok: true, cents: 350 });
    expect(parseRefundAmount('€4', ORDER)).toEqual({ ok: true, cents: 400 });
    // As a German browser writes it (`formatPrice`): a comma, a no-break space, then the sign.
    expect(parseRefundAmount('4,50\u00a0€', ORDER)).toEqual({ ok: true, cents: 450 });
    expect(parseRefundAmount('9.50', ORDER)).toEqual({ ok: true, cents: 950 });
    expect(parseRefundAmount('0.01', ORDER)).toEqual({ ok: true, cents: 1 });
  });

  it('reads thousands as the locale separates them, and asks in its form', () => {
    const BIG = { totalCents: 500_000, refundedCents: 0, currency: 'eur' };
    expect(parseRefundAmount('1,250.50', BIG, 'en-US')).toEqual({ ok: true, cents: 125_050 });
    expect(parseRefundAmount('1.250,50 €', BIG, 'de-DE')).toEqual({ ok: true, cents: 125_050 });
    expect(parseRefundAmount('1,250.50', BIG, 'de-DE')).toEqual({
      ok: false,
      message: 'Enter an amount like 3,50.',
    });
  });

  it('names amounts in the locale', () => {
    expect(parseRefundAmount('9,51', ORDER, 'de-DE')).toEqual({
      ok: false,
      message: 'You can refund at most 9,50\u00a0€.',
    });
    expect(refundInput({ totalCents: 125_050, refundedCents: 0 }, 'de-DE')).toBe('1250,50');
    expect(refundInput({ totalCents: 125_050, refundedCents: 0 }, 'en-US')).toBe('1250.50');
  });

  it('refuses what is not an amount instead of guessing', () => {
    for (const text of ['abc', '1.234', '1e3', '3.50€x', '1 000', '-', '.5'])
      expect(parseRefundAmount(text, ORDER)).toEqual({
        ok: false,
        message: 'Enter an amount like 3.50.',
      });
  });

  it('asks for an amount when there is none, and for more than zero', () => {
    expect(parseRefundAmount(' ', ORDER)).toEqual({
      ok: false,
      message: 'Enter an amount to refund.',
    });
    for (const text of ['0', '0.00', '0,0', '-1', '-5.50', '€-2'])
      expect(parseRefundAmount(text, ORDER)).toEqual({
        ok: false,
        message: 'Refund more than €0.00.',
      });
  });

  it('refuses more than what is left, naming the most', () => {
    expect(parseRefundAmount('9.51', ORDER)).toEqual({
      ok: false,
      message: 'You can refund at most €9.50.',
    });
  });

  it('starts the field at what is left', () => {
    expect(refundInput(ORDER)).toBe('9.50');
    expect(refundInput({ totalCents: 400, refundedCents: 0 })).toBe('4.00');
  });
});

describe('refundsOf', () => {
  const entry = (id: string, kind: Activity['kind'], data: object, at: number, by = 'Marco') =>
    ({ id, orderId: 'o1', kind, data, at, actorId: 'u', actorName: by }) as unknown as Activity;

  it('lists refunds and refunding cancels, oldest first, and nothing else', () => {
    const list = refundsOf([
      entry('o1.r5', 'canceled', { from: 'paid', refundCents: 950 }, 50),
      entry('o1.r1', 'paid', {}, 10, 'Stripe'),
      entry('o1.r3', 'refund', { amountCents: 300, refundedCents: 300 }, 30),
      entry('o1.r4', 'canceled', { from: 'paid' }, 40),
      entry('o1.r2', 'status', { to: 'preparing' }, 20),
    ]);
    expect(list).toEqual([
      { id: 'o1.r3', amountCents: 300, by: 'Marco', at: 30, cancel: false },
      { id: 'o1.r5', amountCents: 950, by: 'Marco', at: 50, cancel: true },
    ]);
  });
});
