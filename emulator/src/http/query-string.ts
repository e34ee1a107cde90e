import { parse } from 'qs';

/** Most params one query string may carry; more is refused (`qs` would drop them silently). */
const MAX_PARAMS = 1000;
/** Highest array index kept as an array slot (Appwrite's lists hold at most 100 items; bulk bodies are JSON). */
const MAX_ARRAY_INDEX = 1000;

/**
 * Parses a query string (or a form body) the way PHP does, as the SDKs flatten params that way:
 * `queries[0]=a&queries[1]=b` and `queries[]=a` become arrays, `a[b]=c` an object, a repeated
 * plain key keeps its last value. Built on `qs`, which never assigns `__proto__`, `constructor`
 * or other keys of `Object.prototype`, so hostile input cannot change later requests. Broken
 * percent-encoding is kept as written; more than {@link MAX_PARAMS} params is a `RangeError`.
 */
export function parseQueryString(search: string): Record<string, unknown> {
  return parse(search, {
    ignoreQueryPrefix: true,
    duplicates: 'last',
    arrayLimit: MAX_ARRAY_INDEX,
    parameterLimit: MAX_PARAMS,
    throwOnLimitExceeded: true,
  }) as Record<string, unknown>;
}
