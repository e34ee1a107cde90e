import { describe, expect, it } from 'vitest';
import { mayHoldBigInteger } from './json-integers.ts';

describe('mayHoldBigInteger', () => {
  it('is false for a page of ordinary documents', () => {
    const text =
      '{"total":2,"documents":[{"$id":"6740a1b2e3f4","$sequence":"12","n":1.5,"total":123456789012345,"t":"2026-11-29T05:00:00.000+00:00","e":"a1e5@example.com"}]}';
    expect(mayHoldBigInteger(text)).toBe(false);
  });

  it('is true for sixteen digits in a row and for a number with an exponent', () => {
    for (const text of [
      '{"big":9007199254740993}',
      '{"ref":"pi_1234567890123456"}',
      '{"n":1e21}',
      '[2.5E3]',
      ' -1e5',
    ])
      expect(mayHoldBigInteger(text), text).toBe(true);
  });
});
