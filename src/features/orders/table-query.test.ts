import { describe, expect, it } from 'vitest';
import type { Order } from '../../../domain/order.ts';
import { orderViewPredicate, type OrderViewSpec } from '../../../store/index.ts';
import {
  DEFAULT_QUERY,
  formatTableQuery,
  parseTableQuery,
  readTableQuery,
  toggleSort,
  unknownFilterNotice,
  viewSpecFor,
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

  it('names every unknown value and falls back to the default for it', () => {
    const members = new Set(['u-ana']);
    const known = (id: string) => members.has(id);
    const { query, unknown } = readTableQuery(
      '?assignee=unassigned&status=paid,bogus&from=2026-02-30&to=2026-11-02&sort=password&dir=up',
      known,
    );
    expect(query).toEqual({
      ...DEFAULT_QUERY,
      statuses: ['paid'],
      to: '2026-11-02',
    });
    expect(unknown).toEqual([
      { param: 'status', value: 'bogus' },
      { param: 'from', value: '2026-02-30' },
      { param: 'assignee', value: 'unassigned' },
      { param: 'sort', value: 'password' },
      { param: 'dir', value: 'up' },
    ]);
    expect(unknownFilterNotice(unknown.slice(2, 3))).toBe(
      'This link has values the table doesn’t know, so they were ignored: assignee “unassigned”.',
    );
    expect(unknownFilterNotice([])).toBeNull();
  });

  it('keeps me, none and member ids; takes any assignee before the members are known', () => {
    const known = (id: string) => id === 'u-ana';
    for (const assignee of ['me', 'none', 'u-ana']) {
      const read = readTableQuery(`?assignee=${assignee}`, known);
      expect(read).toEqual({ query: { ...DEFAULT_QUERY, assignee }, unknown: [] });
    }
    expect(readTableQuery('?assignee=u-gone').query.assignee).toBe('u-gone');
  });

  it('toggles sort direction, numbers and dates descending first', () => {
    const byTotal = toggleSort(DEFAULT_QUERY, 'totalCents');
    expect(byTotal).toMatchObject({ sort: 'totalCents', dir: 'desc' });
    expect(toggleSort(byTotal, 'totalCents')).toMatchObject({ dir: 'asc' });
    expect(toggleSort(DEFAULT_QUERY, 'customerName')).toMatchObject({ dir: 'asc' });
  });
});

describe('viewSpecFor', () => {
  it('is just the sort when nothing filters', () => {
    expect(viewSpecFor(DEFAULT_QUERY, 'u1')).toEqual({ sort: 'createdAt', dir: 'desc' });
  });

  it('resolves me, local day bounds (to inclusive) and trims the search', () => {
    const spec = viewSpecFor(
      {
        ...DEFAULT_QUERY,
        statuses: ['paid'],
        assignee: 'me',
        from: '2026-11-22',
        to: '2026-11-22',
        q: ' #104 ',
      },
      'u1',
    );
    expect(spec).toEqual({
      sort: 'createdAt',
      dir: 'desc',
      statuses: ['paid'],
      assignee: 'u1',
      createdFrom: new Date(2026, 10, 22).getTime(),
      createdTo: new Date(2026, 10, 23).getTime(),
      text: '#104',
    });
  });
});

describe('the table view predicate', () => {
  const match = (spec: Partial<OrderViewSpec>, o: Order) =>
    orderViewPredicate({ sort: 'createdAt', dir: 'desc', ...spec })(o);

  it('filters by status, assignee (a user / none) and date range', () => {
    const paidMine = order({ assigneeId: 'u1' });
    const readyFree = order({ status: 'ready' });
    expect([paidMine, readyFree].filter((o) => match({ assignee: 'u1' }, o))).toEqual([paidMine]);
    expect([paidMine, readyFree].filter((o) => match({ assignee: 'none' }, o))).toEqual([
      readyFree,
    ]);
    expect([paidMine, readyFree].filter((o) => match({ statuses: ['ready'] }, o))).toEqual([
      readyFree,
    ]);
    const day = viewSpecFor({ ...DEFAULT_QUERY, from: '2026-11-22', to: '2026-11-22' }, 'u1');
    expect(match(day, paidMine)).toBe(true);
    expect(match(day, order({ createdAt: new Date(2026, 10, 23, 0, 0, 1).getTime() }))).toBe(false);
  });

  it('searches number, customer name (accents folded) and email', () => {
    const o = order({ customerName: 'Mia Nováková' });
    expect(match({ text: '#104' }, o)).toBe(true);
    expect(match({ text: '1042' }, o)).toBe(true);
    expect(match({ text: 'NOVAK' }, o)).toBe(true);
    expect(match({ text: 'mia@' }, o)).toBe(true);
    expect(match({ text: 'zoe' }, o)).toBe(false);
  });
});
