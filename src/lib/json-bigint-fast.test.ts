import jsonBigint from 'json-bigint/index.js';
import { describe, expect, it } from 'vitest';
import { Prng } from '../../store/testing.ts';
import fastJsonBigintModule, { fastJsonBigint } from './json-bigint-fast.ts';

/** The Appwrite SDK's reviver: json-bigint's big numbers become Number when safe, else BigInt. */
function sdkReviver(_key: string, value: unknown): unknown {
  const big = value as { _isBigNumber?: boolean; isInteger(): boolean; toFixed(): string };
  if (value === null || typeof value !== 'object' || big._isBigNumber !== true) return value;
  if (!big.isInteger()) return Number(big.toFixed());
  const integer = BigInt(big.toFixed());
  return integer >= BigInt(Number.MIN_SAFE_INTEGER) && integer <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(integer)
    : integer;
}

function randomValue(prng: Prng, depth: number): unknown {
  const pick = Math.floor(prng.next() * (depth > 2 ? 6 : 8));
  switch (pick) {
    case 0:
      return Math.floor(prng.next() * 1_000_000) - 500_000;
    case 1:
      return (
        BigInt(Math.floor(prng.next() * 1e9)) * 10_000_000_000n * (prng.next() < 0.5 ? -1n : 1n)
      );
    case 2:
      return (prng.next() - 0.5) * 10 ** Math.floor(prng.next() * 30);
    case 3:
      return `order ${Math.floor(prng.next() * 1e6)} ${prng.next() < 0.3 ? '1234567890123456789' : 'x'}`;
    case 4:
      return prng.next() < 0.5 ? null : prng.next() < 0.5;
    case 5:
      return Number.MAX_SAFE_INTEGER - Math.floor(prng.next() * 3);
    case 6:
      return Array.from({ length: Math.floor(prng.next() * 4) }, () =>
        randomValue(prng, depth + 1),
      );
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(prng.next() * 5) }, (_, i) => [
          `k${i}`,
          randomValue(prng, depth + 1),
        ]),
      );
  }
}

describe('fastJsonBigint', () => {
  const original = jsonBigint({ storeAsString: false });
  const fast = fastJsonBigint({ storeAsString: false });

  it('parses a realtime message as json-bigint with the SDK reviver does', () => {
    const message = JSON.stringify({
      type: 'event',
      data: {
        events: ['databases.livedesk.collections.orders.documents.o1.update'],
        channels: ['databases.livedesk.collections.orders.documents'],
        timestamp: '2026-11-23 06:00:01.000',
        payload: { $id: 'o1', $sequence: '42', number: 1042, totalCents: 6600, rev: 3 },
      },
    });
    expect(fast.parse(message, sdkReviver)).toEqual(original.parse(message, sdkReviver));
  });

  it('keeps integers beyond 2^53 exact, as BigInt through the reviver', () => {
    const text = '{"big":9007199254740993,"max":9223372036854775807,"neg":-9007199254740993}';
    expect(fast.parse(text, sdkReviver)).toEqual({
      big: 9007199254740993n,
      max: 9223372036854775807n,
      neg: -9007199254740993n,
    });
    expect(JSON.parse(text).big).not.toBe(9007199254740993n);
  });

  it('gives the same value as json-bigint for 2,000 generated documents', () => {
    const prng = new Prng(20261123);
    for (let i = 0; i < 2_000; i++) {
      const text = jsonBigint.stringify(randomValue(prng, 0));
      expect(fast.parse(text, sdkReviver), text).toEqual(original.parse(text, sdkReviver));
    }
  });

  it('gives the same value as json-bigint for numbers at the edges of the safe range', () => {
    for (const text of [
      '9007199254740991',
      '9007199254740992',
      '-9007199254740993',
      '{"a":1e21,"b":[2.5E3,-1e5],"c":"1e5"}',
      '{"long":1234567890.0000000,"frac":0.12345678901234567}',
      '[18446744073709551616,9223372036854775808,-9223372036854775808]',
      '{"n":123456789012345,"m":1234567890123456}',
    ])
      expect(fast.parse(text, sdkReviver), text).toEqual(original.parse(text, sdkReviver));
  });

  it('refuses malformed JSON on both paths, and a number beyond the doubles as json-bigint does', () => {
    expect(() => fast.parse('{"a":1', sdkReviver)).toThrow();
    expect(() => fast.parse('{"huge":1e400}', sdkReviver)).toThrow('Bad number');
    expect(() => fast.parse('{"a":12345678901234567', sdkReviver)).toThrow();
  });

  it('writes BigInt as json-bigint does', () => {
    const value = { id: 9223372036854775807n, n: 1 };
    expect(fast.stringify(value)).toBe('{"id":9223372036854775807,"n":1}');
  });

  it('has the module shape of json-bigint (factory with default parse and stringify)', () => {
    expect(fastJsonBigintModule.parse('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(fastJsonBigintModule.stringify({ a: 1 })).toBe('{"a":1}');
    expect(typeof fastJsonBigintModule({ useNativeBigInt: true }).parse).toBe('function');
  });
});
