import { ApiError } from './errors.ts';

/** Limit and offset read from list `queries`, for endpoints that support only those. */
export interface SimpleListQuery {
  limit: number;
  offset: number;
  equal: Map<string, unknown[]>;
}

/** Parses `queries` accepting `limit`, `offset` and `equal`; anything else is `general_query_invalid`. */
export function parseSimpleListQueries(
  raw: unknown,
  allowedAttributes: readonly string[] = [],
): SimpleListQuery {
  const result: SimpleListQuery = { limit: 25, offset: 0, equal: new Map() };
  if (raw === undefined || raw === null) return result;
  if (!Array.isArray(raw))
    throw new ApiError('general_query_invalid', 'Invalid query: queries must be an array.');
  for (const item of raw) {
    let query: { method?: unknown; attribute?: unknown; values?: unknown };
    try {
      query =
        typeof item === 'string' ? (JSON.parse(item) as typeof query) : (item as typeof query);
    } catch {
      throw new ApiError('general_query_invalid', `Invalid query: Syntax error in ${String(item)}`);
    }
    const values = Array.isArray(query.values) ? query.values : [];
    switch (query.method) {
      case 'limit':
        if (typeof values[0] !== 'number' || values[0] < 1 || values[0] > 5000) {
          throw new ApiError(
            'general_query_invalid',
            'Invalid query: Invalid limit: Value must be a valid range between 1 and 5,000',
          );
        }
        result.limit = values[0];
        break;
      case 'offset':
        if (typeof values[0] !== 'number' || values[0] < 0)
          throw new ApiError('general_query_invalid', 'Invalid query: Invalid offset');
        result.offset = values[0];
        break;
      case 'equal':
        if (typeof query.attribute !== 'string' || !allowedAttributes.includes(query.attribute)) {
          throw new ApiError(
            'general_query_invalid',
            `Invalid query: Attribute not found in schema: ${String(query.attribute)}`,
          );
        }
        result.equal.set(query.attribute, values);
        break;
      default:
        throw new ApiError(
          'general_query_invalid',
          `Invalid query: Query method not valid: ${String(query.method)}`,
        );
    }
  }
  return result;
}
