import { describe, expect, it } from 'vitest';
import { validatePriceCents } from '../../../domain/validation.ts';
import { validateDraft } from './product-draft.ts';

const latte = { name: 'Latte', description: '', price: '3.80' };

describe('validateDraft', () => {
  it('reads the price as the locale writes it', () => {
    expect(validateDraft(latte, 'en-US')).toEqual({ errors: {}, cents: 380 });
    expect(validateDraft({ ...latte, price: '1.250,00 €' }, 'de-DE')).toEqual({
      errors: {},
      cents: 125_000,
    });
  });

  it('names the range as the functions do in en-US, and in the locale’s form elsewhere', () => {
    for (const price of ['-1', '10000.01']) {
      const message = validateDraft({ ...latte, price }, 'en-US').errors.price;
      expect(message).toBe(validatePriceCents(-1)!.message);
    }
    expect(validateDraft({ ...latte, price: '-1' }, 'de-DE').errors.price).toBe(
      'Enter a price between 0,00 and 10.000,00.',
    );
  });

  it('asks for a price it can read, and refuses a missing name', () => {
    expect(validateDraft({ ...latte, price: 'abc' }, 'de-DE').errors.price).toBe(
      'Enter a price like 3,80.',
    );
    expect(validateDraft({ ...latte, price: '' }, 'en-US').errors.price).toBe(
      'Enter a price like 3.80.',
    );
    expect(validateDraft({ ...latte, name: ' ' }, 'en-US').errors.name).toBeTruthy();
  });
});
