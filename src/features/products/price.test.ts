import { describe, expect, it } from 'vitest';
import { validatePriceCents } from '../../../domain/validation.ts';
import { centsToInput, parsePriceInput } from './price.ts';

describe('price input', () => {
  it('parses decimals with dot or comma and currency signs', () => {
    expect(parsePriceInput('3.80')).toBe(380);
    expect(parsePriceInput('3,8')).toBe(380);
    expect(parsePriceInput('€4')).toBe(400);
    expect(parsePriceInput(' 4 € ')).toBe(400);
    expect(parsePriceInput('0.015')).toBeNull();
    expect(parsePriceInput('abc')).toBeNull();
    expect(centsToInput(380)).toBe('3.80');
  });

  it('keeps a minus sign, so the range check refuses it instead of saving €1.00', () => {
    expect(parsePriceInput('-1')).toBe(-100);
    expect(parsePriceInput('€-0.50')).toBe(-50);
    expect(parsePriceInput('-€2')).toBe(-200);
    expect(validatePriceCents(parsePriceInput('-1')!)?.message).toBe(
      'Enter a price between 0.00 and 10,000.00.',
    );
  });

  it('refuses characters it cannot read instead of dropping them', () => {
    for (const text of ['1-', '--1', '1.2.3', '1e3', '12abc', '+1', '3.80 USD', '', '.5'])
      expect(parsePriceInput(text)).toBeNull();
  });
});
