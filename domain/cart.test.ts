import { describe, expect, it } from 'vitest';
import { checkCheckout, priceCart, summarizeCart } from './cart.ts';
import type { Product } from './entities.ts';
import { AppError } from './errors.ts';

function product(id: string, patch: Partial<Product> = {}): Product {
  return {
    id,
    createdAt: 0,
    updatedAt: 0,
    name: id[0]!.toUpperCase() + id.slice(1),
    description: '',
    priceCents: 350,
    currency: 'eur',
    active: true,
    imageFileId: null,
    sortOrder: 0,
    ...patch,
  };
}

const CATALOG = [
  product('latte', { priceCents: 350 }),
  product('croissant', { priceCents: 220 }),
  product('mint', { priceCents: 10 }),
  product('scone', { active: false }),
  product('bagel', { currency: 'usd' }),
];

function fields(result: unknown): { field: string; message: string }[] {
  expect(result).toBeInstanceOf(AppError);
  const error = result as AppError;
  expect(error.code).toBe('CART_INVALID');
  return error.details!.fields as { field: string; message: string }[];
}

describe('priceCart', () => {
  it('prices lines from the catalog in integer cents', () => {
    const cart = priceCart(
      [
        { productId: 'latte', qty: 2 },
        { productId: 'croissant', qty: 3, unitPriceCents: 220 },
      ],
      CATALOG,
    );
    expect(cart).toEqual({
      items: [
        { productId: 'latte', name: 'Latte', unitPriceCents: 350, qty: 2 },
        { productId: 'croissant', name: 'Croissant', unitPriceCents: 220, qty: 3 },
      ],
      subtotalCents: 1360,
      totalCents: 1360,
      currency: 'eur',
    });
  });

  it('refuses an empty cart, a cart that is not a list, and more than 50 lines', () => {
    expect(fields(priceCart([], CATALOG))).toEqual([
      { field: 'items', message: 'Add at least one item to the cart.' },
    ]);
    expect(fields(priceCart('latte', CATALOG))[0]!.field).toBe('items');
    const many = Array.from({ length: 51 }, (_, i) => product(`p${i}`));
    const lines = many.map((p) => ({ productId: p.id, qty: 1 }));
    expect(fields(priceCart(lines, many))).toEqual([
      { field: 'items', message: 'A cart holds at most 50 different items.' },
    ]);
    expect(priceCart(lines.slice(0, 50), many)).not.toBeInstanceOf(AppError);
  });

  it('refuses quantities outside 1–99 and non-integers, per line', () => {
    for (const qty of [0, 100, 1.5, -1, '2', null]) {
      expect(fields(priceCart([{ productId: 'latte', qty }], CATALOG))).toEqual([
        { field: 'items[0].qty', message: 'Choose a quantity from 1 to 99.' },
      ]);
    }
    expect(priceCart([{ productId: 'latte', qty: 99 }], CATALOG)).not.toBeInstanceOf(AppError);
  });

  it('refuses unknown, inactive and repeated products, naming each line', () => {
    const result = fields(
      priceCart(
        [
          { productId: 'latte', qty: 1 },
          { productId: 'nope', qty: 1 },
          { productId: 'scone', qty: 1 },
          { productId: 'latte', qty: 1 },
          { qty: 1 },
        ],
        CATALOG,
      ),
    );
    expect(result).toEqual([
      { field: 'items[1].productId', message: 'This product is not in the catalog.' },
      { field: 'items[2].productId', message: 'Scone is no longer available.' },
      { field: 'items[3].productId', message: 'Latte is in the cart twice.' },
      { field: 'items[4].productId', message: 'Choose a product.' },
    ]);
  });

  it('refuses a line whose price differs from the catalog (tampered or stale)', () => {
    expect(fields(priceCart([{ productId: 'latte', qty: 1, unitPriceCents: 1 }], CATALOG))).toEqual(
      [{ field: 'items[0].unitPriceCents', message: 'The price of Latte is now €3.50.' }],
    );
  });

  it('refuses mixed currencies and a total below the card minimum', () => {
    expect(
      fields(
        priceCart(
          [
            { productId: 'latte', qty: 1 },
            { productId: 'bagel', qty: 1 },
          ],
          CATALOG,
        ),
      )[0]!.message,
    ).toBe('Items in different currencies cannot be paid together.');
    expect(fields(priceCart([{ productId: 'mint', qty: 4 }], CATALOG))[0]!.message).toBe(
      'The total must be at least €0.50.',
    );
    expect(priceCart([{ productId: 'mint', qty: 5 }], CATALOG)).not.toBeInstanceOf(AppError);
  });
});

describe('checkCheckout', () => {
  it('returns the priced cart and the customer exactly as sent', () => {
    const result = checkCheckout(
      {
        items: [{ productId: 'latte', qty: 1 }],
        customerName: ' Cleo Ø ',
        customerEmail: 'cleo@example.test',
      },
      CATALOG,
    );
    expect(result).toMatchObject({
      customerName: ' Cleo Ø ',
      customerEmail: 'cleo@example.test',
      cart: { totalCents: 350 },
    });
  });

  it('refuses a blank name and an email with spaces instead of trimming them', () => {
    const result = checkCheckout(
      {
        items: [{ productId: 'latte', qty: 1 }],
        customerName: '   ',
        customerEmail: 'cleo@example.test ',
      },
      CATALOG,
    );
    expect(fields(result)).toEqual([
      { field: 'customerName', message: 'Enter a name.' },
      { field: 'customerEmail', message: 'Enter a valid email address.' },
    ]);
  });

  it('lists every field at fault: cart lines, name and email', () => {
    const result = checkCheckout(
      { items: [{ productId: 'scone', qty: 1 }], customerName: '', customerEmail: 'nope' },
      CATALOG,
    );
    expect(fields(result).map((f) => f.field)).toEqual([
      'items[0].productId',
      'customerName',
      'customerEmail',
    ]);
    expect((result as AppError).message).toBe('Scone is no longer available.');
    expect(fields(checkCheckout(null, CATALOG)).map((f) => f.field)).toEqual([
      'items',
      'customerName',
      'customerEmail',
    ]);
  });
});

describe('summarizeCart', () => {
  it('counts the items and totals them at the catalog’s prices, in the catalog’s currency', () => {
    const lines = [
      { productId: 'latte', qty: 2 },
      { productId: 'croissant', qty: 1 },
      { productId: 'gone', qty: 3 },
      { productId: 'scone', qty: 1 },
    ];
    // A product gone from the catalog or taken off the menu (inactive) counts at no price.
    expect(summarizeCart(lines, CATALOG)).toEqual({
      itemCount: 7,
      totalCents: 2 * 350 + 220,
      currency: 'eur',
    });
    expect(summarizeCart([{ productId: 'bagel', qty: 1 }], CATALOG).currency).toBe('usd');
  });

  it('is empty for no lines, in the fallback currency', () => {
    expect(summarizeCart([], CATALOG, 'gbp')).toEqual({
      itemCount: 0,
      totalCents: 0,
      currency: 'gbp',
    });
  });
});
