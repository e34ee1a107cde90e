import { describe, expect, it } from 'vitest';
import { detectMimeType } from './mime.ts';

describe('detectMimeType', () => {
  it('reads the type from the content, not the name', async () => {
    expect(await detectMimeType(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n'))).toBe('application/pdf');
    expect(await detectMimeType(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))).toBe(
      'image/png',
    );
    expect(await detectMimeType(Buffer.from('order,total\n1,9.50\nnaïve café'))).toBe('text/plain');
    expect(await detectMimeType(Buffer.from([0, 1, 2, 3, 250, 251]))).toBe(
      'application/octet-stream',
    );
  });

  it('accepts text cut in the middle of a multi-byte character', async () => {
    const text = Buffer.from('prix: 12 €');
    expect(await detectMimeType(text.subarray(0, text.length - 1))).toBe('text/plain');
  });
});
