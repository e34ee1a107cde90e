import { describe, expect, it } from 'vitest';
import { centsToInput, parsePriceInput } from './price.ts';

describe('price input', () => {
  it('parses decimals with dot or comma and currency signs', () => {
    expect(parsePriceInput('3.80')).toBe(380);
    expect(parsePriceInput('3,8')).toBe(380);
    expect(parsePriceInput('€4')).toBe(400);
    expect(parsePriceInput('0.015')).toBeNull();
    expect(parsePriceInput('abc')).toBeNull();
    expect(centsToInput(380)).toBe('3.80');
  });
});
