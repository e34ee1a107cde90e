import { describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors.ts';
import { cartProductIds, newOrderData, parseCheckoutBody } from './main.ts';

function refusal(body: string): AppError {
  try {
    parseCheckoutBody(body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`accepted ${body}`);
}

describe('checkout request parsing', () => {
  it('takes a JSON object and the order id the shop chose, if any', () => {
    expect(parseCheckoutBody('{"items":[],"orderId":"o-1"}')).toEqual({
      orderId: 'o-1',
      body: { items: [], orderId: 'o-1' },
    });
    expect(parseCheckoutBody('{"items":[]}').orderId).toBeNull();
  });

  it('refuses anything else as VALIDATION', () => {
    expect(refusal('nope').message).toBe('The request body must be JSON.');
    expect(refusal('[]').message).toBe('The request body must be a JSON object.');
    for (const orderId of ['', '_x', 'a'.repeat(37), 7])
      expect(refusal(JSON.stringify({ orderId })).details).toEqual({ field: 'orderId' });
  });

  it('looks up only ids a cart may name, each once, one line beyond the limit at most', () => {
    const items = [
      { productId: 'latte', qty: 1 },
      { productId: 'latte', qty: 2 },
      { productId: '../x', qty: 1 },
      { productId: 5 },
      null,
      ...Array.from({ length: 60 }, (_, i) => ({ productId: `p${i}`, qty: 1 })),
    ];
    const ids = cartProductIds({ items });
    expect(ids.slice(0, 2)).toEqual(['latte', 'p0']);
    expect(ids).toHaveLength(1 + 46);
    expect(cartProductIds({ items: 'many' })).toEqual([]);
  });
});

describe('a new order', () => {
  it('awaits payment at rev 0, priced from the cart, owned by its customer', () => {
    const data = newOrderData({
      number: 1042,
      cart: {
        items: [{ productId: 'latte', name: 'Latte', unitPriceCents: 400, qty: 2 }],
        subtotalCents: 800,
        totalCents: 800,
        currency: 'eur',
      },
      customerName: 'Cleo',
      customerEmail: 'cleo@example.test',
      customerId: 'u1',
      paymentIntentId: 'pi_1',
    });
    expect(data).toMatchObject({
      number: 1042,
      status: 'pending_payment',
      paymentStatus: 'requires_payment_method',
      paymentIntentId: 'pi_1',
      customerId: 'u1',
      totalCents: 800,
      itemsSummary: '2× Latte',
      refundedCents: 0,
      rev: 0,
      updatedById: 'u1',
      updatedByName: 'Cleo',
    });
    expect(JSON.parse(data.items)).toEqual([
      { productId: 'latte', name: 'Latte', unitPriceCents: 400, qty: 2 },
    ]);
  });
});
