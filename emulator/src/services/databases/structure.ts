import { rawJson } from '../../core/json.ts';
import { normalizeDate } from '../../core/time.ts';
import { ApiError } from '../../core/errors.ts';
import type { AttributeRecord, CollectionRecord } from './types.ts';
import { codePoints } from '../../core/text.ts';

/** A value bound to SQLite. */
export type SqlValue = string | number | bigint | null;

/** Appwrite's integer limits: 64-bit attributes span PHP's int range. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
const INT32_MAX = 2147483647n;
/** MariaDB's datetime range, which Appwrite's validators report. */
const DATE_MIN_YEAR = 1000;
const DATE_MAX_YEAR = 9999;
const DATE_RANGE = 'between 1000-01-01 00:00:00 and 9999-12-31 23:59:59.';

/** Keys Appwrite's Structure validator knows besides the collection's attributes. */
const INTERNAL_KEYS = new Set([
  '$id',
  '$sequence',
  '$collection',
  '$tenant',
  '$permissions',
  '$createdAt',
  '$updatedAt',
]);

/**
 * PHP's `number_format($n)` (0 decimals, `,` thousands), as Appwrite's validator messages print
 * numbers: the value goes through a double first, so 2^63 − 1 prints as 9,223,372,036,854,775,808.
 */
export function numberFormat(value: number | bigint): string {
  const number = Number(value);
  if (!Number.isFinite(number)) return String(number);
  const rounded = Math.sign(number) * Math.round(Math.abs(number));
  const text = BigInt(rounded).toLocaleString('en-US');
  return Object.is(rounded, -0) || (rounded === 0 && number < 0) ? `-${text}` : text;
}

/**
 * Appwrite's datetime check (PHP `DateTime` plus MariaDB's year range), returning the value
 * in the stored form `2026-11-22T10:00:00.000+00:00`, or null when it is not a valid date.
 */
export function normalizeDatetime(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const year = /(?<!\d)(\d{4})(?!\d)/.exec(value);
  if (!year) return null;
  const number = Number(year[1]);
  if (number < DATE_MIN_YEAR || number > DATE_MAX_YEAR) return null;
  const normalized = normalizeDate(value.trim());
  if (!normalized) return null;
  const parsedYear = Number(normalized.slice(0, 4));
  return parsedYear >= DATE_MIN_YEAR && parsedYear <= DATE_MAX_YEAR ? normalized : null;
}

/** The datetime validator's description. */
export const DATETIME_MESSAGE = `Value must be valid date ${DATE_RANGE}`;

const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** PHP's `FILTER_VALIDATE_EMAIL`, approximately (local part ≤ 64, domain ≤ 253, a dotted domain). */
export function isEmail(value: string): boolean {
  const at = value.lastIndexOf('@');
  if (at < 1 || at > 64 || value.length - at - 1 > 253) return false;
  return EMAIL.test(value);
}

function textMessage(size: number): string {
  return size > 0
    ? `Value must be a valid string and no longer than ${size} chars`
    : 'Value must be a valid string';
}

/** Integer bits of an attribute: Appwrite uses 64-bit columns when max exceeds 2^31 − 1. */
export function integerBits(attribute: AttributeRecord): 32 | 64 {
  return attribute.size >= 8 ? 64 : 32;
}

function integerMessage(bits: 32 | 64): string {
  const half = 2 ** (bits - 1);
  return `Value must be a valid signed ${bits}-bit integer between ${numberFormat(-half)} and ${numberFormat(half - 1)}`;
}

function toBigInt(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  return null;
}

/** A checked value: its SQL form (or the JSON-able form for array elements), or a reason. */
type Checked = { ok: true; sql: SqlValue; json: unknown } | { ok: false; reason: string };

/**
 * Checks one (non-array) value against an attribute the way Appwrite's validators do, in their
 * order, and returns the first failing description.
 */
export function checkValue(attribute: AttributeRecord, value: unknown): Checked {
  switch (attribute.kind) {
    case 'string':
    case 'email':
    case 'enum': {
      if (typeof value !== 'string' || codePoints(value) > attribute.size)
        return { ok: false, reason: textMessage(attribute.size) };
      if (attribute.kind === 'email' && !isEmail(value))
        return { ok: false, reason: 'Value must be a valid email address' };
      if (attribute.kind === 'enum' && !attribute.elements.includes(value))
        return { ok: false, reason: `Value must be one of (${attribute.elements.join(', ')})` };
      return { ok: true, sql: value, json: value };
    }
    case 'integer': {
      const bits = integerBits(attribute);
      const big = toBigInt(value);
      const limit = bits === 64 ? INT64_MAX : INT32_MAX;
      if (big === null || big < -limit - 1n || big > limit)
        return { ok: false, reason: integerMessage(bits) };
      if (big < -limit)
        return {
          ok: false,
          reason: `Value must be a valid range between ${numberFormat(-limit)} and ${numberFormat(limit)}`,
        };
      const min = (attribute.min as bigint | null) ?? INT64_MIN;
      const max = (attribute.max as bigint | null) ?? INT64_MAX;
      if (big < min || big > max)
        return {
          ok: false,
          reason: `Value must be a valid range between ${numberFormat(min)} and ${numberFormat(max)}`,
        };
      const sql =
        big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(big)
          : big;
      return { ok: true, sql, json: sql };
    }
    case 'float': {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return { ok: false, reason: 'Value must be a valid float' };
      const min = (attribute.min as number | null) ?? -Number.MAX_VALUE;
      const max = (attribute.max as number | null) ?? Number.MAX_VALUE;
      if (value < min || value > max)
        return {
          ok: false,
          reason: `Value must be a valid range between ${numberFormat(min)} and ${numberFormat(max)}`,
        };
      return { ok: true, sql: value, json: value };
    }
    case 'boolean':
      if (typeof value !== 'boolean') return { ok: false, reason: 'Value must be a valid boolean' };
      return { ok: true, sql: value ? 1 : 0, json: value };
    case 'datetime': {
      const date = normalizeDatetime(value);
      if (date === null) return { ok: false, reason: DATETIME_MESSAGE };
      return { ok: true, sql: date, json: date };
    }
  }
}

/** Whether validation messages say "format" (attributes with a format) or "type". */
function label(attribute: AttributeRecord): string {
  return attribute.kind === 'string' ||
    attribute.kind === 'boolean' ||
    attribute.kind === 'datetime'
    ? 'type'
    : 'format';
}

function invalid(message: string): ApiError {
  return new ApiError('document_invalid_structure', `Invalid document structure: ${message}`);
}

/** Serializes array elements; integers beyond 2^53 are written exactly. */
function arrayJson(values: unknown[]): string {
  return JSON.stringify(values, (_key, item: unknown) =>
    typeof item === 'bigint' ? rawJson(item.toString()) : item,
  );
}

/** The result of {@link checkStructure}: SQL values of every attribute, and system dates. */
export interface CheckedDocument {
  values: Map<string, SqlValue>;
  createdAt?: string;
  updatedAt?: string;
}

/**
 * Appwrite's document Structure validation, in its order: defaults for missing values, then
 * "Missing required attribute", then "Unknown attribute", then each value in the order given.
 * `data` holds attribute values (for updates: the stored document merged with the changes) and
 * optionally `$createdAt`/`$updatedAt`. Returns the SQL value of every attribute.
 */
export function checkStructure(
  collection: CollectionRecord,
  data: Record<string, unknown>,
): CheckedDocument {
  const attributes = new Map(collection.attributes.map((attribute) => [attribute.key, attribute]));
  const doc: Record<string, unknown> = { ...data };
  for (const attribute of collection.attributes) {
    const value = doc[attribute.key];
    if ((value === undefined || value === null) && attribute.default !== null)
      doc[attribute.key] = attribute.default;
  }
  for (const attribute of collection.attributes) {
    const value = doc[attribute.key];
    if (attribute.required && (value === undefined || value === null))
      throw invalid(`Missing required attribute "${attribute.key}"`);
  }
  for (const key of Object.keys(doc)) {
    if (!attributes.has(key) && !INTERNAL_KEYS.has(key))
      throw invalid(`Unknown attribute: "${key}"`);
  }
  const result: CheckedDocument = { values: new Map() };
  for (const key of Object.keys(doc)) {
    const value = doc[key];
    if (key === '$createdAt' || key === '$updatedAt') {
      if (value === null || value === undefined || value === '') continue;
      const date = normalizeDatetime(value);
      if (date === null) throw invalid(`Attribute "${key}" has invalid type. ${DATETIME_MESSAGE}`);
      if (key === '$createdAt') result.createdAt = date;
      else result.updatedAt = date;
      continue;
    }
    const attribute = attributes.get(key);
    if (!attribute) continue;
    if (value === null || value === undefined) {
      result.values.set(key, null);
      continue;
    }
    if (attribute.array) {
      if (!attribute.required && Array.isArray(value) && value.length === 0) {
        result.values.set(key, '[]');
        continue;
      }
      if (!Array.isArray(value)) throw invalid(`Attribute "${key}" must be an array`);
      const items: unknown[] = [];
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item === null && !attribute.required) {
          items.push(null);
          continue;
        }
        const checked = checkValue(attribute, item);
        if (!checked.ok)
          throw invalid(
            `Attribute "${key}['${i}']" has invalid ${label(attribute)}. ${checked.reason}`,
          );
        items.push(checked.json);
      }
      result.values.set(key, arrayJson(items));
      continue;
    }
    const checked = checkValue(attribute, value);
    if (!checked.ok)
      throw invalid(`Attribute "${key}" has invalid ${label(attribute)}. ${checked.reason}`);
    result.values.set(key, checked.sql);
  }
  for (const attribute of collection.attributes)
    if (!result.values.has(attribute.key)) result.values.set(attribute.key, null);
  return result;
}
