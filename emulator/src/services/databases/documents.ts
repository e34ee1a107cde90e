import type { StatementSync } from 'node:sqlite';
import type { Store } from '../../core/db.ts';
import { parseExactJson, rawJson } from '../../core/json.ts';
import { ApiError } from '../../core/errors.ts';
import type { Catalog } from './catalog.ts';
import type { Fragment } from './queries-sql.ts';
import type { SqlValue } from './structure.ts';
import {
  columnOf,
  tablesOf,
  type AttributeRecord,
  type CollectionRecord,
  type DatabaseRecord,
} from './types.ts';

/** A stored document as read from its table: system columns plus one per attribute. */
export type Row = Record<string, SqlValue>;

/** A document ready to be written. */
export interface PreparedDocument {
  uid: string;
  createdAt: string;
  updatedAt: string;
  /** Formatted permissions, e.g. `read("user:u1")`. */
  permissions: string[];
  /** SQL value of every attribute. */
  values: Map<string, SqlValue>;
}

/** A list page request, compiled. */
export interface ListRequest {
  filters: Fragment;
  /** Permission condition (documentSecurity without collection read), or null. */
  permission: Fragment | null;
  cursor: Fragment | null;
  orderBy: string;
  limit: number;
  offset: number;
  /** Attribute keys to read (null: all). */
  selections: string[] | null;
}

const PERMISSION = /^(read|create|update|delete)\("(.+)"\)$/;

const MAX_CACHED_STATEMENTS = 400;

function isOutOfRange(error: unknown): boolean {
  return (
    (error as { code?: string }).code === 'ERR_OUT_OF_RANGE' ||
    String((error as Error).message).includes('too large to be represented')
  );
}

function isUniqueViolation(error: unknown): boolean {
  return String((error as Error).message).includes('UNIQUE constraint failed');
}

/** Whether a stored value equals the value about to be written (`undefined`: not read, so no). */
function sameSqlValue(stored: SqlValue | undefined, value: SqlValue): boolean {
  if (stored === undefined) return false;
  if (stored === value) return true;
  // A bigint equals a number of the same integer value (a wide integer reads back as a bigint).
  return (
    (typeof stored === 'bigint' || typeof value === 'bigint') &&
    typeof stored !== 'string' &&
    typeof value !== 'string' &&
    String(stored) === String(value)
  );
}

/** A value read with bigints: a number when it is a safe integer. */
function fromBigInt(value: unknown): SqlValue {
  return typeof value === 'bigint' &&
    value >= BigInt(Number.MIN_SAFE_INTEGER) &&
    value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : (value as SqlValue);
}

/** Integers beyond 2^53 come back as bigints; others as numbers. */
function fromBigInts(row: Record<string, unknown>): Row {
  const out: Row = {};
  for (const key in row) out[key] = fromBigInt(row[key]);
  return out;
}

/** The system columns before the attributes in a projection: `_seq, _uid, _createdAt, _updatedAt, _permissions`. */
const PROJECTED_SYSTEM = 5;

/** `text` as an SQL string literal. */
function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The SQL of an attribute's value inside `json_object`, as {@link decodeValue} then
 * `JSON.stringify` write it; null for a float or an integer list (see {@link Documents.listJson}).
 * A list is stored as the JSON text `JSON.stringify` wrote; a boolean as 0 or 1.
 */
function jsonValueSql(attribute: AttributeRecord): string | null {
  const column = `d.${columnOf(attribute.key)}`;
  if (attribute.kind === 'float') return null;
  if (attribute.array) return attribute.kind === 'integer' ? null : `json(${column})`;
  if (attribute.kind === 'boolean')
    return `CASE WHEN ${column} IS NULL THEN NULL WHEN ${column} THEN json('true') ELSE json('false') END`;
  return column;
}

/** Replaces bigints by raw JSON numbers so `JSON.stringify` writes them exactly. */
function exact(value: unknown): unknown {
  if (typeof value === 'bigint') return rawJson(value.toString());
  if (Array.isArray(value) && value.some((item) => typeof item === 'bigint'))
    return value.map(exact);
  return value;
}

/**
 * The documents of collections: one SQL table each (see {@link Catalog}). Reads and writes use
 * prepared statements with bound parameters; a document's permissions are kept both on its row
 * (for output) and in the permissions side table (for permission-filtered lists).
 */
export class Documents {
  private readonly store: Store;
  private readonly catalog: Catalog;
  private readonly statements = new Map<string, StatementSync>();
  private statementsVersion = -1;

  constructor(store: Store, catalog: Catalog) {
    this.store = store;
    this.catalog = catalog;
  }

  private prepare(sql: string): StatementSync {
    if (this.statementsVersion !== this.catalog.version) {
      this.statements.clear();
      this.statementsVersion = this.catalog.version;
    }
    let statement = this.statements.get(sql);
    if (statement) {
      this.statements.delete(sql);
    } else {
      statement = this.store.sql.prepare(sql);
      if (this.statements.size >= MAX_CACHED_STATEMENTS)
        this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(sql, statement);
    return statement;
  }

  /** Runs a read; a row holding an integer beyond 2^53 makes it run again reading bigints. */
  private all(sql: string, params: SqlValue[]): Row[] {
    const statement = this.prepare(sql);
    try {
      return statement.all(...params) as Row[];
    } catch (error) {
      if (!isOutOfRange(error)) throw error;
      statement.setReadBigInts(true);
      try {
        return (statement.all(...params) as Record<string, unknown>[]).map(fromBigInts);
      } finally {
        statement.setReadBigInts(false);
      }
    }
  }

  /** `SELECT` columns for `selections` (null: every attribute). */
  private projection(collection: CollectionRecord, selections: string[] | null): string {
    const keys = this.selected(collection, selections).map(
      (attribute) => `d.${columnOf(attribute.key)}`,
    );
    return ['d._seq', 'd._uid', 'd._createdAt', 'd._updatedAt', 'd._permissions', ...keys].join(
      ', ',
    );
  }

  /** The stored row of document `$id`, or null (no permission check). */
  getRow(collection: CollectionRecord, uid: string): Row | null {
    const { docs } = tablesOf(collection);
    return (
      this.all(`SELECT ${this.projection(collection, null)} FROM "${docs}" AS d WHERE d._uid = ?`, [
        uid,
      ])[0] ?? null
    );
  }

  /** A page of documents. */
  list(collection: CollectionRecord, request: ListRequest): Row[] {
    const { sql, params } = this.listSql(collection, request);
    return this.all(sql, params);
  }

  /**
   * A page of documents as Appwrite's Document models ({@link documentModel}). The rows are read
   * as arrays, in the projection's order: node:sqlite makes no object per row (at 100,000 orders
   * read as the desk's first load reads them, 0.7 s of the backend's CPU against 0.9–2.1 s).
   */
  listModels(
    database: DatabaseRecord,
    collection: CollectionRecord,
    request: ListRequest,
  ): Record<string, unknown>[] {
    const { sql, params } = this.listSql(collection, request);
    const attributes = this.selected(collection, request.selections);
    const statement = this.prepare(sql);
    statement.setReturnArrays(true);
    let rows: SqlValue[][];
    try {
      try {
        rows = statement.all(...params) as unknown as SqlValue[][];
      } catch (error) {
        if (!isOutOfRange(error)) throw error;
        statement.setReadBigInts(true);
        try {
          rows = (statement.all(...params) as unknown as unknown[][]).map((row) =>
            row.map(fromBigInt),
          );
        } finally {
          statement.setReadBigInts(false);
        }
      }
    } finally {
      statement.setReturnArrays(false);
    }
    return rows.map((row) => {
      const model: Record<string, unknown> = {
        $id: row[1],
        $sequence: String(row[0]),
        $collectionId: collection.id,
        $databaseId: database.id,
        $createdAt: row[2],
        $updatedAt: row[3],
        $permissions: permissionsOf(row[4]!),
      };
      for (let i = 0; i < attributes.length; i++) {
        const attribute = attributes[i]!;
        model[attribute.key] = exact(decodeValue(attribute, row[PROJECTED_SYSTEM + i]!));
      }
      return model;
    });
  }

  /**
   * A page of documents as the JSON text (UTF-8) of each Document model, written by SQLite
   * (`json_object`) byte for byte as `JSON.stringify` writes {@link listModels}'s models; null
   * when an attribute read is one SQLite would write otherwise (a float: SQLite prints 15
   * significant digits, JavaScript the shortest exact form; an integer list). The desk's first
   * load reads 100,000 orders in pages of 5,000: building and stringifying the models was
   * ~100 ms of the backend's CPU per page, this ~50 (docs/benchmarks.md).
   */
  listJson(
    database: DatabaseRecord,
    collection: CollectionRecord,
    request: ListRequest,
  ): Uint8Array[] | null {
    const attributes = this.selected(collection, request.selections);
    const values = attributes.map(jsonValueSql);
    if (values.includes(null)) return null;
    const fields = [
      `'$id', d._uid`,
      `'$sequence', CAST(d._seq AS TEXT)`,
      `'$collectionId', ${sqlText(collection.id)}`,
      `'$databaseId', ${sqlText(database.id)}`,
      `'$createdAt', d._createdAt`,
      `'$updatedAt', d._updatedAt`,
      `'$permissions', json(d._permissions)`,
      ...attributes.map((attribute, i) => `${sqlText(attribute.key)}, ${values[i]}`),
    ];
    // As bytes (a BLOB): no string made of them here, they go out as they are.
    const projection = `CAST(json_object(${fields.join(', ')}) AS BLOB)`;
    const { sql, params } = this.listSql(collection, request, projection);
    const statement = this.prepare(sql);
    statement.setReturnArrays(true);
    try {
      return (statement.all(...params) as unknown as [Uint8Array][]).map((row) => row[0]);
    } finally {
      statement.setReturnArrays(false);
    }
  }

  /** The attributes `selections` reads (null: all), in the collection's order. */
  private selected(
    collection: CollectionRecord,
    selections: string[] | null,
  ): readonly AttributeRecord[] {
    return selections === null
      ? collection.attributes
      : collection.attributes.filter((attribute) => selections.includes(attribute.key));
  }

  /** The list query's SQL (for `EXPLAIN QUERY PLAN` in tests). */
  listSql(
    collection: CollectionRecord,
    request: ListRequest,
    projection = this.projection(collection, request.selections),
  ): { sql: string; params: SqlValue[] } {
    const { docs } = tablesOf(collection);
    const where: string[] = [];
    const params: SqlValue[] = [];
    for (const part of [request.cursor, request.filters, request.permission]) {
      if (part && part.sql) {
        where.push(`(${part.sql})`);
        params.push(...part.params);
      }
    }
    params.push(request.limit, request.offset);
    return {
      sql: `SELECT ${projection} FROM "${docs}" AS d${
        where.length ? ` WHERE ${where.join(' AND ')}` : ''
      } ORDER BY ${request.orderBy} LIMIT ? OFFSET ?`,
      params,
    };
  }

  /** How many documents match (at most `max`), as Appwrite's capped count. */
  count(
    collection: CollectionRecord,
    filters: Fragment,
    permission: Fragment | null,
    max: number,
  ): number {
    const { docs } = tablesOf(collection);
    const where: string[] = [];
    const params: SqlValue[] = [];
    for (const part of [filters, permission]) {
      if (part && part.sql) {
        where.push(`(${part.sql})`);
        params.push(...part.params);
      }
    }
    params.push(max);
    const row = this.prepare(
      `SELECT COUNT(1) AS n FROM (SELECT 1 FROM "${docs}" AS d${
        where.length ? ` WHERE ${where.join(' AND ')}` : ''
      } LIMIT ?)`,
    ).get(...params) as { n: number };
    return Number(row.n);
  }

  /** The permission condition of a list: documents whose `read` roles include one of `roles`. */
  permissionCondition(collection: CollectionRecord, roles: readonly string[]): Fragment {
    const { perms } = tablesOf(collection);
    return {
      sql: `d._seq IN (SELECT _doc FROM "${perms}" WHERE _type = 'read' AND _role IN (${roles
        .map(() => '?')
        .join(', ')}))`,
      params: [...roles],
    };
  }

  private insertSql(collection: CollectionRecord): string {
    const columns = collection.attributes.map((attribute) => columnOf(attribute.key));
    return `INSERT INTO "${tablesOf(collection).docs}" (_uid, _createdAt, _updatedAt, _permissions${
      columns.length ? `, ${columns.join(', ')}` : ''
    }) VALUES (?, ?, ?, ?${', ?'.repeat(columns.length)})`;
  }

  private writePermissions(collection: CollectionRecord, seq: number, permissions: string[]): void {
    const insert = this.prepare(
      `INSERT OR IGNORE INTO "${tablesOf(collection).perms}" (_type, _role, _doc) VALUES (?, ?, ?)`,
    );
    for (const permission of permissions) {
      const match = PERMISSION.exec(permission);
      if (match) insert.run(match[1]!, match[2]!, seq);
    }
  }

  /**
   * Inserts documents in one transaction (all or none) and returns their rows. A duplicate `$id`
   * or a unique index violation is `document_already_exists`.
   */
  insert(collection: CollectionRecord, documents: PreparedDocument[]): Row[] {
    const insert = this.prepare(this.insertSql(collection));
    const rows: Row[] = [];
    let current: PreparedDocument | null = null;
    try {
      this.store.transaction(() => {
        for (const document of documents) {
          current = document;
          const params: SqlValue[] = [
            document.uid,
            document.createdAt,
            document.updatedAt,
            JSON.stringify(document.permissions),
          ];
          for (const attribute of collection.attributes)
            params.push(document.values.get(attribute.key) ?? null);
          const result = insert.run(...params);
          const seq = Number(result.lastInsertRowid);
          this.writePermissions(collection, seq, document.permissions);
          rows.push(this.rowOf(collection, seq, document));
        }
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError('document_already_exists', null, [
          (current as PreparedDocument | null)?.uid ?? '',
        ]);
      throw error;
    }
    return rows;
  }

  /**
   * Writes a document, and its permissions when they changed. With `previous` (the stored row),
   * only the columns whose value differs are set: an unchanged column then costs no index or
   * full-text index maintenance (an `UPDATE OF` trigger fires only for columns that are set).
   */
  update(
    collection: CollectionRecord,
    seq: number,
    document: PreparedDocument,
    permissionsChanged: boolean,
    previous?: Row,
  ): Row {
    const { docs, perms } = tablesOf(collection);
    const permissions = JSON.stringify(document.permissions);
    const assignments: string[] = [];
    const params: SqlValue[] = [];
    const set = (column: string, value: SqlValue, old: SqlValue | undefined) => {
      if (previous && sameSqlValue(old, value)) return;
      assignments.push(`${column} = ?`);
      params.push(value);
    };
    set('_createdAt', document.createdAt, previous?._createdAt);
    set('_updatedAt', document.updatedAt, previous?._updatedAt);
    set('_permissions', permissions, previous?._permissions);
    for (const attribute of collection.attributes)
      set(
        columnOf(attribute.key),
        document.values.get(attribute.key) ?? null,
        previous?.[attribute.key],
      );
    try {
      this.store.transaction(() => {
        if (assignments.length) {
          params.push(seq);
          this.prepare(`UPDATE "${docs}" SET ${assignments.join(', ')} WHERE _seq = ?`).run(
            ...params,
          );
        }
        if (permissionsChanged) {
          this.prepare(`DELETE FROM "${perms}" WHERE _doc = ?`).run(seq);
          this.writePermissions(collection, seq, document.permissions);
        }
      });
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError('document_already_exists', null, [document.uid]);
      throw error;
    }
    return this.rowOf(collection, seq, document);
  }

  delete(collection: CollectionRecord, seq: number): void {
    const { docs, perms } = tablesOf(collection);
    this.store.transaction(() => {
      this.prepare(`DELETE FROM "${docs}" WHERE _seq = ?`).run(seq);
      this.prepare(`DELETE FROM "${perms}" WHERE _doc = ?`).run(seq);
    });
  }

  /** Adds `delta` to a numeric attribute (null counts as 0) and touches `$updatedAt`. */
  increment(
    collection: CollectionRecord,
    seq: number,
    attribute: AttributeRecord,
    delta: number,
    updatedAt: string,
  ): void {
    const column = columnOf(attribute.key);
    this.prepare(
      `UPDATE "${tablesOf(collection).docs}" SET ${column} = COALESCE(${column}, 0) + ?, _updatedAt = ? WHERE _seq = ?`,
    ).run(delta, updatedAt, seq);
  }

  private rowOf(collection: CollectionRecord, seq: number, document: PreparedDocument): Row {
    const row: Row = {
      _seq: seq,
      _uid: document.uid,
      _createdAt: document.createdAt,
      _updatedAt: document.updatedAt,
      _permissions: JSON.stringify(document.permissions),
    };
    for (const attribute of collection.attributes)
      row[attribute.key] = document.values.get(attribute.key) ?? null;
    return row;
  }
}

/** A stored value as the API returns it (bigints stay bigints; see {@link documentModel}). */
export function decodeValue(attribute: AttributeRecord, value: SqlValue): unknown {
  if (value === null || value === undefined) return null;
  if (attribute.array) {
    const text = String(value);
    return attribute.kind === 'integer' ? parseExactJson(text) : JSON.parse(text);
  }
  switch (attribute.kind) {
    case 'boolean':
      return value === 1 || value === 1n;
    case 'integer':
      return typeof value === 'bigint' ? value : Number(value);
    case 'float':
      return Number(value);
    default:
      return value;
  }
}

/** The attribute values of a row, as the API returns them (bigints stay bigints). */
export function decodeRow(collection: CollectionRecord, row: Row): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const attribute of collection.attributes) {
    if (attribute.key in row) values[attribute.key] = decodeValue(attribute, row[attribute.key]!);
  }
  return values;
}

/** The permissions stored on a row. */
export function rowPermissions(row: Row): string[] {
  return permissionsOf(row._permissions!);
}

/** Stored permissions (a JSON list) as a list; `[]`, the most common, without parsing. */
function permissionsOf(stored: SqlValue): string[] {
  const text = String(stored);
  return text === '[]' ? [] : (JSON.parse(text) as string[]);
}

/**
 * Appwrite's Document model: `$id`, `$sequence` (a string since response format 1.9.0, as the
 * pinned SDKs type it; the 1.8 OpenAPI spec says integer), `$collectionId`, `$databaseId`,
 * `$createdAt`, `$updatedAt`, `$permissions`, then the attributes read (all, or the selected ones).
 */
export function documentModel(
  database: DatabaseRecord,
  collection: CollectionRecord,
  row: Row,
): Record<string, unknown> {
  const model: Record<string, unknown> = {
    $id: row._uid,
    $sequence: String(row._seq),
    $collectionId: collection.id,
    $databaseId: database.id,
    $createdAt: row._createdAt,
    $updatedAt: row._updatedAt,
    $permissions: rowPermissions(row),
  };
  for (const attribute of collection.attributes) {
    if (!(attribute.key in row)) continue;
    model[attribute.key] = exact(decodeValue(attribute, row[attribute.key]!));
  }
  return model;
}
