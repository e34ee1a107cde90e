import { describe, expect, it } from 'vitest';
import { holdsUnsafeInteger, ownString, ownStrings } from './json-integers.ts';

describe('holdsUnsafeInteger', () => {
  it('is false for a page of ordinary documents', () => {
    const text =
      '{"total":2,"documents":[{"$id":"6740a1b2e3f4","$sequence":"12","n":1.5,"max":9007199254740991,"t":"2026-11-29T05:00:00.000+00:00","e":"a1e5@example.com","ref":"pi_1234567890123456","list":[1,2,-3],"small":1e-7,"none":null,"yes":true}]}';
    expect(holdsUnsafeInteger(JSON.parse(text))).toBe(false);
  });

  it('is true for an integer beyond 2^53 or a number beyond the doubles, anywhere in the value', () => {
    for (const text of [
      '9007199254740992',
      '{"big":9007199254740993}',
      '{"neg":-9007199254740993}',
      '{"n":1e21}',
      '{"documents":[{"a":1},{"list":[1,2,12345678901234567]}]}',
      '[[[1e300]]]',
      '1e400',
      '{"n":-1e400}',
    ])
      expect(holdsUnsafeInteger(JSON.parse(text)), text).toBe(true);
  });

  it('is false for fractions', () => {
    for (const text of ['0.1234567890123456789', '-1.5', '1e-400'])
      expect(holdsUnsafeInteger(JSON.parse(text)), text).toBe(false);
  });
});

describe('ownString and ownStrings', () => {
  it('copy long strings (never a slice of a parsed text) and keep short ones and other values', () => {
    const page = JSON.stringify({ a: 'someone@example.test' });
    const cut = page.slice(6, 26);
    expect(ownString(cut)).toBe('someone@example.test');
    expect([ownString('eur'), ownString(null), ownString(7)]).toEqual(['eur', null, 7]);
    const value = { id: cut, list: [cut, 'eur', 1n, { deep: cut }], none: null };
    expect(ownStrings(value)).toBe(value);
    expect(value).toEqual({
      id: 'someone@example.test',
      list: ['someone@example.test', 'eur', 1n, { deep: 'someone@example.test' }],
      none: null,
    });
  });
});
