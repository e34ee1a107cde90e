import { describe, expect, it } from 'vitest';
import { fingerprint, parseParams } from './http.ts';

describe('parseParams', () => {
  it("reads Stripe's bracket notation: nested objects, indexed and empty-bracket arrays", () => {
    expect(
      parseParams(
        'amount=1250&metadata[orderId]=o1&metadata[note]=a%3Db%26c&expand[0]=latest_charge&expand[1]=payment_method&payment_method_data[card][number]=4242&types[]=x&description=',
      ),
    ).toEqual({
      amount: '1250',
      metadata: { orderId: 'o1', note: 'a=b&c' },
      expand: ['latest_charge', 'payment_method'],
      payment_method_data: { card: { number: '4242' } },
      types: ['x'],
      description: '',
    });
  });

  it('keeps arrays past 20 items as arrays, and ignores prototype keys', () => {
    const many = Array.from({ length: 30 }, (_, i) => `expand[${i}]=e${i}`).join('&');
    expect((parseParams(many).expand as string[]).length).toBe(30);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    parseParams('__proto__[polluted]=yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('fingerprint', () => {
  it('is the same for the same parameters in any key order, and differs otherwise', () => {
    expect(fingerprint({ a: '1', m: { x: '1', y: '2' } })).toBe(
      fingerprint({ m: { y: '2', x: '1' }, a: '1' }),
    );
    expect(fingerprint({ a: '1' })).not.toBe(fingerprint({ a: '2' }));
    expect(fingerprint({ e: ['a', 'b'] })).not.toBe(fingerprint({ e: ['b', 'a'] }));
  });
});
