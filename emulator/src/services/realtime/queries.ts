import { ApiError } from '../../core/errors.ts';
import { rawJson } from '../../core/json.ts';
import { LOGICAL_METHODS, parseQuery, phpType, type Query } from '../../core/queries.ts';

/**
 * Realtime queries, as Appwrite's `Realtime::convertQueries` and `RuntimeQuery` treat them:
 * a subscription's queries are parsed once (by the one query parser), restricted to the methods
 * Appwrite allows over realtime, compiled, and evaluated against each event's payload (top level
 * ANDed).
 */

/** A parsed query: `{method, attribute, values}`; `and`/`or` hold parsed queries as values. */
export type RealtimeQuery = Query;

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

const SELECT_ALL = '{"method":"select","values":["*"]}';

/** One subscription query from its JSON text; a parse error becomes a {@link RealtimeQueryError}. */
function parseString(raw: string): RealtimeQuery {
  try {
    return parseQuery(raw);
  } catch (error) {
    if (error instanceof ApiError) throw new RealtimeQueryError(error.message);
    throw error;
  }
}

/**
 * Parses a subscription's `queries` (JSON strings, as the SDK's `Query` helpers make them)
 * and checks every method, nested ones included, is allowed over realtime.
 * Throws {@link RealtimeQueryError} with the message Appwrite wraps in "Invalid query: …".
 */
export function parseRealtimeQueries(raw: readonly unknown[]): RealtimeQuery[] {
  const queries = raw.map((item) => {
    if (typeof item === 'string') return parseString(item);
    throw new RealtimeQueryError(`Invalid query. Must be a string, got ${phpType(item)}`);
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
  out.values = LOGICAL_METHODS.has(query.method)
    ? (query.values as RealtimeQuery[]).map(toArray)
    : query.values;
  return out;
}

/** A query as Appwrite prints it back (`Query::toString`): method, attribute when set, values. */
export function queryToString(query: RealtimeQuery): string {
  return JSON.stringify(toArray(query), (_key, value: unknown) =>
    typeof value === 'bigint' ? rawJson(value.toString()) : value,
  );
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

/** A number, or an integer beyond 2^53 as the query parser keeps it. */
const isNumber = (value: unknown) => typeof value === 'number' || typeof value === 'bigint';

/**
 * PHP 8's ordering of two scalars, for what realtime payloads hold: numbers, numeric
 * strings (compared as numbers), other strings (byte order); anything else is unordered.
 */
function compare(a: unknown, b: unknown): number | null {
  const aNumeric = isNumber(a) || (typeof a === 'string' && NUMERIC.test(a));
  const bNumeric = isNumber(b) || (typeof b === 'string' && NUMERIC.test(b));
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
