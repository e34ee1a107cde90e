import { describe, expect, it } from 'vitest';
import { chooseEncoding } from './compression.ts';

describe('chooseEncoding', () => {
  it('picks the accepted coding with the highest q-value, among equals the one named first', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('gzip');
    expect(chooseEncoding('br, gzip')).toBe('br');
    expect(chooseEncoding('zstd, deflate;q=0.9, br;q=0.9')).toBe('deflate');
    expect(chooseEncoding('gzip;q=0.5, br')).toBe('br');
    expect(chooseEncoding('gzip;q=1, br;q=0.8')).toBe('gzip');
    expect(chooseEncoding('deflate')).toBe('deflate');
    expect(chooseEncoding(['gzip', 'deflate'])).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0, *;q=0.1')).toBe('deflate');
    expect(chooseEncoding('*')).toBe('br');
  });

  it('answers null when nothing supported is accepted', () => {
    expect(chooseEncoding(undefined)).toBeNull();
    expect(chooseEncoding('')).toBeNull();
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('zstd, compress')).toBeNull();
    expect(chooseEncoding('gzip;q=0')).toBeNull();
  });
});
