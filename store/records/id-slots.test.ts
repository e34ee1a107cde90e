import { describe, expect, it } from 'vitest';
import { hashId, IdSlots } from './id-slots.ts';

/** Three ids with one hash (found by searching `order-0` … `order-2670238`). */
const SAME_HASH = ['order-896608', 'order-1842676', 'order-2670238'];

describe('hashId', () => {
  it('is a 30-bit whole number, the same for equal strings', () => {
    for (const id of ['', 'a', 'order-1', '6b0437b90027be578544', 'ü€😀']) {
      const hash = hashId(id);
      expect(Number.isInteger(hash) && hash >= 0 && hash < 2 ** 30).toBe(true);
      expect(hashId(`${id}`)).toBe(hash);
    }
    expect(hashId('order-1')).not.toBe(hashId('order-2'));
  });
});

describe('IdSlots', () => {
  it('numbers ids from 0 in the order they first arrive and keeps each slot', () => {
    const slots = new IdSlots();
    expect(slots.ensure('a')).toBe(0);
    expect(slots.ensure('b')).toBe(1);
    expect(slots.ensure('a')).toBe(0);
    expect(slots.get('b')).toBe(1);
    expect(slots.get('c')).toBeUndefined();
    expect(slots.size).toBe(2);
  });

  it('tells apart ids whose hashes collide', () => {
    const [first, second, third] = SAME_HASH as [string, string, string];
    expect(new Set(SAME_HASH.map(hashId)).size).toBe(1);
    const slots = new IdSlots();
    slots.ensure('x');
    expect(slots.ensure(first)).toBe(1);
    expect(slots.get(second)).toBeUndefined();
    expect(slots.ensure(second)).toBe(2);
    expect(slots.get(third)).toBeUndefined();
    expect(slots.ensure(third)).toBe(3);
    expect(SAME_HASH.map((id) => slots.ensure(id))).toEqual([1, 2, 3]);
    expect(SAME_HASH.map((id) => slots.get(id))).toEqual([1, 2, 3]);
    expect(slots.size).toBe(4);
  });

  it('gives 100,000 ids 100,000 distinct slots and finds each again', () => {
    const slots = new IdSlots();
    const ids = Array.from({ length: 100_000 }, (_, i) => `order-${i}`);
    ids.forEach((id, i) => expect(slots.ensure(id)).toBe(i));
    expect(ids.every((id, i) => slots.get(id) === i)).toBe(true);
    expect(slots.get('order-100000')).toBeUndefined();
  });
});

describe('IdSlots.skip', () => {
  it('keeps a slot for nobody: ids after it get the next ones, none finds it', () => {
    const slots = new IdSlots();
    expect(slots.ensure('a')).toBe(0);
    expect(slots.skip()).toBe(1);
    expect(slots.skip()).toBe(2);
    expect(slots.ensure('b')).toBe(3);
    expect(slots.get('')).toBeUndefined();
    expect(slots.ensure('')).toBe(4);
    expect(slots.size).toBe(5);
    // Through growing the table.
    for (let i = 0; i < 1_000; i++) {
      if (i % 3) slots.ensure(`id-${i}`);
      else slots.skip();
    }
    expect(slots.get('b')).toBe(3);
    expect(slots.get('id-998')).toBe(1003);
  });
});
