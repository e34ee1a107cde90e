import { ApiError } from './errors.ts';
import { parseQueries, type Query } from './queries.ts';

/** Appwrite's largest list page. */
const MAX_LIMIT = 5000;
/** Appwrite's default page size (`APP_LIMIT_LIST_DEFAULT`). */
const DEFAULT_LIMIT = 25;
/** Attributes every model has. */
const SYSTEM_ATTRIBUTES = ['$id', '$createdAt', '$updatedAt'];

const FILTERS: Record<string, (actual: unknown, values: unknown[]) => boolean> = {
  equal: (actual, values) =>
    values.some((value) => (Array.isArray(actual) ? actual.includes(value) : value === actual)),
  notEqual: (actual, values) => values.every((value) => value !== actual),
  lessThan: (actual, values) => compare(actual, values[0]) < 0,
  lessThanEqual: (actual, values) => compare(actual, values[0]) <= 0,
  greaterThan: (actual, values) => compare(actual, values[0]) > 0,
  greaterThanEqual: (actual, values) => compare(actual, values[0]) >= 0,
  startsWith: (actual, values) =>
    typeof actual === 'string' && actual.startsWith(String(values[0])),
  endsWith: (actual, values) => typeof actual === 'string' && actual.endsWith(String(values[0])),
  search: (actual, values) =>
    typeof actual === 'string' && actual.toLowerCase().includes(String(values[0]).toLowerCase()),
};

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = String(a ?? '');
  const right = String(b ?? '');
  return left < right ? -1 : left > right ? 1 : 0;
}

function invalid(message: string): ApiError {
  return new ApiError('general_query_invalid', `Invalid query: ${message}`);
}

/**
 * Applies Appwrite list `queries` (filters on `attributes` and `$id`, `$createdAt`, `$updatedAt` —
 * `equal` on an array attribute matches an element —, `orderAsc`/`orderDesc`,
 * `cursorAfter`/`cursorBefore`, `limit` ≤ 5000 (default 25), `offset`) to models held in memory,
 * for every list that is not documents. `resource` names the model in "… for the 'cursor' value
 * not found". Returns the page and the total number of matches.
 */
export function applyListQueries<T extends Record<string, unknown>>(
  models: readonly T[],
  rawQueries: unknown,
  attributes: readonly string[],
  resource = 'Document',
): { total: number; page: T[] } {
  const queries = parseQueries(rawQueries, 'any');
  let items = [...models];
  let limit = DEFAULT_LIMIT;
  let offset = 0;
  let cursor: { id: string; after: boolean } | null = null;
  const orders: { attribute: string; desc: boolean }[] = [];
  const checkAttribute = (query: Query): string => {
    const attribute = query.attribute;
    if (!attributes.includes(attribute) && !SYSTEM_ATTRIBUTES.includes(attribute))
      throw invalid(`Attribute not found in schema: ${attribute}`);
    return attribute;
  };
  for (const query of queries) {
    const filter = FILTERS[query.method];
    if (filter) {
      const attribute = checkAttribute(query);
      items = items.filter((item) => filter(item[attribute], query.values));
      continue;
    }
    switch (query.method) {
      case 'limit': {
        const value = query.values[0];
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_LIMIT)
          throw invalid('Invalid limit: Value must be a valid range between 1 and 5,000');
        limit = value;
        break;
      }
      case 'offset': {
        const value = query.values[0];
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
          throw invalid('Invalid offset: Value must be a valid range between 0 and 5,000');
        offset = value;
        break;
      }
      case 'orderAsc':
      case 'orderDesc':
        orders.push({ attribute: checkAttribute(query), desc: query.method === 'orderDesc' });
        break;
      case 'cursorAfter':
      case 'cursorBefore':
        cursor = { id: String(query.values[0] ?? ''), after: query.method === 'cursorAfter' };
        break;
      default:
        throw invalid(`Query method not valid: ${query.method}`);
    }
  }
  if (orders.length) {
    items.sort((a, b) => {
      for (const order of orders) {
        const diff = compare(a[order.attribute], b[order.attribute]);
        if (diff !== 0) return order.desc ? -diff : diff;
      }
      return 0;
    });
  }
  const total = items.length;
  if (cursor) {
    const index = items.findIndex((item) => item.$id === cursor.id);
    if (index < 0)
      throw new ApiError(
        'general_cursor_not_found',
        `${resource} '${cursor.id}' for the 'cursor' value not found.`,
      );
    items = cursor.after ? items.slice(index + 1) : items.slice(0, index).slice(-limit);
  }
  return { total, page: items.slice(offset, offset + limit) };
}
