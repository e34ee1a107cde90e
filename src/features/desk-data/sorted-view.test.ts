import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { SortedView } from './sorted-view.ts';

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
      { sort: 'number', dir: 'desc', statuses: ['paid', 'preparing'] },
      (id) => table.get(id),
    );
    view.rebuild(table.values());
    expect(view.ids).toEqual(['b', 'c', 'a']);

    const d = make('d', 4);
    put(d);
    expect(view.apply([d])).toBe(true);
    expect(view.ids).toEqual(['d', 'b', 'c', 'a']);

    const b = make('b', 3, { status: 'ready' });
    put(b);
    view.apply([b]);
    expect(view.ids).toEqual(['d', 'c', 'a']);

    const a = make('a', 1, { status: 'preparing', totalCents: 999 });
    put(a);
    const before = view.ids;
    view.apply([a]);
    expect(view.ids).toEqual(['d', 'c', 'a']);
    expect(view.ids).not.toBe(before);
  });

  it('reports no change when changed orders stay outside the view', () => {
    const table = new Map<string, Order>([['x', make('x', 1, { status: 'fulfilled' })]]);
    const view = new SortedView({ sort: 'number', dir: 'asc', statuses: ['paid'] }, (id) =>
      table.get(id),
    );
    view.rebuild(table.values());
    expect(view.apply([table.get('x')!])).toBe(false);
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
    const view = new SortedView({ sort: 'assigneeName', dir: 'asc' }, (id) => table.get(id));
    view.rebuild(table.values());
    expect(view.ids).toEqual(['d', 'c', 'a', 'b']);
  });
});
