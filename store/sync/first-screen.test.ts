import { describe, expect, it } from 'vitest';
import { EntityTable } from '../records/entity-table.ts';
import { viewDefOf } from '../views/order-derived.ts';
import { buildOrderIndex } from '../views/order-views.ts';
import { FIRST_SCREEN_ROWS, firstScreenOf, readFirstScreen } from './first-screen.ts';
import { makeOrder } from './testing/orders.ts';
import { Prng } from './testing/prng.ts';

const rng = new Prng(11);
const orders = Array.from({ length: 300 }, (_, i) =>
  Object.freeze(
    makeOrder(rng, {
      id: `x${i}`,
      number: i + 1,
      createdAt: 1_000_000 + i,
      status: i % 3 === 0 ? 'preparing' : 'paid',
    }),
  ),
);
const table = EntityTable.from(orders);
const byNumber = buildOrderIndex(viewDefOf({ sort: 'number', dir: 'asc' }), table);

function stored(over: Partial<Parameters<typeof firstScreenOf>[0]> = {}) {
  return firstScreenOf({
    version: 7,
    savedAt: 1,
    watermark: 2,
    orders: table,
    view: 'number-asc',
    index: byNumber,
    total: 300,
    ...over,
  });
}

describe('first screen', () => {
  it("keeps the view's first rows in order (one chunk), its row count and the total", () => {
    // Structured-cloned, as storage gives it back.
    const screen = readFirstScreen(structuredClone(stored()), 7)!;
    expect(screen).toMatchObject({ savedAt: 1, watermark: 2, view: 'number-asc', rows: 300 });
    expect(screen.total).toBe(300);
    expect(screen.orders).toHaveLength(FIRST_SCREEN_ROWS);
    expect(screen.orders.map((o) => o.id)).toEqual(
      orders.slice(0, FIRST_SCREEN_ROWS).map((o) => o.id),
    );
    // The orders as they were, frozen like the snapshot's.
    expect(screen.orders[5]).toEqual(orders[5]);
    expect(Object.isFrozen(screen.orders[5])).toBe(true);
    expect(Object.isFrozen(screen.orders)).toBe(true);
  });

  it('keeps a filtered view with fewer rows than a screen as it is', () => {
    const preparing = buildOrderIndex(
      viewDefOf({ sort: 'createdAt', dir: 'desc', statuses: ['preparing'] }),
      table,
    );
    const screen = readFirstScreen(stored({ index: preparing, view: 'p' }), 7)!;
    expect(screen.rows).toBe(100);
    expect(screen.orders.map((o) => o.number)).toEqual(
      Array.from({ length: 100 }, (_, i) => 298 - 3 * i),
    );
  });

  it('leaves out a row whose order is not confirmed (only ours, optimistic)', () => {
    const confirmed = EntityTable.from(orders.slice(1));
    const screen = readFirstScreen(stored({ orders: confirmed }), 7)!;
    expect(screen.rows).toBe(300);
    expect(screen.orders[0]!.id).toBe('x1');
    expect(screen.orders).toHaveLength(FIRST_SCREEN_ROWS - 1);
  });

  it('is not one when of another version, malformed or absent', () => {
    const good = stored();
    expect(readFirstScreen(good, 8)).toBeNull();
    expect(
      readFirstScreen({ ...good, segment: { data: new ArrayBuffer(8), text: '' } }, 7),
    ).toBeNull();
    expect(readFirstScreen({ ...good, dictionaries: null }, 7)).toBeNull();
    expect(readFirstScreen({ ...good, rows: -1 }, 7)).toBeNull();
    expect(readFirstScreen({ ...good, rows: 3 }, 7)).toBeNull();
    expect(readFirstScreen({ ...good, view: 1 }, 7)).toBeNull();
    expect(readFirstScreen(undefined, 7)).toBeNull();
    expect(readFirstScreen('x', 7)).toBeNull();
  });
});
