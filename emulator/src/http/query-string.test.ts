import { describe, expect, it } from 'vitest';
import { parseQueryString } from './query-string.ts';

describe('parseQueryString', () => {
  it('reads PHP-style arrays and objects as the SDKs send them', () => {
    expect(parseQueryString('?queries[0]=a&queries[1]=b')).toEqual({ queries: ['a', 'b'] });
    expect(parseQueryString('queries[]=a&queries[]=b&x=1')).toEqual({
      queries: ['a', 'b'],
      x: '1',
    });
    expect(parseQueryString('a[b]=c&a[d][e]=f')).toEqual({ a: { b: 'c', d: { e: 'f' } } });
    expect(parseQueryString('q[2]=y&q[0]=x')).toEqual({ q: ['x', 'y'] });
    expect(parseQueryString('a=1&a=2')).toEqual({ a: '2' });
  });

  it('keeps broken percent-encoding as written', () => {
    expect(parseQueryString('x=%zz&y=%E0%A4%A')).toEqual({ x: '%zz', y: '%E0%A4%A' });
  });

  it('never touches Object.prototype, whatever the keys', () => {
    const parsed = parseQueryString(
      '__proto__[polluted]=1&constructor[prototype][polluted]=1&a[__proto__][polluted]=1&__proto__=x',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).not.toContain('__proto__');
  });

  it('refuses more than 1,000 params', () => {
    const many = Array.from({ length: 1001 }, (_, i) => `p${i}=1`).join('&');
    expect(() => parseQueryString(many)).toThrow(RangeError);
  });
});
