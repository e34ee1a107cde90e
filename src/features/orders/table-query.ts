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

/** A `YYYY-MM-DD` that names a real day (not `2026-02-30`). */
function isCalendarDay(value: string): boolean {
  if (!DATE.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d;
}

function isSortKey(value: string | null): value is SortKey {
  return value !== null && (SORT_KEYS as readonly string[]).includes(value);
}

/** A value of the orders URL the table does not know, so it fell back to the default. */
export interface UnknownFilterValue {
  /** The URL parameter: `status`, `assignee`, `from`, `to`, `sort` or `dir`. */
  param: 'status' | 'assignee' | 'from' | 'to' | 'sort' | 'dir';
  /** The value as the URL had it. */
  value: string;
}

/** `assignee` values that are not user ids. */
export const ASSIGNEE_KEYWORDS = ['me', 'none'] as const;

/**
 * Reads a {@link TableQuery} from a query string, and lists every value it did not know (each
 * falls back to its default). `isKnownAssignee` says whether a user id is one the desk knows;
 * without it every assignee is taken as given (the members are not loaded yet).
 */
export function readTableQuery(
  search: string,
  isKnownAssignee?: (userId: string) => boolean,
): { query: TableQuery; unknown: UnknownFilterValue[] } {
  const params = new URLSearchParams(search);
  const unknown: UnknownFilterValue[] = [];
  const sort = params.get('sort');
  const dir = params.get('dir');
  const statuses: OrderStatus[] = [];
  for (const value of (params.get('status') ?? '').split(',')) {
    if ((ORDER_STATUSES as readonly string[]).includes(value)) statuses.push(value as OrderStatus);
    else if (value !== '') unknown.push({ param: 'status', value });
  }
  const date = (param: 'from' | 'to'): string | null => {
    const value = params.get(param);
    if (!value) return null;
    if (isCalendarDay(value)) return value;
    unknown.push({ param, value });
    return null;
  };
  const from = date('from');
  const to = date('to');
  let assignee = params.get('assignee') || null;
  if (
    assignee !== null &&
    isKnownAssignee &&
    !(ASSIGNEE_KEYWORDS as readonly string[]).includes(assignee) &&
    !isKnownAssignee(assignee)
  ) {
    unknown.push({ param: 'assignee', value: assignee });
    assignee = null;
  }
  if (sort && !isSortKey(sort)) unknown.push({ param: 'sort', value: sort });
  if (dir && dir !== 'asc' && dir !== 'desc') unknown.push({ param: 'dir', value: dir });
  const query: TableQuery = {
    sort: isSortKey(sort) ? sort : DEFAULT_QUERY.sort,
    dir: dir === 'asc' || dir === 'desc' ? dir : isSortKey(sort) ? 'asc' : DEFAULT_QUERY.dir,
    statuses: [...new Set(statuses)],
    assignee,
    from,
    to,
    q: (params.get('q') ?? '').slice(0, 200),
  };
  return { query, unknown };
}

/** Reads a {@link TableQuery} from a query string; unknown or bad values fall back to defaults. */
export function parseTableQuery(search: string): TableQuery {
  return readTableQuery(search).query;
}

/**
 * The notice for values the table did not know, naming each, or null when there are none:
 * `This link has values the table doesn’t know, so they were ignored: assignee “unassigned”.`
 */
export function unknownFilterNotice(unknown: readonly UnknownFilterValue[]): string | null {
  if (unknown.length === 0) return null;
  const named = unknown.map(({ param, value }) => `${param} “${value}”`).join(', ');
  return `This link has values the table doesn’t know, so they were ignored: ${named}.`;
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
