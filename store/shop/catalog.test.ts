import { describe, expect, it } from 'vitest';
import type { Product } from '../../domain/entities.ts';
import { withProduct } from './catalog.ts';

const product = (id: string, patch: Partial<Product> = {}): Product =>
  ({
    id,
    name: id,
    description: '',
    priceCents: 300,
    currency: 'eur',
    active: true,
    imageFileId: null,
    sortOrder: 0,
    createdAt: 0,
    updatedAt: 10,
    ...patch,
  }) as Product;

describe('withProduct', () => {
  const menu = [product('bagel', { sortOrder: 1 }), product('latte', { sortOrder: 2 })];

  it('adds a new product in the menu’s order', () => {
    const next = withProduct(menu, product('tea', { sortOrder: 1, updatedAt: 20 }));
    expect(next.map((p) => p.id)).toEqual(['bagel', 'tea', 'latte']);
  });

  it('renames and reprices a product in place', () => {
    const next = withProduct(
      menu,
      product('latte', { sortOrder: 2, priceCents: 420, updatedAt: 20 }),
    );
    expect(next.map((p) => [p.id, p.priceCents])).toEqual([
      ['bagel', 300],
      ['latte', 420],
    ]);
  });

  it('keeps a product taken off the menu, inactive (a cart may still name it), and back on', () => {
    const off = withProduct(menu, product('bagel', { sortOrder: 1, active: false, updatedAt: 20 }));
    expect(off.map((p) => [p.id, p.active])).toEqual([
      ['bagel', false],
      ['latte', true],
    ]);
    const on = withProduct(off, product('bagel', { sortOrder: 1, updatedAt: 30 }));
    expect(on.map((p) => [p.id, p.active])).toEqual([
      ['bagel', true],
      ['latte', true],
    ]);
  });

  it('ignores a change older than the copy held', () => {
    const newer = withProduct(
      menu,
      product('latte', { sortOrder: 2, priceCents: 420, updatedAt: 20 }),
    );
    expect(withProduct(newer, product('latte', { sortOrder: 2, updatedAt: 15 }))).toBe(newer);
  });
});
