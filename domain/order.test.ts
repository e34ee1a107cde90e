import { describe, expect, it } from 'vitest';
import {
  CHOOSABLE_STATUSES,
  ITEMS_SUMMARY_MAX,
  ORDER_STATUSES,
  itemsSummary,
  itemsSummaryOfStored,
  type OrderItem,
} from './order.ts';

const line = (name: string, qty: number): OrderItem => ({
  productId: name.toLowerCase(),
  name,
  unitPriceCents: 100,
  qty,
});

describe('itemsSummary', () => {
  it('lists each line as quantity × name', () => {
    expect(itemsSummary([line('Latte', 2), line('Croissant', 1)])).toBe('2× Latte, 1× Croissant');
    expect(itemsSummary([])).toBe('');
  });

  it('cuts a long summary to the stored size with an ellipsis, never inside a character', () => {
    const long = itemsSummary(
      Array.from({ length: 50 }, (_, i) => line(`Pastry 🥐 number ${i}`, 1)),
    );
    const characters = Array.from(long);
    expect(characters).toHaveLength(ITEMS_SUMMARY_MAX);
    expect(long.endsWith('…')).toBe(true);
    expect(long.startsWith('1× Pastry 🥐 number 0, 1× Pastry 🥐 number 1')).toBe(true);
    expect(characters.every((c) => c.codePointAt(0)! < 0xd800 || c.codePointAt(0)! > 0xdfff)).toBe(
      true,
    );
    const exact = 'x'.repeat(ITEMS_SUMMARY_MAX - 3);
    expect(itemsSummary([line(exact, 1)])).toBe(`1× ${exact}`);
  });
});

describe('itemsSummaryOfStored', () => {
  it('summarizes stored items, and gives an empty summary for what does not parse as a list', () => {
    expect(itemsSummaryOfStored(JSON.stringify([line('Tea', 3)]))).toBe('3× Tea');
    expect(itemsSummaryOfStored('[]')).toBe('');
    expect(itemsSummaryOfStored('{')).toBe('');
    expect(itemsSummaryOfStored('{"a":1}')).toBe('');
    expect(itemsSummaryOfStored(null)).toBe('');
  });
});

describe('CHOOSABLE_STATUSES', () => {
  it('offers every status an order can have once paid, each once, the workflow first', () => {
    expect([...CHOOSABLE_STATUSES].sort()).toEqual(
      ORDER_STATUSES.filter((status) => status !== 'pending_payment').sort(),
    );
    expect(CHOOSABLE_STATUSES.slice(0, 4)).toEqual(['paid', 'preparing', 'ready', 'fulfilled']);
  });
});
