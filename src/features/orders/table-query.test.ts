import { describe, expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import {
  DEFAULT_QUERY,
  formatTableQuery,
  orderFilter,
  parseTableQuery,
  toggleSort,
} from './table-query.ts';

const order = (patch: Partial<Order>): Order =>
  ({
    id: 'o1',
    number: 1042,
    status: 'paid',
    customerName: 'Mia Novak',
    customerEmail: 'mia@example.test',
    assigneeId: null,
    createdAt: new Date(2026, 10, 22, 10).getTime(),
    ...patch,
  }) as Order;

describe('table query ↔ URL', () => {
  it('the default query is an empty query string and parses back', () => {
    expect(formatTableQuery(DEFAULT_QUERY)).toBe('');
    expect(parseTableQuery('')).toEqual(DEFAULT_QUERY);
  });

  it('round-trips sort, filters and search', () => {
    const query = {
      sort: 'totalCents' as const,
      dir: 'asc' as const,
      statuses: ['paid' as const, 'ready' as const],
      assignee: 'me',
      from: '2026-11-01',
      to: '2026-11-22',
      q: 'mia',
    };
    const search = formatTableQuery(query);
    expect(search).toBe(
      '?sort=totalCents&dir=asc&status=paid%2Cready&assignee=me&from=2026-11-01&to=2026-11-22&q=mia',
    );
    expect(parseTableQuery(search)).toEqual(query);
  });

  it('ignores unknown values', () => {
    expect(parseTableQuery('?sort=password&status=paid,bogus&from=yesterday')).toEqual({
      ...DEFAULT_QUERY,
      statuses: ['paid'],
    });
  });

  it('toggles sort direction, numbers and dates descending first', () => {
    const byTotal = toggleSort(DEFAULT_QUERY, 'totalCents');
    expect(byTotal).toMatchObject({ sort: 'totalCents', dir: 'desc' });
    expect(toggleSort(byTotal, 'totalCents')).toMatchObject({ dir: 'asc' });
    expect(toggleSort(DEFAULT_QUERY, 'customerName')).toMatchObject({ dir: 'asc' });
  });
});

describe('orderFilter', () => {
  it('is null when nothing filters', () => {
    expect(orderFilter(DEFAULT_QUERY, 'u1')).toBeNull();
  });

  it('filters by status, assignee (me / none) and date range', () => {
    const paidMine = order({ assigneeId: 'u1' });
    const readyFree = order({ status: 'ready' });
    const mine = orderFilter({ ...DEFAULT_QUERY, assignee: 'me' }, 'u1')!;
    expect([paidMine, readyFree].filter(mine)).toEqual([paidMine]);
    const none = orderFilter({ ...DEFAULT_QUERY, assignee: 'none' }, 'u1')!;
    expect([paidMine, readyFree].filter(none)).toEqual([readyFree]);
    const ready = orderFilter({ ...DEFAULT_QUERY, statuses: ['ready'] }, 'u1')!;
    expect([paidMine, readyFree].filter(ready)).toEqual([readyFree]);
    const day = orderFilter({ ...DEFAULT_QUERY, from: '2026-11-22', to: '2026-11-22' }, 'u1')!;
    expect(day(paidMine)).toBe(true);
    expect(day(order({ createdAt: new Date(2026, 10, 23, 0, 0, 1).getTime() }))).toBe(false);
  });

  it('searches number, customer name and email', () => {
    const match = (q: string) => orderFilter({ ...DEFAULT_QUERY, q }, 'u1')!(order({}));
    expect(match('#104')).toBe(true);
    expect(match('1042')).toBe(true);
    expect(match('NOVAK')).toBe(true);
    expect(match('mia@')).toBe(true);
    expect(match('zoe')).toBe(false);
  });
});
