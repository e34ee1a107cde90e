import { ApiError } from './errors.ts';
import { parseExactJson } from './json.ts';

/**
 * Appwrite's query language, read once for every service: the SDKs send each query as JSON
 * `{"method", "attribute", "values"}` (`and`/`or`/`elemMatch` hold queries as values). What a
 * query then means is up to its target: SQL for documents, payload matching for realtime, models
 * in memory for the other lists.
 */

/** A parsed query; `and`/`or`/`elemMatch` hold parsed queries as values. */
export interface Query {
  method: string;
  attribute: string;
  values: unknown[];
}

/** Filters of utopia-php/database (`Query::TYPES`), spatial and vector ones aside. */
export const FILTER_METHODS: ReadonlySet<string> = new Set([
  'equal',
  'notEqual',
  'lessThan',
  'lessThanEqual',
  'greaterThan',
  'greaterThanEqual',
  'search',
  'notSearch',
  'isNull',
  'isNotNull',
  'between',
  'notBetween',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'contains',
  'containsAny',
  'notContains',
  'containsAll',
  'and',
  'or',
  'elemMatch',
  'regex',
  'exists',
  'notExists',
]);

/** Spatial filters. */
export const SPATIAL_METHODS: ReadonlySet<string> = new Set([
  'crosses',
  'notCrosses',
  'distanceEqual',
  'distanceNotEqual',
  'distanceGreaterThan',
  'distanceLessThan',
  'intersects',
  'notIntersects',
  'overlaps',
  'notOverlaps',
  'touches',
  'notTouches',
]);

/** Vector filters. */
export const VECTOR_METHODS: ReadonlySet<string> = new Set([
  'vectorDot',
  'vectorCosine',
  'vectorEuclidean',
]);

/** Selection, order and paging methods. */
export const PAGING_METHODS: ReadonlySet<string> = new Set([
  'select',
  'orderAsc',
  'orderDesc',
  'orderRandom',
  'limit',
  'offset',
  'cursorAfter',
  'cursorBefore',
]);

/** Every method of the language; others are "Invalid query method". */
export const QUERY_METHODS: ReadonlySet<string> = new Set([
  ...FILTER_METHODS,
  ...SPATIAL_METHODS,
  ...VECTOR_METHODS,
  ...PAGING_METHODS,
]);

/** Methods whose values are queries. */
export const LOGICAL_METHODS: ReadonlySet<string> = new Set(['and', 'or', 'elemMatch']);

/** Appwrite's limits on the `queries` param: items and characters of each. */
const MAX_QUERIES = 100;
const MAX_QUERY_LENGTH = 4096;

function queryError(message: string): ApiError {
  return new ApiError('general_query_invalid', message);
}

/** PHP's name of a JSON value's type, as Appwrite's messages print it. */
export function phpType(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'double';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value;
}

/** Which methods a reader accepts: `all` the language's, or `any` string (its target decides). */
export type MethodCheck = 'all' | 'any';

function readObject(raw: unknown, methods: MethodCheck): Query {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw queryError(`Invalid query. Must be an array, got ${phpType(raw)}`);
  const object = raw as Record<string, unknown>;
  const method = object.method ?? '';
  const attribute = object.attribute ?? '';
  const values = object.values ?? [];
  if (typeof method !== 'string')
    throw queryError(`Invalid query method. Must be a string, got ${phpType(method)}`);
  if (methods === 'all' && !QUERY_METHODS.has(method))
    throw queryError(`Invalid query method: ${method}`);
  if (typeof attribute !== 'string')
    throw queryError(`Invalid query attribute. Must be a string, got ${phpType(attribute)}`);
  if (!Array.isArray(values))
    throw queryError(`Invalid query values. Must be an array, got ${phpType(values)}`);
  return {
    method,
    attribute,
    values: LOGICAL_METHODS.has(method)
      ? values.map((value) =>
          typeof value === 'string' ? parseQuery(value, methods) : readObject(value, methods),
        )
      : values,
  };
}

/**
 * Reads one query from the SDK's JSON text; integers beyond 2^53 stay exact (bigints). Throws
 * `general_query_invalid` with Appwrite's parse messages ("Invalid query: Syntax error", …).
 */
export function parseQuery(text: string, methods: MethodCheck = 'all'): Query {
  let parsed: unknown;
  try {
    parsed = parseExactJson(text);
  } catch {
    throw queryError('Invalid query: Syntax error');
  }
  return readObject(parsed, methods);
}

/**
 * Reads a list's `queries` param: at most 100 strings of at most 4,096 chars (else
 * `general_argument_invalid`, as Appwrite's param validator), each read by {@link parseQuery}.
 */
export function parseQueries(raw: unknown, methods: MethodCheck = 'all'): Query[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const list = typeof raw === 'string' ? [raw] : raw;
  if (
    !Array.isArray(list) ||
    list.length > MAX_QUERIES ||
    list.some((item) => typeof item !== 'string' || item.length > MAX_QUERY_LENGTH)
  ) {
    throw new ApiError(
      'general_argument_invalid',
      `Invalid \`queries\` param: Value must a valid array no longer than ${MAX_QUERIES} items and Value must be a valid string and no longer than ${MAX_QUERY_LENGTH} chars`,
    );
  }
  return (list as string[]).map((text) => parseQuery(text, methods));
}
