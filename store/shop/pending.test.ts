import { describe, expect, it } from 'vitest';
import { cartKey, loadShop, saveShop, SHOP_STORAGE_KEY, type SavedShop } from './pending.ts';

function memory(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('cartKey', () => {
  it('is the same for the same lines in another order and for padded names', () => {
    const a = cartKey({
      lines: [
        { productId: 'latte', qty: 2 },
        { productId: 'bagel', qty: 1 },
      ],
      customerName: 'Cleo',
      customerEmail: 'cleo@example.test',
    });
    const b = cartKey({
      lines: [
        { productId: 'bagel', qty: 1 },
        { productId: 'latte', qty: 2 },
      ],
      customerName: ' Cleo ',
      customerEmail: 'cleo@example.test ',
    });
    expect(a).toBe(b);
  });

  it('differs when a quantity, the name or the email differs', () => {
    const base = {
      lines: [{ productId: 'latte', qty: 2 }],
      customerName: 'Cleo',
      customerEmail: 'c@x.test',
    };
    const key = cartKey(base);
    expect(cartKey({ ...base, lines: [{ productId: 'latte', qty: 3 }] })).not.toBe(key);
    expect(cartKey({ ...base, customerName: 'Cleopatra' })).not.toBe(key);
    expect(cartKey({ ...base, customerEmail: 'd@x.test' })).not.toBe(key);
  });
});

describe('loadShop / saveShop', () => {
  it('keeps the cart and the pending checkout across a reload', () => {
    const storage = memory();
    const saved: SavedShop = {
      cart: {
        lines: [{ productId: 'latte', qty: 2 }],
        customerName: 'Cleo',
        customerEmail: 'c@x.test',
      },
      pending: {
        orderId: 'o1',
        cartKey: 'k',
        clientSecret: 'pi_1_secret_2',
        number: 1042,
        amountCents: 800,
        currency: 'eur',
      },
    };
    saveShop(storage, saved);
    expect(loadShop(storage)).toEqual(saved);
  });

  it('drops what it cannot read instead of trusting it', () => {
    expect(loadShop(memory({ [SHOP_STORAGE_KEY]: '{not json' })).cart.lines).toEqual([]);
    expect(loadShop(null).pending).toBeNull();
    const odd = loadShop(
      memory({
        [SHOP_STORAGE_KEY]: JSON.stringify({
          cart: {
            lines: [{ productId: 'a', qty: 1.5 }, { productId: 'b', qty: 2 }, 'x'],
            customerName: 3,
          },
          pending: { orderId: 'o1' },
        }),
      }),
    );
    expect(odd).toEqual({
      cart: { lines: [{ productId: 'b', qty: 2 }], customerName: '', customerEmail: '' },
      pending: null,
    });
  });
});
