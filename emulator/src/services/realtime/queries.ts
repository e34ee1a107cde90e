/**
 * Realtime queries, as Appwrite's `Realtime::convertQueries` and `RuntimeQuery` treat them:
 * a subscription's queries are parsed once, restricted to the methods Appwrite allows over
 * realtime, compiled, and evaluated against each event's payload (top level ANDed).
 */

/** A parsed query: `{method, attribute, values}`; `and`/`or` hold parsed queries as values. */
export interface RealtimeQuery {
  method: string;
  attribute: string;
  values: unknown[];
}

/** A query that cannot be used over realtime; its message follows Appwrite's wording. */
export class RealtimeQueryError extends Error {}

/** `RuntimeQuery::ALLOWED_QUERIES`. */
export const ALLOWED_REALTIME_METHODS: readonly string[] = [
  'equal',
  'notEqual',
  'lessThan',
  'lessThanEqual',
  'greaterThan',
  'greaterThanEqual',
  'isNull',
  'isNotNull',
  'and',
  'or',
  'select',
];

/** Every method utopia-php/database knows (others are "Invalid query method"). */
const KNOWN_METHODS = new Set([
  ...ALLOWED_REALTIME_METHODS,
  'contains',
  'containsAny',
  'containsAll',
  'notContains',
  'search',
  'notSearch',
  'between',
  'notBetween',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'regex',
  'exists',
  'notExists',
  'elemMatch',
  'orderAsc',
  'orderDesc',
  'orderRandom',
  'limit',
  'offset',
  'cursorAfter',
  'cursorBefore',
  'distanceEqual',
  'distanceNotEqual',
  'distanceGreaterThan',
  'distanceLessThan',
  'intersects',
  'notIntersects',
  'crosses',
  'notCrosses',
  'overlaps',
  'notOverlaps',
  'touches',
  'notTouches',
  'vectorDot',
  'vectorCosine',
  'vectorEuclidean',
]);

const LOGICAL = new Set(['and', 'or', 'elemMatch']);

const SELECT_ALL = '{"method":"select","values":["*"]}';

function typeName(value: unknown): string {
  if (value === null) return 'NULL';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'double';
  return typeof value;
}

function parseObject(raw: unknown): RealtimeQuery {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new RealtimeQueryError(`Invalid query. Must be an array, got ${typeName(raw)}`);
  }
  const query = raw as { method?: unknown; attribute?: unknown; values?: unknown };
  const method = query.method ?? '';
  const attribute = query.attribute ?? '';
  const values = query.values ?? [];
  if (typeof method !== 'string') {
    throw new RealtimeQueryError(`Invalid query method. Must be a string, got ${typeName(method)}`);
  }
  if (!KNOWN_METHODS.has(method)) throw new RealtimeQueryError(`Invalid query method: ${method}`);
  if (typeof attribute !== 'string') {
    throw new RealtimeQueryError(
      `Invalid query attribute. Must be a string, got ${typeName(attribute)}`,
    );
  }
  if (!Array.isArray(values)) {
    throw new RealtimeQueryError(`Invalid query values. Must be an array, got ${typeName(values)}`);
  }
  return {
    method,
    attribute,
    values: LOGICAL.has(method)
      ? values.map((value) => (typeof value === 'string' ? parseString(value) : parseObject(value)))
      : values,
  };
}

function parseString(raw: string): RealtimeQuery {
  let decoded: unknown;
  try {
    decoded = JSON.parse(raw);
  } catch {
    throw new RealtimeQueryError('Invalid query: Syntax error');
  }
  return parseObject(decoded);
}

/**
 * Parses a subscription's `queries` (JSON strings, as the SDK's `Query` helpers make them)
 * and checks every method, nested ones included, is allowed over realtime.
 * Throws {@link RealtimeQueryError} with the message Appwrite wraps in "Invalid query: …".
 */
export function parseRealtimeQueries(raw: readonly unknown[]): RealtimeQuery[] {
  const queries = raw.map((item) => {
    if (typeof item === 'string') return parseString(item);
    throw new RealtimeQueryError(`Invalid query. Must be a string, got ${typeName(item)}`);
  });
  const stack = [...queries];
  while (stack.length) {
    const query = stack.pop()!;
    if (!ALLOWED_REALTIME_METHODS.includes(query.method)) {
      throw new RealtimeQueryError(
        `Query method '${query.method}' is not supported in Realtime queries. Allowed: ${ALLOWED_REALTIME_METHODS.join(', ')}`,
      );
    }
    if (query.method === 'select' && !isSelectAll(query)) {
      throw new RealtimeQueryError(
        'Only select("*") is allowed in Realtime queries. select("*") means "listen to all events".',
      );
    }
    if (query.method === 'and' || query.method === 'or') {
      stack.push(...(query.values as RealtimeQuery[]));
    }
  }
  return queries;
}

function isSelectAll(query: RealtimeQuery): boolean {
  return query.method === 'select' && query.values.length === 1 && query.values[0] === '*';
}

function toArray(query: RealtimeQuery): Record<string, unknown> {
  const out: Record<string, unknown> = { method: query.method };
  if (query.attribute) out.attribute = query.attribute;
  out.values = LOGICAL.has(query.method)
    ? (query.values as RealtimeQuery[]).map(toArray)
    : query.values;
  return out;
}

/** A query as Appwrite prints it back (`Query::toString`): method, attribute when set, values. */
export function queryToString(query: RealtimeQuery): string {
  return JSON.stringify(toArray(query));
}

/** The stored strings of a subscription's queries: `select(["*"])` when it has none. */
export function storedQueryStrings(queries: readonly RealtimeQuery[]): string[] {
  return queries.length ? queries.map(queryToString) : [SELECT_ALL];
}

type Condition =
  { op: 'AND' | 'OR'; conditions: Condition[] } | { op: string; attr: string; values: unknown[] };

/** Queries compiled once per subscription for fast evaluation (`RuntimeQuery::compile`). */
export type CompiledQueries =
  | { type: 'selectAll' }
  | { type: 'filter'; conditions: Condition[]; attributes: string[]; hasOr: boolean };

function compileCondition(query: RealtimeQuery): Condition {
  if (query.method === 'and' || query.method === 'or') {
    return {
      op: query.method === 'and' ? 'AND' : 'OR',
      conditions: (query.values as RealtimeQuery[]).map(compileCondition),
    };
  }
  return { op: query.method, attr: query.attribute, values: query.values };
}

function collect(condition: Condition, attributes: Set<string>, state: { hasOr: boolean }): void {
  if ('conditions' in condition) {
    if (condition.op === 'OR') state.hasOr = true;
    for (const sub of condition.conditions) collect(sub, attributes, state);
  } else {
    attributes.add(condition.attr);
  }
}

/** Compiles parsed queries; no queries, or any top-level `select(["*"])`, matches everything. */
export function compileQueries(queries: readonly RealtimeQuery[]): CompiledQueries {
  if (queries.length === 0 || queries.some(isSelectAll)) return { type: 'selectAll' };
  const conditions = queries.map(compileCondition);
  const attributes = new Set<string>();
  const state = { hasOr: false };
  for (const condition of conditions) collect(condition, attributes, state);
  return { type: 'filter', conditions, attributes: [...attributes], hasOr: state.hasOr };
}

const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * PHP 8's ordering of two scalars, for what realtime payloads hold: numbers, numeric
 * strings (compared as numbers), other strings (byte order); anything else is unordered.
 */
function compare(a: unknown, b: unknown): number | null {
  const aNumeric = typeof a === 'number' || (typeof a === 'string' && NUMERIC.test(a));
  const bNumeric = typeof b === 'number' || (typeof b === 'string' && NUMERIC.test(b));
  if (aNumeric && bNumeric) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (
    (typeof a === 'string' || typeof a === 'number') &&
    (typeof b === 'string' || typeof b === 'number')
  ) {
    const x = String(a);
    const y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return null;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return false;
}

function evaluate(condition: Condition, payload: Record<string, unknown>): boolean {
  if ('conditions' in condition) {
    return condition.op === 'AND'
      ? condition.conditions.every((sub) => evaluate(sub, payload))
      : condition.conditions.some((sub) => evaluate(sub, payload));
  }
  if (!Object.hasOwn(payload, condition.attr)) return false;
  const value = payload[condition.attr];
  const targets = condition.values;
  switch (condition.op) {
    case 'equal':
      return targets.some((target) => same(value, target));
    case 'notEqual':
      return !targets.some((target) => same(value, target));
    case 'lessThan':
      return targets.some((target) => (compare(value, target) ?? 0) < 0);
    case 'lessThanEqual':
      return targets.some((target) => {
        const order = compare(value, target);
        return order !== null && order <= 0;
      });
    case 'greaterThan':
      return targets.some((target) => (compare(value, target) ?? 0) > 0);
    case 'greaterThanEqual':
      return targets.some((target) => {
        const order = compare(value, target);
        return order !== null && order >= 0;
      });
    case 'isNull':
      return value === null;
    case 'isNotNull':
      return value !== null;
    default:
      return false;
  }
}

/** Whether `payload` passes compiled queries (`RuntimeQuery::filter`). */
export function matchesQueries(
  compiled: CompiledQueries,
  payload: Record<string, unknown>,
): boolean {
  if (compiled.type === 'selectAll') return true;
  if (!compiled.hasOr) {
    for (const attribute of compiled.attributes)
      if (!Object.hasOwn(payload, attribute)) return false;
  }
  return compiled.conditions.every((condition) => evaluate(condition, payload));
}
