import type { Backend } from '../../backend.ts';
import type { Change } from '../../events.ts';
import type { Identity } from '../../core/auth/roles.ts';
import { ApiError, invalidParam } from '../../core/errors.ts';
import { assertCallerMaySet, rolesFor, rolesIn, type Permission } from '../../core/permissions.ts';
import type { Query } from '../../core/queries.ts';
import { formatDate, now } from '../../core/time.ts';
import { Catalog } from './catalog.ts';
import {
  decodeRow,
  documentModel,
  Documents,
  rowPermissions,
  type ListRequest,
  type PreparedDocument,
  type Row,
} from './documents.ts';
import {
  checkCursor,
  compileFilters,
  COUNT_LIMIT,
  cursorCondition,
  groupQueries,
  ordering,
  validateDocumentQueries,
  validateQueries,
} from './queries-sql.ts';
import { checkStructure, normalizeDatetime, type SqlValue } from './structure.ts';
import { Transactions } from './transactions.ts';
import { DOCUMENT_PERMISSIONS, type NewDocument } from './types.ts';
import {
  columnOf,
  type AttributeRecord,
  type CollectionRecord,
  type DatabaseRecord,
} from './types.ts';

/** Documents a bulk answer lists (and events it publishes), as Appwrite's `APP_LIMIT_DATABASE_BATCH`. */
export const BULK_RESPONSE_LIMIT = 100;

/** A change to a document, as published (or captured by {@link DatabasesStore.captureChanges}). */
export type DocumentChange = Extract<Change, { resource: 'document' }>;

/** What a bulk write did: how many documents, the first 100 of them, and every id. */
export interface BulkResult {
  total: number;
  documents: Record<string, unknown>[];
  ids: string[];
}

/** Keys Appwrite always drops from document data. */
const ALWAYS_REMOVED = ['$sequence', '$databaseId', '$collectionId', '$collection', '$tenant'];

/** Who is calling, as permission checks see it: roles include `any`, as in Appwrite's Authorization. */
export interface Caller {
  isKey: boolean;
  userId: string | null;
  roles: Set<string>;
}

/** The {@link Caller} of an identity. */
export function callerOf(identity: Identity): Caller {
  return {
    isKey: identity.kind === 'key',
    userId: identity.kind === 'user' ? identity.user.id : null,
    roles: new Set(['any', ...identity.roles]),
  };
}

/** Whether any of `granted` is one of the caller's roles. */
function granted(caller: Caller, roles: readonly string[]): boolean {
  for (const role of roles) if (caller.roles.has(role)) return true;
  return false;
}

/** PHP's `json_encode` (escapes `/`). */
function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}

/** utopia-php/database's Authorization description for a refused `action`. */
function authorizationMessage(action: string, roles: readonly string[], caller: Caller): string {
  if (roles.length === 0) return `No permissions provided for action '${action}'`;
  return `Missing "${action}" permission for role "${roles[roles.length - 1]}". Only "${phpJson([
    ...caller.roles,
  ])}" scopes are allowed and "${phpJson(roles)}" was given.`;
}

/** The collection a document request is about, and who makes it. */
export interface DocumentTarget {
  database: DatabaseRecord;
  collection: CollectionRecord;
  caller: Caller;
}

function parsed(permissions: readonly string[]): Permission[] {
  return permissions.map((permission) => {
    const match = /^(\w+)\("(.+)"\)$/.exec(permission)!;
    return { type: match[1] as Permission['type'], role: match[2]! };
  });
}

/** Attribute data without the keys Appwrite drops (`$createdAt`/`$updatedAt` too, for non-keys). */
function attributeData(data: Record<string, unknown>, caller: Caller): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === '$id' || key === '$permissions' || ALWAYS_REMOVED.includes(key)) continue;
    if (!caller.isKey && (key === '$createdAt' || key === '$updatedAt')) continue;
    out[key] = value;
  }
  return out;
}

/** Permissions of a new document: given ones, or read/update/delete for the calling user. */
function newDocumentPermissions(permissions: string[] | null, caller: Caller): string[] {
  if (permissions !== null) return permissions;
  if (!caller.userId || caller.isKey) return [];
  return DOCUMENT_PERMISSIONS.map((type) => `${type}("user:${caller.userId}")`);
}

/** Refuses permissions for roles the caller does not have (API keys may set any). */
export function assertMaySet(permissions: string[], caller: Caller): void {
  if (caller.isKey) return;
  assertCallerMaySet(
    parsed(permissions),
    new Set([...caller.roles].filter((role) => role !== 'any')),
  );
}

/** Whether the caller may `type` the document (collection permission, or document's with documentSecurity). */
function allowed(
  caller: Caller,
  collection: CollectionRecord,
  permissions: readonly string[],
  type: 'read' | 'update' | 'delete',
): boolean {
  if (caller.isKey) return true;
  if (granted(caller, rolesFor(collection.permissions, type))) return true;
  return collection.documentSecurity && granted(caller, rolesIn(permissions, type));
}

/**
 * The `$updatedAt` of a change to a stored document: now, but always later than its previous
 * value. Two writes within one millisecond then still get different times, so a writer that read
 * the first version cannot slip past the `X-Appwrite-Timestamp` check after the second (the
 * functions' optimistic concurrency relies on this; Appwrite itself has millisecond precision).
 */
function nextUpdatedAt(previous: unknown): string {
  const time = Date.now();
  const last = Date.parse(String(previous));
  return formatDate(Number.isNaN(last) || time > last ? time : last + 1);
}

/** `X-Appwrite-Timestamp`: refuses a change to a document updated after that time. */
function checkTimestamp(timestampHeader: string | undefined, row: Row): void {
  if (timestampHeader === undefined || timestampHeader === '') return;
  const timestamp = normalizeDatetime(timestampHeader);
  if (timestamp === null)
    throw new ApiError('general_argument_invalid', 'Invalid X-Appwrite-Timestamp header value');
  if (String(row._updatedAt) > timestamp) throw new ApiError('document_update_conflict');
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' || typeof b === 'bigint')
    return typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  return false;
}

const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

/**
 * The Databases service's store: the schema catalog, the documents, and the rules of document
 * access (permissions, document security, structure, `X-Appwrite-Timestamp`); every document
 * change is published as its event.
 */
export class DatabasesStore {
  readonly catalog: Catalog;
  readonly documents: Documents;
  /** Database transactions (staging, reads through them, commit and rollback). */
  readonly transactions: Transactions;
  private readonly backend: Backend;
  /** Where changes go while {@link captureChanges} runs (null: published). */
  private sink: DocumentChange[] | null = null;

  constructor(backend: Backend) {
    this.backend = backend;
    this.catalog = new Catalog(backend.store);
    this.documents = new Documents(backend.store, this.catalog);
    this.transactions = new Transactions(backend, this);
    // `regex` queries use SQLite's REGEXP operator, which calls this function.
    backend.store.sql.function('regexp', { deterministic: true }, (pattern, value) => {
      if (typeof pattern !== 'string' || typeof value !== 'string') return 0;
      try {
        return new RegExp(pattern).test(value) ? 1 : 0;
      } catch {
        return 0;
      }
    });
  }

  /**
   * The database `id`, or `database_not_found`. For document requests (`documentCaller` given) a
   * disabled database is hidden from callers without an API key, as on Appwrite.
   */
  database(id: string, documentCaller?: Caller): DatabaseRecord {
    const database = this.catalog.getDatabase(id);
    if (!database || (documentCaller && !database.enabled && !documentCaller.isKey))
      throw new ApiError('database_not_found', null, [id]);
    return database;
  }

  /** The collection `id` of `database`, or `collection_not_found` (disabled ones as for databases). */
  collection(database: DatabaseRecord, id: string, documentCaller?: Caller): CollectionRecord {
    const collection = this.catalog.getCollection(database.id, id);
    if (!collection || (documentCaller && !collection.enabled && !documentCaller.isKey))
      throw new ApiError('collection_not_found', null, [id]);
    return collection;
  }

  // ── documents ────────────────────────────────────────────────────────────

  /**
   * Runs `fn` and hands back the document changes it made instead of publishing them: a
   * transaction's replay publishes its own once committed (or none).
   */
  captureChanges<T>(fn: () => T): { result: T; changes: DocumentChange[] } {
    const outer = this.sink;
    const changes: DocumentChange[] = [];
    this.sink = changes;
    try {
      return { result: fn(), changes };
    } finally {
      this.sink = outer;
    }
  }

  /** Runs `fn` in one SQL transaction; the changes it publishes go out only if it succeeds. */
  private atomically<T>(fn: () => T): T {
    const { result, changes } = this.captureChanges(() => this.backend.store.transaction(fn));
    for (const change of changes) this.emit(change);
    return result;
  }

  /**
   * Checks documents about to be created (the caller may create, and may set their permissions)
   * and gives their final permissions (the defaults for the calling user when none are given).
   */
  checkCreate(
    target: DocumentTarget,
    sources: NewDocument[],
  ): (NewDocument & { permissions: string[] })[] {
    const { collection, caller } = target;
    return sources.map((source) => {
      const permissions = newDocumentPermissions(source.permissions, caller);
      assertMaySet(permissions, caller);
      if (!caller.isKey) {
        const roles = rolesFor(collection.permissions, 'create');
        if (!granted(caller, roles))
          throw new ApiError('user_unauthorized', authorizationMessage('create', roles, caller));
      }
      return { ...source, permissions };
    });
  }

  /** Creates documents, all or none (`document_already_exists` for a taken id or unique value). */
  createDocuments(target: DocumentTarget, sources: NewDocument[]): Record<string, unknown>[] {
    const { collection, caller } = target;
    const time = now();
    const staged = this.checkCreate(target, sources).map((source) => ({
      id: source.id,
      permissions: source.permissions,
      values: attributeData(source.data, caller),
    }));
    const prepared: PreparedDocument[] = staged.map((item) => {
      const checked = checkStructure(collection, item.values);
      return {
        uid: item.id,
        createdAt: checked.createdAt ?? time,
        updatedAt: checked.updatedAt ?? time,
        permissions: item.permissions,
        values: checked.values,
      };
    });
    const rows = this.documents.insert(collection, prepared);
    const models = rows.map((row) => documentModel(target.database, collection, row));
    for (const model of models) this.publish(target, model, 'create');
    return models;
  }

  /**
   * A list request compiled to SQL: cursor, filters, the caller's read permission, order, page
   * (every match when `unbounded` and no `limit` query is given).
   */
  private compileList(
    target: DocumentTarget,
    queries: Query[],
    unbounded: boolean,
  ): { request: ListRequest; reversed: boolean } {
    const { collection, caller } = target;
    const { documents } = this;
    const cursorQuery = queries.find(
      (query) => query.method === 'cursorAfter' || query.method === 'cursorBefore',
    );
    let cursorRow: Row | null = null;
    if (cursorQuery) {
      const message = checkCursor(cursorQuery);
      if (message) throw new ApiError('general_query_invalid', message);
      const id = cursorQuery.values[0] as string;
      cursorRow = documents.getRow(collection, id);
      if (!cursorRow)
        throw new ApiError(
          'general_cursor_not_found',
          `Document '${id}' for the 'cursor' value not found.`,
        );
    }
    validateQueries(collection, queries);
    let permission = null;
    if (!caller.isKey && !granted(caller, rolesFor(collection.permissions, 'read'))) {
      if (!collection.documentSecurity) throw new ApiError('user_unauthorized');
      permission = documents.permissionCondition(collection, [...caller.roles]);
    }
    const grouped = groupQueries(queries);
    const order = ordering(grouped);
    let cursor = null;
    if (cursorRow && grouped.cursor) {
      const values = new Map<string, SqlValue>();
      for (const attribute of order.attributes) {
        const column = columnOf(attribute);
        const value = cursorRow[column.startsWith('"') ? attribute : column];
        if (value === null || value === undefined)
          throw new ApiError(
            'database_query_order_null',
            `The order attribute '${attribute}' had a null value. Cursor pagination requires all documents order attribute values are non-null.`,
          );
        values.set(attribute, value);
      }
      cursor = cursorCondition(order, values);
    }
    const filters = compileFilters(collection, grouped.filters);
    const selections =
      grouped.selections === null || grouped.selections.includes('*') ? null : grouped.selections;
    const limited = queries.some((query) => query.method === 'limit');
    return {
      request: {
        filters,
        permission,
        cursor,
        orderBy: order.orderBy,
        limit: unbounded && !limited ? -1 : grouped.limit,
        offset: grouped.offset,
        selections,
      },
      reversed: grouped.cursor?.direction === 'before',
    };
  }

  /**
   * A page of documents the caller may read, and how many match (at most 5,000; 0 unless
   * `includeTotal`), as the JSON bytes of the answer: each document written by SQLite
   * (`Documents.listJson`), or stringified from its model when the collection's attributes need
   * it (the same bytes either way).
   */
  listDocumentsBody(target: DocumentTarget, queries: Query[], includeTotal: boolean): Buffer {
    const { collection, database } = target;
    const { request, reversed } = this.compileList(target, queries, false);
    const documents =
      this.documents.listJson(database, collection, request) ??
      this.documents
        .listModels(database, collection, request)
        .map((model) => Buffer.from(JSON.stringify(model)));
    if (reversed) documents.reverse();
    const total = includeTotal
      ? this.documents.count(collection, request.filters, request.permission, COUNT_LIMIT)
      : 0;
    const parts: Uint8Array[] = [Buffer.from(`{"total":${total},"documents":[`)];
    for (const [i, document] of documents.entries()) {
      if (i > 0) parts.push(COMMA);
      parts.push(document);
    }
    parts.push(CLOSE);
    return Buffer.concat(parts);
  }

  /** The ids of every document `queries` match (all, unless a `limit` query is given), in order. */
  private matchingIds(target: DocumentTarget, queries: Query[]): string[] {
    const { request, reversed } = this.compileList(target, queries, true);
    const rows = this.documents.list(target.collection, { ...request, selections: [] });
    if (reversed) rows.reverse();
    return rows.map((row) => String(row._uid));
  }

  /** A document the caller may read (only the `select`ed attributes), or `document_not_found`. */
  getDocument(target: DocumentTarget, id: string, queries: Query[]): Record<string, unknown> {
    const { database, collection, caller } = target;
    validateDocumentQueries(collection, queries);
    const row = this.documents.getRow(collection, id);
    if (!row || !allowed(caller, collection, rowPermissions(row), 'read'))
      throw new ApiError('document_not_found', null, [id]);
    const selections = groupQueries(queries).selections;
    if (selections && !selections.includes('*')) {
      for (const attribute of collection.attributes)
        if (!selections.includes(attribute.key)) delete row[attribute.key];
    }
    return documentModel(database, collection, row);
  }

  /**
   * Changes a document's data and/or permissions. An unchanged document needs only `read` and
   * keeps its `$updatedAt`; `timestampHeader` is `X-Appwrite-Timestamp`.
   */
  updateDocument(
    target: DocumentTarget,
    id: string,
    data: Record<string, unknown>,
    permissions: string[] | null,
    timestampHeader: string | undefined,
  ): Record<string, unknown> {
    const row = this.documents.getRow(target.collection, id);
    if (!row) throw new ApiError('document_not_found', null, [id]);
    const model = this.writeUpdate(target, row, data, permissions, timestampHeader);
    this.publish(target, model, 'update');
    return model;
  }

  /**
   * `updateDocuments`: the same change (`data`, and `permissions` unless null) to every document
   * `queries` match, all or none. Answers the first 100 documents and publishes their events, as
   * Appwrite does; `total` and `ids` cover every one. `timestampFor(id)` is the time after which a
   * change to that document is a conflict (a transaction's staging time), or undefined.
   */
  updateDocuments(
    target: DocumentTarget,
    queries: Query[],
    data: Record<string, unknown>,
    permissions: string[] | null,
    timestampFor?: (id: string) => string | undefined,
  ): BulkResult {
    return this.atomically(() => {
      const ids = this.matchingIds(target, queries);
      const documents: Record<string, unknown>[] = [];
      for (const id of ids) {
        const row = this.documents.getRow(target.collection, id)!;
        const model = this.writeUpdate(target, row, data, permissions, timestampFor?.(id));
        if (documents.length < BULK_RESPONSE_LIMIT) {
          documents.push(model);
          this.publish(target, model, 'update');
        }
      }
      return { total: ids.length, documents, ids };
    });
  }

  /** Writes a change to a stored document (see {@link updateDocument}); publishes nothing. */
  private writeUpdate(
    target: DocumentTarget,
    row: Row,
    data: Record<string, unknown>,
    permissions: string[] | null,
    timestampHeader: string | undefined,
  ): Record<string, unknown> {
    const { collection, caller } = target;
    const { documents } = this;
    if (permissions !== null) assertMaySet(permissions, caller);
    const oldPermissions = rowPermissions(row);
    const newPermissions = permissions ?? oldPermissions;
    const changes = attributeData(data, caller);
    const old = decodeRow(collection, row);
    let changed = !sameValue(oldPermissions, newPermissions);
    for (const [key, value] of Object.entries(changes)) {
      if (key === '$createdAt' || key === '$updatedAt') {
        if (value !== null && value !== row[`_${key.slice(1)}`]) changed = true;
      } else if (!sameValue(old[key], value)) changed = true;
    }
    if (!allowed(caller, collection, oldPermissions, changed ? 'update' : 'read'))
      throw new ApiError('user_unauthorized');
    checkTimestamp(timestampHeader, row);
    const checked = checkStructure(collection, { ...old, ...changes });
    return documentModel(
      target.database,
      collection,
      documents.update(
        collection,
        Number(row._seq),
        {
          uid: String(row._uid),
          createdAt: checked.createdAt ?? String(row._createdAt),
          updatedAt: changed
            ? (checked.updatedAt ?? nextUpdatedAt(row._updatedAt))
            : String(row._updatedAt),
          permissions: newPermissions,
          values: checked.values,
        },
        !sameValue(oldPermissions, newPermissions),
        row,
      ),
    );
  }

  /** Creates or replaces a document (attributes not sent keep their values, unless required). */
  upsertDocument(
    target: DocumentTarget,
    id: string,
    data: Record<string, unknown>,
    permissions: string[] | null,
    timestampHeader: string | undefined,
  ): { model: Record<string, unknown>; created: boolean } {
    const result = this.writeUpsert(target, id, data, permissions, timestampHeader);
    this.publish(target, result.model, 'upsert');
    return result;
  }

  /**
   * `upsertDocuments`: creates or replaces each document (at most 100), all or none; one
   * `.upsert` event each. `timestampFor` as for {@link updateDocuments}.
   */
  upsertDocuments(
    target: DocumentTarget,
    sources: NewDocument[],
    timestampFor?: (id: string) => string | undefined,
  ): BulkResult {
    return this.atomically(() => {
      const documents = sources.map((source) => {
        const { model } = this.writeUpsert(
          target,
          source.id,
          source.data,
          source.permissions,
          timestampFor?.(source.id),
        );
        this.publish(target, model, 'upsert');
        return model;
      });
      return {
        total: documents.length,
        documents,
        ids: documents.map((model) => model.$id as string),
      };
    });
  }

  /** Writes an upsert (see {@link upsertDocument}); publishes nothing. */
  private writeUpsert(
    target: DocumentTarget,
    id: string,
    data: Record<string, unknown>,
    permissions: string[] | null,
    timestampHeader: string | undefined,
  ): { model: Record<string, unknown>; created: boolean } {
    const { collection, caller } = target;
    const { documents } = this;
    const row = documents.getRow(collection, id);
    const finalPermissions =
      permissions ?? (row ? rowPermissions(row) : newDocumentPermissions(null, caller));
    assertMaySet(finalPermissions, caller);
    if (!caller.isKey) {
      const ok = row
        ? allowed(caller, collection, rowPermissions(row), 'update')
        : granted(caller, rolesFor(collection.permissions, 'create'));
      if (!ok) throw new ApiError('user_unauthorized');
    }
    const changes = attributeData(data, caller);
    const merged: Record<string, unknown> = {};
    if (row) {
      const old = decodeRow(collection, row);
      for (const attribute of collection.attributes)
        if (!attribute.required && !(attribute.key in changes))
          merged[attribute.key] = old[attribute.key];
      checkTimestamp(timestampHeader, row);
    }
    const checked = checkStructure(collection, { ...merged, ...changes });
    const time = now();
    const document: PreparedDocument = {
      uid: id,
      createdAt: checked.createdAt ?? (row ? String(row._createdAt) : time),
      updatedAt: checked.updatedAt ?? (row ? nextUpdatedAt(row._updatedAt) : time),
      permissions: finalPermissions,
      values: checked.values,
    };
    const stored = row
      ? documents.update(
          collection,
          Number(row._seq),
          document,
          !sameValue(rowPermissions(row), finalPermissions),
          row,
        )
      : documents.insert(collection, [document])[0]!;
    return { model: documentModel(target.database, collection, stored), created: !row };
  }

  /** Deletes a document the caller may delete. */
  deleteDocument(target: DocumentTarget, id: string, timestampHeader: string | undefined): void {
    const row = this.documents.getRow(target.collection, id);
    if (!row) throw new ApiError('document_not_found', null, [id]);
    this.publish(target, this.writeDelete(target, row, timestampHeader), 'delete');
  }

  /**
   * `deleteDocuments`: deletes every document `queries` match, all or none; answers and
   * publishes the first 100, as {@link updateDocuments}.
   */
  deleteDocuments(
    target: DocumentTarget,
    queries: Query[],
    timestampFor?: (id: string) => string | undefined,
  ): BulkResult {
    return this.atomically(() => {
      const ids = this.matchingIds(target, queries);
      const documents: Record<string, unknown>[] = [];
      for (const id of ids) {
        const row = this.documents.getRow(target.collection, id)!;
        const model = this.writeDelete(target, row, timestampFor?.(id));
        if (documents.length < BULK_RESPONSE_LIMIT) {
          documents.push(model);
          this.publish(target, model, 'delete');
        }
      }
      return { total: ids.length, documents, ids };
    });
  }

  /** Deletes a stored document (permission and timestamp checked); its last model. */
  private writeDelete(
    target: DocumentTarget,
    row: Row,
    timestampHeader: string | undefined,
  ): Record<string, unknown> {
    const { collection, caller } = target;
    if (!allowed(caller, collection, rowPermissions(row), 'delete'))
      throw new ApiError('user_unauthorized');
    checkTimestamp(timestampHeader, row);
    const model = documentModel(target.database, collection, row);
    this.documents.delete(collection, Number(row._seq));
    return model;
  }

  /**
   * `increment` / `decrement` of a numeric attribute: atomic, by `value` (> 0), refused past
   * `bound` (`max` going up, `min` going down).
   */
  changeCounter(
    target: DocumentTarget,
    id: string,
    key: string,
    delta: { direction: 1 | -1; value: number; bound: number | null },
  ): Record<string, unknown> {
    const { collection, caller } = target;
    const { direction, value, bound } = delta;
    if (value <= 0)
      throw new ApiError('general_argument_invalid', 'Value must be numeric and greater than 0');
    const attribute = this.numericAttribute(collection, key, value);
    const row = this.documents.getRow(collection, id);
    // Appwrite answers a missing document here with its "attribute not found" error.
    if (!row) throw new ApiError('attribute_not_found', null, [key]);
    if (!allowed(caller, collection, rowPermissions(row), 'update'))
      throw new ApiError('user_unauthorized');
    const next = Number(row[key] ?? 0) + direction * value;
    if (bound !== null && (direction === 1 ? next > bound : next < bound))
      throw new ApiError(
        'attribute_limit_exceeded',
        `databases "${key}" has reached the ${direction === 1 ? 'maximum' : 'minimum'} value of ${bound}`,
      );
    this.documents.increment(
      collection,
      Number(row._seq),
      attribute,
      direction * value,
      nextUpdatedAt(row._updatedAt),
    );
    const model = documentModel(
      target.database,
      collection,
      this.documents.getRow(collection, id)!,
    );
    this.publish(target, model, 'update');
    return model;
  }

  /** The attribute a counter changes: it exists, is a single number, and takes `value`. */
  private numericAttribute(
    collection: CollectionRecord,
    key: string,
    value: number,
  ): AttributeRecord {
    const attribute = collection.attributes.find((item) => item.key === key);
    if (!attribute) throw new ApiError('attribute_not_found', null, [key]);
    if ((attribute.kind !== 'integer' && attribute.kind !== 'float') || attribute.array)
      throw new ApiError('attribute_type_invalid', `databases "${key}" is not a number`);
    if (attribute.kind === 'integer' && !Number.isInteger(value))
      throw invalidParam('value', 'Value must be a valid integer');
    return attribute;
  }

  private publish(
    { collection }: DocumentTarget,
    model: Record<string, unknown>,
    action: DocumentChange['action'],
  ): void {
    this.emit({
      resource: 'document',
      action,
      collection,
      documentId: model.$id as string,
      permissions: model.$permissions as string[],
      payload: model,
    });
  }

  /** Publishes a change, or hands it to {@link captureChanges}. */
  private emit(change: DocumentChange): void {
    if (this.sink) this.sink.push(change);
    else this.backend.publish(change);
  }
}
