import jsonBigint from 'json-bigint/index.js';
import { describe, expect, it } from 'vitest';
import { parseAppwriteJson } from './json-integers.ts';

describe('parseAppwriteJson: integers kept as the Appwrite SDK keeps them', () => {
  it('parses ordinary JSON as JSON.parse does', () => {
    const text =
      '{"total":2,"documents":[{"$id":"a","n":1.5,"t":"2026-11-29T05:00:00.000+00:00"}]}';
    expect(parseAppwriteJson(text)).toEqual(JSON.parse(text));
  });

  it('keeps an integer beyond 2^53 exact, as a BigInt', () => {
    expect(parseAppwriteJson('{"big":9007199254740993,"neg":-9223372036854775808}')).toEqual({
      big: 9007199254740993n,
      neg: -9223372036854775808n,
    });
  });

  it('leaves a safe integer, a number beyond 64 bits and a fraction as numbers', () => {
    expect(
      parseAppwriteJson(
        '{"safe":1234567890123456,"huge":123456789012345678901234567890,"e":1.5e3}',
      ),
    ).toEqual({ safe: 1234567890123456, huge: 1.2345678901234568e29, e: 1500 });
  });

  it('leaves sixteen digits inside a string as the string', () => {
    expect(parseAppwriteJson('{"ref":"pi_12345678901234567890"}')).toEqual({
      ref: 'pi_12345678901234567890',
    });
  });

  it('reads 1,000 generated pages as json-bigint with the Appwrite SDK reviver does', () => {
    const sdk = jsonBigint({ storeAsString: false });
    let seed = 20261129;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const numbers = [
      () => Math.floor(random() * 1e6),
      () => `${Math.floor(random() * 9e8) + 1e8}${Math.floor(random() * 9e8) + 1e8}`,
      () =>
        `-${Math.floor(random() * 9e8) + 1e8}${Math.floor(random() * 9e9) + 1e9}${Math.floor(random() * 9e9)}`,
      () => (random() * 1e4).toFixed(2),
      () => `${Math.floor(random() * 9) + 1}e${Math.floor(random() * 30)}`,
    ];
    for (let i = 0; i < 1_000; i++) {
      const fields = Array.from({ length: 6 }, (_, k) => {
        const value = numbers[Math.floor(random() * numbers.length)]!();
        return `"k${k}":${random() < 0.2 ? JSON.stringify(`s ${value}`) : value}`;
      });
      const text = `{"documents":[{${fields.join(',')}}]}`;
      expect(parseAppwriteJson(text), text).toEqual(sdk.parse(text, sdkReviver));
    }
  });
});

/** The Appwrite web SDK's reviver (appwrite@26): safe → Number, 64-bit → BigInt, else Number. */
function sdkReviver(_key: string, value: unknown): unknown {
  const big = value as { _isBigNumber?: boolean; isInteger(): boolean; toFixed(): string };
  if (value === null || typeof value !== 'object' || big._isBigNumber !== true) return value;
  if (!big.isInteger()) return Number(big.toFixed());
  const integer = BigInt(big.toFixed());
  if (integer >= BigInt(Number.MIN_SAFE_INTEGER) && integer <= BigInt(Number.MAX_SAFE_INTEGER))
    return Number(integer);
  return integer >= -(2n ** 63n) && integer < 2n ** 63n ? integer : Number(big.toFixed());
}
