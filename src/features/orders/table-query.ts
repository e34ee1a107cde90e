import { ORDER_STATUSES, type OrderStatus } from '../../../domain/order.ts';
import { ORDER_SORT_KEYS, type OrderSortKey, type OrderViewSpec } from '../../../store/index.ts';

/** A sortable column. */
export type SortKey = OrderSortKey;

/** Columns the orders table sorts by. */
export const SORT_KEYS = ORDER_SORT_KEYS;

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
 * The table view a query asks for, with `me` resolved to `userId` and the date range as local
 * day boundaries (`to` inclusive).
 */
export function viewSpecFor(query: TableQuery, userId: string): OrderViewSpec {
  const spec: OrderViewSpec = { sort: query.sort, dir: query.dir };
  if (query.statuses.length) spec.statuses = query.statuses;
  if (query.assignee) spec.assignee = query.assignee === 'me' ? userId : query.assignee;
  if (query.from) spec.createdFrom = dayStart(query.from);
  if (query.to) spec.createdTo = dayStart(query.to) + 24 * 3600_000;
  if (query.q.trim()) spec.text = query.q.trim();
  return spec;
}
