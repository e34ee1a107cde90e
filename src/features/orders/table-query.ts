import { ORDER_STATUSES, type Order, type OrderStatus } from '../../domain/order.ts';

/** Columns the orders table sorts by. */
export const SORT_KEYS = [
  'number',
  'createdAt',
  'status',
  'customerName',
  'customerEmail',
  'items',
  'totalCents',
  'assigneeName',
  'updatedAt',
] as const;

/** A sortable column. */
export type SortKey = (typeof SORT_KEYS)[number];

/** Sort direction. */
export type SortDir = 'asc' | 'desc';

/**
 * What the table shows, as the URL keeps it: sort, status filter, assignee (`me`, `none`, or a
 * user id), created-date range (`YYYY-MM-DD`, inclusive, local time) and a text search.
 */
export interface TableQuery {
  sort: SortKey;
  dir: SortDir;
  statuses: OrderStatus[];
  assignee: string | null;
  from: string | null;
  to: string | null;
  q: string;
}

/** Newest first, everything. */
export const DEFAULT_QUERY: TableQuery = {
  sort: 'createdAt',
  dir: 'desc',
  statuses: [],
  assignee: null,
  from: null,
  to: null,
  q: '',
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isSortKey(value: string | null): value is SortKey {
  return value !== null && (SORT_KEYS as readonly string[]).includes(value);
}

/** Reads a {@link TableQuery} from a query string; unknown or bad values fall back to defaults. */
export function parseTableQuery(search: string): TableQuery {
  const params = new URLSearchParams(search);
  const sort = params.get('sort');
  const dir = params.get('dir');
  const statuses = (params.get('status') ?? '')
    .split(',')
    .filter((s): s is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(s));
  const from = params.get('from');
  const to = params.get('to');
  return {
    sort: isSortKey(sort) ? sort : DEFAULT_QUERY.sort,
    dir: dir === 'asc' || dir === 'desc' ? dir : isSortKey(sort) ? 'asc' : DEFAULT_QUERY.dir,
    statuses: [...new Set(statuses)],
    assignee: params.get('assignee') || null,
    from: from && DATE.test(from) ? from : null,
    to: to && DATE.test(to) ? to : null,
    q: (params.get('q') ?? '').slice(0, 200),
  };
}

/** Writes a {@link TableQuery} as a query string (`?…`, or `''` for the default), omitting defaults. */
export function formatTableQuery(query: TableQuery): string {
  const params = new URLSearchParams();
  if (query.sort !== DEFAULT_QUERY.sort || query.dir !== DEFAULT_QUERY.dir) {
    params.set('sort', query.sort);
    params.set('dir', query.dir);
  }
  if (query.statuses.length) params.set('status', query.statuses.join(','));
  if (query.assignee) params.set('assignee', query.assignee);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.q.trim()) params.set('q', query.q.trim());
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Clicking a column header: a new column sorts ascending (dates and numbers descending); again flips. */
export function toggleSort(query: TableQuery, key: SortKey): TableQuery {
  if (query.sort === key) return { ...query, dir: query.dir === 'asc' ? 'desc' : 'asc' };
  const descFirst =
    key === 'createdAt' || key === 'updatedAt' || key === 'number' || key === 'totalCents';
  return { ...query, sort: key, dir: descFirst ? 'desc' : 'asc' };
}

/** Start of a local `YYYY-MM-DD` day in epoch ms. */
export function dayStart(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

/** Whether any filter narrows the rows. */
export function isFiltered(query: TableQuery): boolean {
  return (
    query.statuses.length > 0 ||
    query.assignee !== null ||
    query.from !== null ||
    query.to !== null ||
    query.q.trim() !== ''
  );
}

/**
 * A row predicate for `query` (null when nothing filters), with `me` resolved to `userId`.
 * Search matches the order number (`1042` or `#1042`), the customer's name or the email.
 */
export function orderFilter(query: TableQuery, userId: string): ((order: Order) => boolean) | null {
  if (!isFiltered(query)) return null;
  const statuses = query.statuses.length ? new Set<OrderStatus>(query.statuses) : null;
  const assignee = query.assignee === 'me' ? userId : query.assignee;
  const from = query.from ? dayStart(query.from) : -Infinity;
  const to = query.to ? dayStart(query.to) + 24 * 3600_000 : Infinity;
  const needle = query.q.trim().toLowerCase().replace(/^#/, '');
  const numeric = /^\d+$/.test(needle) ? needle : null;
  return (order) => {
    if (statuses && !statuses.has(order.status)) return false;
    if (assignee === 'none') {
      if (order.assigneeId !== null) return false;
    } else if (assignee !== null && order.assigneeId !== assignee) return false;
    if (order.createdAt < from || order.createdAt >= to) return false;
    if (needle) {
      if (numeric !== null && String(order.number).startsWith(numeric)) return true;
      return (
        order.customerName.toLowerCase().includes(needle) ||
        order.customerEmail.toLowerCase().includes(needle)
      );
    }
    return true;
  };
}
