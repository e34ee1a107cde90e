import { describe, expect, it } from 'vitest';
import { parseRequest } from './main.ts';

const message = (body: unknown) => {
  try {
    parseRequest(JSON.stringify(body));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

const latte = { name: 'Latte', priceCents: 380, currency: 'eur' };

describe('product-action parseRequest', () => {
  it('fills a new product’s defaults', () => {
    expect(
      parseRequest(JSON.stringify({ action: 'create', productId: 'p1', product: latte })),
    ).toEqual({
      action: 'create',
      productId: 'p1',
      product: { ...latte, description: '', active: true, imageFileId: null, sortOrder: 0 },
    });
  });

  it('refuses a negative, fractional or textual price and a missing one', () => {
    const update = (changes: object) => ({ action: 'update', productId: 'p1', changes });
    for (const priceCents of [-1, 0.5, '380', null, 1_000_001])
      expect(message(update({ priceCents }))).toBe('Enter a price between 0.00 and 10,000.00.');
    expect(message(update({ priceCents: 0 }))).toBeNull();
    expect(
      message({ action: 'create', productId: 'p1', product: { name: 'x', currency: 'eur' } }),
    ).toBe('Enter a price like 3.80.');
  });

  it('refuses unknown fields, empty changes and unknown actions', () => {
    expect(message({ action: 'update', productId: 'p1', changes: { $id: 'x' } })).toBe(
      '"$id" cannot be set on a product.',
    );
    expect(message({ action: 'update', productId: 'p1', changes: {} })).toBe('Nothing to change.');
    expect(message({ action: 'delete', productId: 'p1' })).toBe('Unknown action "delete".');
    expect(message({ action: 'archive', productId: '' })).toBe('productId must be an id.');
  });
});
