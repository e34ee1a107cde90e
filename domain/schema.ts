/**
 * The one declarative description of each stored entity. From an {@link EntitySchema} come the
 * record type the app holds ({@link RecordOf}), the document type the backend stores
 * ({@link DocumentDataOf}), the conversions between them, the provisioning attributes and indexes
 * (scripts/schema.ts) and the fields of a list read ({@link listFields}). Adding a field is one
 * edit: a line in the entity's `fields`.
 */

import { ownString } from './json-integers.ts';

/** System fields every Appwrite document carries. */
export interface DocumentMeta {
  $id: string;
  $createdAt: string;
  $updatedAt: string;
  $sequence?: string | number;
  $permissions?: string[];
  $collectionId?: string;
  $databaseId?: string;
}

/** What every field may say besides its type. */
interface FieldBase {
  /** Required by the backend (the record never holds null for it). */
  readonly required: boolean;
  /** Read by the desk's lists (an order's list copy holds only these; see {@link listFields}). */
  readonly list?: boolean;
  /**
   * Few distinct values repeated across records (a currency, a staff member's id, the products
   * in an order's items): records read from documents share one copy of each string (enum
   * values always do).
   */
  readonly shared?: boolean;
}

/** One stored attribute: how the backend keeps it, and what the app holds for it. */
export type FieldSpec =
  | (FieldBase & {
      readonly type: 'string';
      readonly size: number;
      readonly default?: string;
      /** What the record holds when the document has no value (not provisioned). */
      readonly fallback?: string;
    })
  | (FieldBase & { readonly type: 'email' })
  | (FieldBase & {
      readonly type: 'enum';
      readonly elements: readonly string[];
      readonly default?: string;
    })
  | (FieldBase & {
      readonly type: 'integer';
      readonly min?: number;
      readonly max?: number;
      readonly default?: number;
    })
  | (FieldBase & { readonly type: 'boolean'; readonly default?: boolean })
  /** A point in time: an ISO string in the document, epoch milliseconds in the record. */
  | (FieldBase & { readonly type: 'datetime' })
  /** JSON in a string attribute of `size`; `fallback` when absent or unreadable. */
  | (FieldBase & { readonly type: 'json'; readonly size: number; readonly fallback: unknown });

/** Options every field builder takes. */
interface FieldOptions {
  readonly required?: boolean;
  readonly list?: boolean;
  readonly shared?: boolean;
}

/** A builder called without options. */
type NoOptions = Record<never, never>;

type Required<O> = O extends { required: true } ? true : false;
type Built<T, O> = T & Omit<O, 'required'> & { readonly required: Required<O> };

function build<T extends object, O extends FieldOptions>(base: T, options: O): Built<T, O> {
  return { ...base, ...options, required: options.required === true } as Built<T, O>;
}

/** Field builders: `text(80, { required: true, list: true })`, `integer({ min: 0, default: 0 })`, … */
export const field = {
  text<const O extends FieldOptions & { default?: string; fallback?: string } = NoOptions>(
    size: number,
    options: O = {} as O,
  ) {
    return build({ type: 'string' as const, size }, options);
  },
  email<const O extends FieldOptions = NoOptions>(options: O = {} as O) {
    return build({ type: 'email' as const }, options);
  },
  enum<
    const E extends readonly string[],
    const O extends FieldOptions & { default?: E[number] } = NoOptions,
  >(elements: E, options: O = {} as O) {
    return build({ type: 'enum' as const, elements }, options);
  },
  integer<
    const O extends FieldOptions & { min?: number; max?: number; default?: number } = NoOptions,
  >(options: O = {} as O) {
    return build({ type: 'integer' as const }, options);
  },
  boolean<const O extends FieldOptions & { default?: boolean } = NoOptions>(options: O = {} as O) {
    return build({ type: 'boolean' as const }, options);
  },
  datetime<const O extends FieldOptions = NoOptions>(options: O = {} as O) {
    return build({ type: 'datetime' as const }, options);
  },
  /** JSON text; the record holds the parsed value, typed as `fallback` is. */
  json<T, const O extends FieldOptions = NoOptions>(
    size: number,
    fallback: T,
    options: O = {} as O,
  ) {
    return build({ type: 'json' as const, size, fallback }, options);
  },
};

/** An index of a collection, as Appwrite's index endpoint takes it. */
export interface IndexSpec {
  key: string;
  type: 'key' | 'unique' | 'fulltext';
  attributes: string[];
  orders?: ('asc' | 'desc')[];
}

/** The fields of an entity, in the order they are provisioned. */
export type FieldsSpec = Readonly<Record<string, FieldSpec>>;

/** One stored entity: its collection, its fields and the indexes its reads need. */
export interface EntitySchema<F extends FieldsSpec = FieldsSpec> {
  /** The collection id (see `COLLECTIONS`). */
  readonly collection: string;
  /** A human name (the collection's name on the backend). */
  readonly name: string;
  readonly fields: F;
  readonly indexes: readonly IndexSpec[];
  /** `fields` as a list (fixed order), for the conversions. */
  readonly entries: readonly (readonly [string, FieldSpec])[];
}

/** Describes an entity (see the module comment). */
export function entity<const F extends FieldsSpec>(
  collection: string,
  name: string,
  fields: F,
  indexes: readonly IndexSpec[] = [],
): EntitySchema<F> {
  return { collection, name, fields, indexes, entries: Object.entries(fields) };
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The value a record holds for a field (before null). */
type RecordValue<F> = F extends { type: 'enum'; elements: readonly (infer E)[] }
  ? E
  : F extends { type: 'integer' | 'datetime' }
    ? number
    : F extends { type: 'boolean' }
      ? boolean
      : F extends { type: 'json'; fallback: infer J }
        ? J
        : string;

/** The value a document holds for a field (before null). */
type DocumentValue<F> = F extends { type: 'enum'; elements: readonly (infer E)[] }
  ? E
  : F extends { type: 'integer' }
    ? number
    : F extends { type: 'boolean' }
      ? boolean
      : string;

type HasValue<F, Extra extends string> = F extends { required: true }
  ? true
  : keyof F & ('default' | Extra) extends never
    ? false
    : true;

/**
 * The record the app holds for an entity: `id`, `createdAt`, `updatedAt` (epoch ms) and every
 * field, datetimes as epoch ms, JSON parsed; a field without a value is `null`, never missing.
 */
export type RecordOf<S extends EntitySchema> = Simplify<
  { id: string; createdAt: number; updatedAt: number } & {
    -readonly [K in keyof S['fields']]: HasValue<S['fields'][K], 'fallback'> extends true
      ? RecordValue<S['fields'][K]>
      : RecordValue<S['fields'][K]> | null;
  }
>;

/** The attributes of a document of an entity as the backend stores them. */
export type DocumentDataOf<S extends EntitySchema> = Simplify<{
  -readonly [K in keyof S['fields']]: HasValue<S['fields'][K], never> extends true
    ? DocumentValue<S['fields'][K]>
    : DocumentValue<S['fields'][K]> | null;
}>;

/** A document of an entity as the SDK returns it. */
export type DocumentOf<S extends EntitySchema> = DocumentMeta & DocumentDataOf<S>;

/** Parses an ISO date (or null) to epoch milliseconds (or null). */
export function parseTime(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const ms = timeMs(value);
  return Number.isNaN(ms) ? null : ms;
}

/** `Date.parse`, with Appwrite's own form read from its digits ({@link appwriteTimeMs}). */
function timeMs(value: string): number {
  return appwriteTimeMs(value) ?? Date.parse(value);
}

/** Each separator's position and code unit in Appwrite's times, `2026-11-28T21:58:14.360+00:00`. */
const TIME_SEPARATORS = [4, 45, 7, 45, 10, 84, 13, 58, 16, 58, 19, 46, 23, 43, 26, 58];
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The epoch milliseconds of a time in the one form Appwrite writes (UTC, milliseconds, `+00:00`),
 * read from its digits: three times faster than `Date.parse`, which a snapshot of 100,000 orders
 * would call half a million times. Null for any other text, or a field out of its range (left to
 * `Date.parse`).
 */
function appwriteTimeMs(value: string): number | null {
  if (value.length !== 29) return null;
  for (let i = 0; i < TIME_SEPARATORS.length; i += 2)
    if (value.charCodeAt(TIME_SEPARATORS[i]!) !== TIME_SEPARATORS[i + 1]) return null;
  const year = twoDigits(value, 0) * 100 + twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  const hour = twoDigits(value, 11);
  const minute = twoDigits(value, 14);
  const second = twoDigits(value, 17);
  const ms = twoDigits(value, 20) * 10 + digit(value, 22);
  const offset = twoDigits(value, 24) * 100 + twoDigits(value, 27);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  if (
    !(year >= 1000 && month >= 1 && month <= 12 && day >= 1) ||
    !(day <= DAYS_IN_MONTH[month - 1]! + leap && hour <= 23 && minute <= 59 && second <= 59) ||
    !(ms >= 0 && offset === 0)
  )
    return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, ms);
}

/** The number of the two digits at `at`, or NaN when either is not a digit. */
function twoDigits(value: string, at: number): number {
  return digit(value, at) * 10 + digit(value, at + 1);
}

function digit(value: string, at: number): number {
  const code = value.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : NaN;
}

/** Formats epoch milliseconds (or null) as Appwrite's ISO form, or null. */
export function formatTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/**
 * A JSON field's text as its value: `fallback` when it is not a string, does not parse, or is not
 * an object or list of the fallback's kind (a list for a list).
 */
export function parseJson(text: unknown, fallback: unknown): unknown {
  if (typeof text !== 'string') return fallback;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' &&
      value !== null &&
      Array.isArray(value) === Array.isArray(fallback)
      ? value
      : fallback;
  } catch {
    return fallback;
  }
}

/** The value a required field holds when a document lacks it (a list copy's placeholder). */
function placeholder(spec: FieldSpec): unknown {
  switch (spec.type) {
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'enum':
      return spec.elements[0];
    case 'datetime':
      return null;
    case 'json':
      return spec.fallback;
    default:
      return '';
  }
}

/** Reads one record from one document. */
type Reader = (doc: DocumentMeta) => Record<string, unknown>;

/** Distinct strings kept by {@link shareString} (bounded: past it, strings are kept as read). */
const SHARED_MAX = 50_000;
const sharedStrings = new Map<string, string>();

/**
 * One copy of a repeated string: the first one read of that value, as a string of its own
 * ({@link ownString}, made once per value, not per read). Each response is parsed into strings
 * of its own, so without this every record holds its own copy of `"eur"`, `"fulfilled"` or a
 * staff member's id.
 */
export function shareString<T>(value: T): T {
  if (typeof value !== 'string') return value;
  const held = sharedStrings.get(value);
  if (held !== undefined) return held as T;
  const own = ownString(value);
  if (sharedStrings.size < SHARED_MAX) sharedStrings.set(own, own);
  return own;
}

/** A parsed JSON value with its strings (in arrays and objects) shared; in place, when parsed. */
function shareJson(value: unknown, fallback: unknown): unknown {
  if (value === fallback || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      value[i] = typeof item === 'string' ? shareString(item) : shareJson(item, undefined);
    }
    return value;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    const item = object[key];
    object[key] = typeof item === 'string' ? shareString(item) : shareJson(item, undefined);
  }
  return value;
}

/** Distinct texts kept by {@link parseShared} (bounded: past it, each text is parsed as read). */
const SHARED_JSON_MAX = 20_000;
const sharedJson = new Map<string, unknown>();

/**
 * Freezes `value` and everything in it, walking arrays and objects without allocating key lists
 * (it runs for every record of every realtime event); returns `value`.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) for (const item of value as unknown[]) deepFreeze(item);
  else for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

/**
 * A shared JSON field (an order's items) read once per distinct text: records with the same text
 * hold the same value, frozen (a record never changes its fields' values: it is replaced). At
 * 100,000 seeded orders there are ~16,000 distinct item lists: parsing, freezing and keeping one
 * array per order was the largest part of a snapshot's conversion and of its garbage.
 */
function parseShared(text: unknown, fallback: unknown): unknown {
  if (typeof text !== 'string') return fallback;
  const held = sharedJson.get(text);
  if (held !== undefined) return held;
  const value = shareJson(parseJson(text, fallback), fallback);
  if (value === fallback) return value;
  deepFreeze(value);
  if (sharedJson.size < SHARED_JSON_MAX) sharedJson.set(ownString(text), value);
  return value;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Compiles the reader of an entity's records: one function returning one object literal with
 * every key, so all records share one shape. Built from the schema's own keys (checked to be
 * identifiers), never from data. A loop assigning keys one by one makes each order 2–3× slower to
 * convert, and the snapshot converts 100,000 of them on the page's main thread.
 */
function compileReader(schema: EntitySchema, copy: 'whole' | 'list'): Reader {
  const absent: unknown[] = [];
  const parts = ['id: d.$id', 'createdAt: ms(d.$createdAt)', 'updatedAt: ms(d.$updatedAt)'];
  for (const [key, spec] of schema.entries) {
    if (!IDENTIFIER.test(key)) throw new Error(`Field name "${key}" is not an identifier.`);
    const i = absent.length;
    absent.push(absentValue(spec));
    const shared = spec.shared === true || spec.type === 'enum';
    const value =
      copy === 'list' && spec.list !== true
        ? `a[${i}]`
        : spec.type === 'datetime'
          ? `t(d.${key})`
          : spec.type === 'json'
            ? shared
              ? `sj(d.${key}, a[${i}])`
              : `j(d.${key}, a[${i}])`
            : shared
              ? `s(d.${key} ?? a[${i}])`
              : `d.${key} ?? a[${i}]`;
    parts.push(`${key}: ${value}`);
  }
  const make = new Function(
    't',
    'j',
    'a',
    's',
    'sj',
    'ms',
    `return (d) => ({ ${parts.join(', ')} });`,
  ) as (
    time: typeof parseTime,
    json: typeof parseJson,
    absent: unknown[],
    share: typeof shareString,
    readShared: typeof parseShared,
    systemTime: typeof timeMs,
  ) => Reader;
  return make(parseTime, parseJson, absent, shareString, parseShared, timeMs);
}

/** What a record holds for a field its document lacks (see {@link recordFromDocument}). */
function absentValue(spec: FieldSpec): unknown {
  if (spec.type === 'json') return spec.fallback;
  if (spec.type === 'datetime') return null;
  if ('default' in spec && spec.default !== undefined) return spec.default;
  if (spec.type === 'string' && spec.fallback !== undefined) return spec.fallback;
  return spec.required ? placeholder(spec) : null;
}

const readers = new WeakMap<EntitySchema, Record<'whole' | 'list', Reader>>();

function readerFor(schema: EntitySchema, copy: 'whole' | 'list'): Reader {
  let both = readers.get(schema);
  if (!both) {
    both = { whole: compileReader(schema, 'whole'), list: compileReader(schema, 'list') };
    readers.set(schema, both);
  }
  return both[copy];
}

/**
 * Converts a document of `schema` into its record (see {@link RecordOf}). A field the document
 * lacks gets its default, else its fallback, else null (or, when required, a placeholder: `0`,
 * `''`, `false`, the first enum element). With `copy: 'list'` only the fields marked `list` are
 * read and every other field holds that placeholder (a list copy read with `Query.select`).
 */
export function recordFromDocument<S extends EntitySchema>(
  schema: S,
  doc: DocumentMeta,
  copy: 'whole' | 'list' = 'whole',
): RecordOf<S> {
  const record = readerFor(schema, copy)(doc);
  return record as RecordOf<S>;
}

/**
 * Converts a record (or part of one) into document attributes: datetimes as ISO strings, JSON
 * as text; `id`, `createdAt`, `updatedAt` and anything that is not a field are left out.
 */
export function documentDataFrom<S extends EntitySchema>(
  schema: S,
  record: Partial<RecordOf<S>>,
): Partial<DocumentDataOf<S>> {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    const spec = schema.fields[key];
    if (spec === undefined) continue;
    if (spec.type === 'datetime') data[key] = formatTime(value as number | null);
    else if (spec.type === 'json') data[key] = JSON.stringify(value);
    else data[key] = value;
  }
  return data as Partial<DocumentDataOf<S>>;
}

/** The fields marked `list`: what a list read of the entity selects (with the system fields). */
export function listFields<S extends EntitySchema>(schema: S): (keyof S['fields'] & string)[] {
  return schema.entries.filter(([, spec]) => spec.list === true).map(([key]) => key);
}

/** The fields of one type, e.g. the datetimes (compared as times by queries). */
export function fieldsOfType(schema: EntitySchema, type: FieldSpec['type']): string[] {
  return schema.entries.filter(([, spec]) => spec.type === type).map(([key]) => key);
}
