import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { SortedView, boardViewDef, tableViewDef } from './sorted-view.ts';

const make = (id: string, number: number, patch: Partial<Order> = {}): Order =>
  ({
    id,
    number,
    status: 'paid',
    totalCents: number * 10,
    items: [],
    fulfilledAt: null,
    ...patch,
  }) as Order;

describe('SortedView', () => {
  it('keeps ids sorted through inserts, moves and removals without re-sorting', () => {
    const table = new Map<string, Order>();
    const put = (order: Order) => table.set(order.id, order);
    [make('a', 1), make('b', 3), make('c', 2)].forEach(put);
    const view = new SortedView(
      tableViewDef({ sort: 'number', dir: 'desc', statuses: ['paid', 'preparing'] }),
      (id) => table.get(id),
    );
    view.rebuild(table.values());
    expect(view.ids).toEqual(['b', 'c', 'a']);

    const change = (order: Order) => {
      const before = table.get(order.id);
      put(order);
      return { before, after: order };
    };
    const d = make('d', 4);
    expect(view.apply([change(d)])).toBe(true);
    expect(view.ids).toEqual(['d', 'b', 'c', 'a']);

    view.apply([change(make('b', 3, { status: 'ready' }))]);
    expect(view.ids).toEqual(['d', 'c', 'a']);

    const before = view.ids;
    expect(view.apply([change(make('a', 1, { status: 'preparing', totalCents: 999 }))])).toBe(
      false,
    );
    expect(view.ids).toBe(before);
  });

  it('reports no change when changed orders stay outside the view', () => {
    const table = new Map<string, Order>([['x', make('x', 1, { status: 'fulfilled' })]]);
    const view = new SortedView(
      tableViewDef({ sort: 'number', dir: 'asc', statuses: ['paid'] }),
      (id) => table.get(id),
    );
    view.rebuild(table.values());
    expect(view.apply([{ before: table.get('x'), after: table.get('x')! }])).toBe(false);
  });

  it('sorts strings case-insensitively and nulls last, ties by newest number', () => {
    const table = new Map<string, Order>();
    for (const order of [
      make('a', 1, { assigneeName: 'ben' }),
      make('b', 2, { assigneeName: null }),
      make('c', 3, { assigneeName: 'Ana' }),
      make('d', 4, { assigneeName: 'ana' }),
    ])
      table.set(order.id, order);
    const view = new SortedView(tableViewDef({ sort: 'assigneeName', dir: 'asc' }), (id) =>
      table.get(id),
    );
    view.rebuild(table.values());
    expect(view.ids).toEqual(['d', 'c', 'a', 'b']);
  });
});

describe('SortedView moves', () => {
  it('moves an order whose sort key changed, with several changes in one batch', () => {
    const table = new Map<string, Order>();
    for (const order of [make('a', 1), make('b', 2), make('c', 3), make('d', 4)])
      table.set(order.id, order);
    const view = new SortedView(tableViewDef({ sort: 'totalCents', dir: 'desc' }), (id) =>
      table.get(id),
    );
    view.rebuild(table.values());
    expect(view.ids).toEqual(['d', 'c', 'b', 'a']);
    const changes = [
      make('a', 1, { totalCents: 100 }),
      make('d', 4, { totalCents: 1 }),
      make('e', 5),
    ].map((after) => {
      const before = table.get(after.id);
      table.set(after.id, after);
      return { before, after };
    });
    expect(view.apply(changes)).toBe(true);
    expect(view.ids).toEqual(['a', 'e', 'c', 'b', 'd']);
  });

  it('agrees with a full re-sort after random changes', () => {
    const table = new Map<string, Order>();
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let i = 0; i < 300; i++)
      table.set(`o${i}`, make(`o${i}`, i, { totalCents: Math.floor(random() * 50) }));
    const spec = {
      sort: 'totalCents' as const,
      dir: 'asc' as const,
      statuses: ['paid' as const, 'ready' as const],
    };
    const view = new SortedView(tableViewDef(spec), (id) => table.get(id));
    view.rebuild(table.values());
    for (let round = 0; round < 50; round++) {
      const changes = [];
      for (let k = 0; k < 10; k++) {
        const id = `o${Math.floor(random() * 320)}`;
        const status = (['paid', 'ready', 'fulfilled'] as const)[Math.floor(random() * 3)]!;
        const after = make(id, Number(id.slice(1)), {
          totalCents: Math.floor(random() * 50),
          status,
        });
        changes.push({ before: table.get(id), after });
        table.set(id, after);
      }
      view.apply(changes);
    }
    const expected = new SortedView(tableViewDef(spec), (id) => table.get(id));
    expected.rebuild(table.values());
    expect(view.ids).toEqual(expected.ids);
  });
});

describe('board columns', () => {
  it('orders working columns by payment, oldest first, and keeps only today in done', () => {
    const day = 1_000_000;
    const table = new Map<string, Order>();
    for (const order of [
      make('late', 1, { paidAt: 50 }),
      make('early', 2, { paidAt: 10 }),
      make('doneToday', 3, { status: 'fulfilled', fulfilledAt: day + 5 }),
      make('doneYesterday', 4, { status: 'fulfilled', fulfilledAt: day - 5 }),
    ])
      table.set(order.id, order);
    const paid = new SortedView(boardViewDef('paid', day), (id) => table.get(id));
    paid.rebuild(table.values());
    expect(paid.ids).toEqual(['early', 'late']);
    const done = new SortedView(boardViewDef('done', day), (id) => table.get(id));
    done.rebuild(table.values());
    expect(done.ids).toEqual(['doneToday']);
  });
});
