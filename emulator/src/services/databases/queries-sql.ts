import { ApiError } from '../../core/errors.ts';
import {
  FILTER_METHODS,
  LOGICAL_METHODS as LOGICAL,
  SPATIAL_METHODS,
  VECTOR_METHODS,
  type Query,
} from '../../core/queries.ts';
import {
  INT64_MAX,
  INT64_MIN,
  integerBits,
  normalizeDatetime,
  type SqlValue,
} from './structure.ts';
import { columnOf, ftsTableOf, type CollectionRecord } from './types.ts';

/** Appwrite's largest list page (the local backend caps `limit` here). */
export const MAX_LIMIT = 5000;
/** Appwrite's `APP_LIMIT_COUNT`: `total` counts at most this many documents. */
export const COUNT_LIMIT = 5000;
/** Appwrite's default page size (`APP_LIMIT_LIST_DEFAULT`). */
export const DEFAULT_LIMIT = 25;
const MAX_QUERY_VALUES = 5000;

const CONTAINS = new Set(['contains', 'containsAny', 'containsAll', 'notContains']);

function queryError(message: string): ApiError {
  return new ApiError('general_query_invalid', message);
}

// ── validation ───────────────────────────────────────────────────────────────

type FieldType = 'string' | 'integer' | 'double' | 'boolean' | 'datetime' | 'id';

interface Field {
  key: string;
  type: FieldType;
  array: boolean;
  bits: 32 | 64;
}

/** The attributes queries may use: the collection's plus `$id`, `$sequence`, `$createdAt`, `$updatedAt`. */
export function fieldsOf(collection: CollectionRecord): Map<string, Field> {
  const fields = new Map<string, Field>();
  for (const attribute of collection.attributes) {
    if (attribute.status !== 'available') continue;
    const type: FieldType =
      attribute.kind === 'integer'
        ? 'integer'
        : attribute.kind === 'float'
          ? 'double'
          : attribute.kind === 'boolean'
            ? 'boolean'
            : attribute.kind === 'datetime'
              ? 'datetime'
              : 'string';
    fields.set(attribute.key, {
      key: attribute.key,
      type,
      array: attribute.array,
      bits: attribute.kind === 'integer' ? integerBits(attribute) : 64,
    });
  }
  fields.set('$id', { key: '$id', type: 'string', array: false, bits: 64 });
  fields.set('$sequence', { key: '$sequence', type: 'id', array: false, bits: 64 });
  fields.set('$createdAt', { key: '$createdAt', type: 'datetime', array: false, bits: 64 });
  fields.set('$updatedAt', { key: '$updatedAt', type: 'datetime', array: false, bits: 64 });
  return fields;
}

const SELECT_INTERNAL = new Set([
  '$id',
  '$sequence',
  '$collection',
  '$tenant',
  '$createdAt',
  '$updatedAt',
  '$permissions',
]);

function ucfirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function methodType(method: string): string {
  if (method === 'select') return 'select';
  if (method === 'limit') return 'limit';
  if (method === 'offset') return 'offset';
  if (method === 'cursorAfter' || method === 'cursorBefore') return 'cursor';
  if (method === 'orderAsc' || method === 'orderDesc' || method === 'orderRandom') return 'order';
  if (FILTER_METHODS.has(method) || SPATIAL_METHODS.has(method) || VECTOR_METHODS.has(method))
    return 'filter';
  return '';
}

function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'bigint') return true;
  return typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value);
}

/** PHP's `$value + 0` is an int. */
function isIntegral(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value === 'number') return Number.isInteger(value);
  return typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value);
}

const UID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/;

function validValue(field: Field, value: unknown): boolean {
  switch (field.type) {
    case 'string':
      return typeof value === 'string';
    case 'id':
      return (
        (typeof value === 'number' && Number.isInteger(value) && value >= 0) ||
        (typeof value === 'bigint' && value >= 0n) ||
        (typeof value === 'string' && /^\d{1,19}$/.test(value))
      );
    case 'integer': {
      if (typeof value !== 'bigint' && !(typeof value === 'number' && Number.isInteger(value)))
        return false;
      const big = BigInt(value);
      return field.bits === 64
        ? big >= INT64_MIN && big <= INT64_MAX
        : big >= -(2n ** 31n) && big <= 2n ** 31n - 1n;
    }
    case 'double':
      return typeof value === 'number' || typeof value === 'bigint';
    case 'boolean':
      return typeof value === 'boolean';
    case 'datetime':
      return normalizeDatetime(value) !== null;
  }
}

/** Validation of a filter's attribute and values (Appwrite's `Filter::isValidAttributeAndValues`). */
function checkAttributeAndValues(
  fields: Map<string, Field>,
  attribute: string,
  values: unknown[],
  method: string,
): string | null {
  const field = fields.get(attribute);
  if (!field) return `Attribute not found in schema: ${attribute.split('.')[0]}`;
  if (method === 'exists' || method === 'notExists') return null;
  if (values.length > MAX_QUERY_VALUES)
    return `Query on attribute has greater than ${MAX_QUERY_VALUES} values: ${attribute}`;
  if (SPATIAL_METHODS.has(method))
    return `Spatial query "${method}" cannot be applied on non-spatial attribute: ${attribute}`;
  for (const value of values)
    if (!validValue(field, value)) return `Query value is invalid for attribute "${attribute}"`;
  if (!field.array && CONTAINS.has(method) && field.type !== 'string') {
    return `Cannot query ${method === 'notContains' ? 'notContains' : 'contains'} on attribute "${attribute}" because it is not an array, string, or object.`;
  }
  if (
    field.array &&
    !CONTAINS.has(method) &&
    !['isNull', 'isNotNull', 'exists', 'notExists'].includes(method)
  ) {
    return `Cannot query ${method} on attribute "${attribute}" because it is an array.`;
  }
  if (VECTOR_METHODS.has(method)) return 'Vector queries can only be used on vector attributes';
  return null;
}

function isEmptyValues(values: unknown[]): boolean {
  return values.length === 0 || (Array.isArray(values[0]) && values[0].length === 0);
}

/** Appwrite's `Filter` validator. */
function checkFilter(fields: Map<string, Field>, query: Query): string | null {
  const { method, attribute, values } = query;
  switch (method) {
    case 'equal':
    case 'contains':
    case 'containsAny':
    case 'notContains':
    case 'containsAll':
    case 'exists':
    case 'notExists':
      if (isEmptyValues(values)) return `${ucfirst(method)} queries require at least one value.`;
      return checkAttributeAndValues(fields, attribute, values, method);
    case 'distanceEqual':
    case 'distanceNotEqual':
    case 'distanceGreaterThan':
    case 'distanceLessThan':
      if (values.length !== 1 || !Array.isArray(values[0]) || values[0].length !== 3)
        return 'Distance query requires [[geometry, distance]] parameters';
      return checkAttributeAndValues(fields, attribute, values, method);
    case 'notEqual':
    case 'lessThan':
    case 'lessThanEqual':
    case 'greaterThan':
    case 'greaterThanEqual':
    case 'search':
    case 'notSearch':
    case 'startsWith':
    case 'notStartsWith':
    case 'endsWith':
    case 'notEndsWith':
    case 'regex':
      if (values.length !== 1) return `${ucfirst(method)} queries require exactly one value.`;
      return checkAttributeAndValues(fields, attribute, values, method);
    case 'between':
    case 'notBetween':
      if (values.length !== 2) return `${ucfirst(method)} queries require exactly two values.`;
      return checkAttributeAndValues(fields, attribute, values, method);
    case 'isNull':
    case 'isNotNull':
      return checkAttributeAndValues(fields, attribute, values, method);
    case 'vectorDot':
    case 'vectorCosine':
    case 'vectorEuclidean':
      if (!fields.has(attribute)) return `Attribute not found in schema: ${attribute}`;
      return 'Vector queries can only be used on vector attributes';
    case 'and':
    case 'or': {
      const children = values as Query[];
      if (children.some((child) => methodType(child.method) !== 'filter'))
        return `${ucfirst(method)} queries can only contain filter queries`;
      if (children.length < 2) return `${ucfirst(method)} queries require at least two queries`;
      return null;
    }
    case 'elemMatch':
      return 'elemMatch is not supported by the database';
    default:
      if (SPATIAL_METHODS.has(method)) {
        if (isEmptyValues(values)) return `${ucfirst(method)} queries require at least one value.`;
        return checkAttributeAndValues(fields, attribute, values, method);
      }
      return 'Invalid query';
  }
}

function checkOrder(fields: Map<string, Field>, query: Query): string | null {
  if (query.method === 'orderRandom') return null;
  const attribute = query.attribute;
  if (fields.has(attribute)) return null;
  if (attribute.includes('.') && fields.has(attribute.split('.')[0]!))
    return `Cannot order by nested attribute: ${attribute.split('.')[0]}`;
  return `Attribute not found in schema: ${attribute.includes('.') ? attribute.split('.')[0] : attribute}`;
}

function checkSelect(fields: Map<string, Field>, query: Query): string | null {
  const values = query.values;
  if (values.length === 0) return 'No attributes selected';
  if (new Set(values.map((value) => JSON.stringify(value))).size !== values.length)
    return 'Duplicate attributes selected';
  for (const value of values) {
    const attribute = typeof value === 'string' ? value.split('.')[0]! : String(value);
    if (SELECT_INTERNAL.has(attribute) || attribute === '*') continue;
    if (!fields.has(attribute) || attribute.startsWith('$'))
      return `Attribute not found in schema: ${attribute}`;
  }
  return null;
}

function checkLimit(query: Query): string | null {
  const value = query.values[0];
  if (!isNumeric(value)) return 'Invalid limit: Value must be a valid number';
  if (!isIntegral(value) || Number(value) < 1 || Number(value) > MAX_LIMIT)
    return `Invalid limit: Value must be a valid range between 1 and ${MAX_LIMIT.toLocaleString('en-US')}`;
  return null;
}

function checkOffset(query: Query): string | null {
  const value = query.values[0];
  if (!isNumeric(value)) return 'Invalid limit: Value must be a valid number';
  if (!isIntegral(value) || Number(value) < 0)
    return 'Invalid offset: Value must be a valid range between 0 and 9,223,372,036,854,775,808';
  return null;
}

/** The cursor validator's message, or null. */
export function checkCursor(query: Query): string | null {
  const value = query.values[0];
  if (typeof value === 'string' && UID.test(value)) return null;
  return "Invalid cursor: UID must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, and underscore. Can't start with a leading underscore";
}

/** Appwrite's `Queries` validator: each query (nested ones first) by its method type. */
function checkQueries(fields: Map<string, Field>, queries: Query[]): string | null {
  for (const query of queries) {
    if (LOGICAL.has(query.method)) {
      const nested = checkQueries(fields, query.values as Query[]);
      if (nested) return nested;
    }
    let message: string | null;
    switch (methodType(query.method)) {
      case 'select':
        message = checkSelect(fields, query);
        break;
      case 'limit':
        message = checkLimit(query);
        break;
      case 'offset':
        message = checkOffset(query);
        break;
      case 'cursor':
        message = checkCursor(query);
        break;
      case 'order':
        message = checkOrder(fields, query);
        break;
      case 'filter':
        message = checkFilter(fields, query);
        break;
      default:
        return `Invalid query method: ${query.method}`;
    }
    if (message) return `Invalid query: ${message}`;
  }
  return null;
}

/** Appwrite's `IndexedQueries`: `search` needs a fulltext index on exactly that attribute. */
function checkSearch(collection: CollectionRecord, queries: Query[]): string | null {
  const standard = checkQueries(fieldsOf(collection), queries);
  if (standard) return standard;
  for (const query of queries) {
    if (LOGICAL.has(query.method)) {
      const nested = checkSearch(collection, query.values as Query[]);
      if (nested) return nested;
    }
  }
  for (const query of queries) {
    if (query.method !== 'search' && query.method !== 'notSearch') continue;
    if (!fulltextIndexFor(collection, query.attribute))
      return `Searching by attribute "${query.attribute}" requires a fulltext index.`;
  }
  return null;
}

function fulltextIndexFor(collection: CollectionRecord, attribute: string) {
  return collection.indexes.find(
    (index) =>
      index.type === 'fulltext' &&
      index.status === 'available' &&
      index.attributes.length === 1 &&
      index.attributes[0] === attribute,
  );
}

/** Validates queries against a collection exactly as Appwrite's document list does. */
export function validateQueries(collection: CollectionRecord, queries: Query[]): void {
  const message = checkSearch(collection, queries);
  if (message) throw queryError(message);
}

/** Validates `getDocument`'s queries (only `select` is meaningful there). */
export function validateDocumentQueries(collection: CollectionRecord, queries: Query[]): void {
  const fields = fieldsOf(collection);
  for (const query of queries) {
    if (query.method !== 'select') throw queryError(`Invalid query method: ${query.method}`);
    const message = checkSelect(fields, query);
    if (message) throw queryError(`Invalid query: ${message}`);
  }
}

// ── grouping and compilation ────────────────────────────────────────────────

/** Queries grouped as Appwrite's `Query::groupByType` does (first limit/offset/cursor wins). */
export interface GroupedQueries {
  filters: Query[];
  selections: string[] | null;
  limit: number;
  offset: number;
  orderAttributes: string[];
  orderTypes: ('ASC' | 'DESC' | 'RANDOM')[];
  cursor: { id: string; direction: 'after' | 'before' } | null;
}

export function groupQueries(queries: Query[]): GroupedQueries {
  const grouped: GroupedQueries = {
    filters: [],
    selections: null,
    limit: DEFAULT_LIMIT,
    offset: 0,
    orderAttributes: [],
    orderTypes: [],
    cursor: null,
  };
  let limit: unknown = null;
  let offset: unknown = null;
  for (const query of queries) {
    switch (query.method) {
      case 'orderAsc':
      case 'orderDesc':
      case 'orderRandom':
        if (query.attribute) grouped.orderAttributes.push(query.attribute);
        grouped.orderTypes.push(
          query.method === 'orderAsc' ? 'ASC' : query.method === 'orderDesc' ? 'DESC' : 'RANDOM',
        );
        break;
      case 'limit':
        if (limit === null) limit = query.values[0] ?? null;
        break;
      case 'offset':
        if (offset === null) offset = query.values[0] ?? null;
        break;
      case 'cursorAfter':
      case 'cursorBefore':
        if (!grouped.cursor && typeof query.values[0] === 'string')
          grouped.cursor = {
            id: query.values[0],
            direction: query.method === 'cursorAfter' ? 'after' : 'before',
          };
        break;
      case 'select':
        grouped.selections = [
          ...(grouped.selections ?? []),
          ...query.values.filter((value): value is string => typeof value === 'string'),
        ];
        break;
      default:
        grouped.filters.push(query);
    }
  }
  if (limit !== null) grouped.limit = Number(limit);
  if (offset !== null) grouped.offset = Number(offset);
  return grouped;
}

/** A SQL fragment with its bound parameters. */
export interface Fragment {
  sql: string;
  params: SqlValue[];
}

function sqlValue(field: Field, value: unknown): SqlValue {
  switch (field.type) {
    case 'boolean':
      return value ? 1 : 0;
    case 'datetime':
      return normalizeDatetime(value);
    case 'id':
    case 'integer':
      if (typeof value === 'bigint')
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(value)
          : value;
      return typeof value === 'string' ? BigInt(value) : (value as number);
    case 'double':
      return typeof value === 'bigint' ? Number(value) : (value as number);
    default:
      return value as string;
  }
}

function globEscape(text: string): string {
  return text.replace(/[*?[]/g, (char) => `[${char}]`);
}

/** Appwrite's fulltext value (`getFulltextValue`) as an FTS5 query: words OR'ed, the last one a prefix. */
export function ftsQuery(value: string): string | null {
  const exact = value.startsWith('"') && value.endsWith('"') && value.length >= 2;
  const cleaned = value
    .replace(/[@+\-*)(<>~"]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!cleaned) return null;
  const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;
  if (exact) return quote(cleaned);
  const words = cleaned.split(' ');
  return words
    .map((word, i) => (i === words.length - 1 ? `${quote(word)}*` : quote(word)))
    .join(' OR ');
}

/** Compiles filter queries (validated) into a SQL condition on the documents table aliased `d`. */
export function compileFilters(collection: CollectionRecord, filters: Query[]): Fragment {
  const fields = fieldsOf(collection);
  const params: SqlValue[] = [];
  const compile = (query: Query): string => {
    if (query.method === 'and' || query.method === 'or') {
      const parts = (query.values as Query[]).map(compile);
      return `(${parts.join(query.method === 'and' ? ' AND ' : ' OR ')})`;
    }
    const field = fields.get(query.attribute)!;
    const column = `d.${columnOf(query.attribute)}`;
    const values = query.values.map((value) => sqlValue(field, value));
    const bind = (value: SqlValue) => {
      params.push(value);
      return '?';
    };
    switch (query.method) {
      case 'equal':
        if (values.length === 1) return `${column} = ${bind(values[0]!)}`;
        return `${column} IN (${values.map(bind).join(', ')})`;
      case 'notEqual':
        return `(${values.map((value) => `${column} != ${bind(value)}`).join(' OR ')})`;
      case 'lessThan':
        return `${column} < ${bind(values[0]!)}`;
      case 'lessThanEqual':
        return `${column} <= ${bind(values[0]!)}`;
      case 'greaterThan':
        return `${column} > ${bind(values[0]!)}`;
      case 'greaterThanEqual':
        return `${column} >= ${bind(values[0]!)}`;
      case 'between':
        return `${column} BETWEEN ${bind(values[0]!)} AND ${bind(values[1]!)}`;
      case 'notBetween':
        return `${column} NOT BETWEEN ${bind(values[0]!)} AND ${bind(values[1]!)}`;
      case 'isNull':
        return `${column} IS NULL`;
      case 'isNotNull':
        return `${column} IS NOT NULL`;
      case 'startsWith':
        return `${column} GLOB ${bind(`${globEscape(String(values[0]))}*`)}`;
      case 'notStartsWith':
        return `${column} NOT GLOB ${bind(`${globEscape(String(values[0]))}*`)}`;
      case 'endsWith':
        return `${column} GLOB ${bind(`*${globEscape(String(values[0]))}`)}`;
      case 'notEndsWith':
        return `${column} NOT GLOB ${bind(`*${globEscape(String(values[0]))}`)}`;
      case 'regex':
        return `${column} REGEXP ${bind(String(values[0]))}`;
      case 'search':
      case 'notSearch': {
        const index = fulltextIndexFor(collection, query.attribute)!;
        const match = ftsQuery(String(values[0]));
        const negate = query.method === 'notSearch';
        if (match === null) return negate ? '1' : '0';
        const table = ftsTableOf(collection, index);
        return `d._seq ${negate ? 'NOT IN' : 'IN'} (SELECT rowid FROM "${table}" WHERE "${table}" MATCH ${bind(match)})`;
      }
      case 'contains':
      case 'containsAny':
      case 'containsAll':
      case 'notContains': {
        if (!field.array) {
          const parts = values.map((value) => `instr(${column}, ${bind(value)}) > 0`);
          return query.method === 'notContains'
            ? `(${parts.map((part) => `NOT ${part}`).join(' AND ')})`
            : `(${parts.join(' OR ')})`;
        }
        const list = values.map(bind).join(', ');
        if (query.method === 'containsAll') {
          const distinct = new Set(values.map((value) => String(value))).size;
          return `(SELECT COUNT(DISTINCT value) FROM json_each(${column}) WHERE value IN (${list})) = ${distinct}`;
        }
        const exists = `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value IN (${list}))`;
        return query.method === 'notContains'
          ? `(${column} IS NOT NULL AND NOT ${exists})`
          : exists;
      }
      default:
        throw queryError(`Invalid query method: ${query.method}`);
    }
  };
  const parts = filters.map(compile);
  return { sql: parts.length ? parts.join(' AND ') : '', params };
}

/** The ORDER BY and cursor condition of a list, as Appwrite's SQL adapter builds them. */
export interface Ordering {
  orderBy: string;
  /** Attributes whose cursor values are needed (in order). */
  attributes: string[];
  directions: ('ASC' | 'DESC' | 'RANDOM')[];
}

/**
 * Appwrite's ordering: the requested orders, then `$sequence` ascending as the tie-break unless
 * `$id` or `$sequence` is already ordered on; `cursorBefore` flips every direction (the page is
 * reversed afterwards).
 */
export function ordering(grouped: GroupedQueries): Ordering {
  const attributes = [...grouped.orderAttributes];
  if (!attributes.includes('$id') && !attributes.includes('$sequence'))
    attributes.push('$sequence');
  const flip = grouped.cursor?.direction === 'before';
  const directions = attributes.map((_, i) => {
    const type = grouped.orderTypes[i] ?? 'ASC';
    if (type === 'RANDOM') return type;
    return flip ? (type === 'ASC' ? 'DESC' : 'ASC') : type;
  });
  const orderBy = attributes
    .map((attribute, i) =>
      directions[i] === 'RANDOM' ? 'random()' : `d.${columnOf(attribute)} ${directions[i]}`,
    )
    .join(', ');
  return { orderBy, attributes, directions };
}

/**
 * The keyset condition after (or before) the cursor document: for each order attribute, the
 * earlier ones equal and this one past the cursor's value.
 */
export function cursorCondition(order: Ordering, cursorValues: Map<string, SqlValue>): Fragment {
  const params: SqlValue[] = [];
  const { attributes, directions } = order;
  if (attributes.length === 1 && attributes[0] === '$sequence') {
    params.push(cursorValues.get('$sequence')!);
    return { sql: `d._seq ${directions[0] === 'DESC' ? '<' : '>'} ?`, params };
  }
  const branches: string[] = [];
  for (let i = 0; i < attributes.length; i++) {
    if (directions[i] === 'RANDOM') continue;
    const conditions: string[] = [];
    for (let j = 0; j < i; j++) {
      if (directions[j] === 'RANDOM') continue;
      conditions.push(`d.${columnOf(attributes[j]!)} = ?`);
      params.push(cursorValues.get(attributes[j]!)!);
    }
    conditions.push(`d.${columnOf(attributes[i]!)} ${directions[i] === 'DESC' ? '<' : '>'} ?`);
    params.push(cursorValues.get(attributes[i]!)!);
    branches.push(`(${conditions.join(' AND ')})`);
  }
  if (!branches.length) return { sql: '', params };
  // Every branch implies this bound on the first order attribute; stated on its own it lets
  // SQLite seek the index to the cursor instead of scanning up to it.
  if (directions[0] !== 'RANDOM' && branches.length > 1) {
    params.unshift(cursorValues.get(attributes[0]!)!);
    return {
      sql: `(d.${columnOf(attributes[0]!)} ${directions[0] === 'DESC' ? '<=' : '>='} ? AND (${branches.join(' OR ')}))`,
      params,
    };
  }
  return { sql: `(${branches.join(' OR ')})`, params };
}
