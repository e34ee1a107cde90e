import type { Backend } from '../../backend.ts';
import { documentChannels, documentEvents } from '../../core/events.ts';
import { resolveId, uniqueId } from '../../core/ids.ts';
import {
  assertCallerMaySet,
  formatPermissions,
  parsePermissions,
  rolesFor,
  type Permission,
} from '../../core/permissions.ts';
import { formatDate, now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError, invalidParam } from '../../http/errors.ts';
import { bool } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import type { Route } from '../../http/router.ts';
import {
  decodeRow,
  documentModel,
  rolesIn,
  rowPermissions,
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
  parseQueries,
  validateDocumentQueries,
  validateQueries,
} from './queries.ts';
import {
  authorizationMessage,
  callerOf,
  collectionParam,
  databaseParam,
  databasesOf,
  granted,
  type Caller,
} from './service.ts';
import { checkStructure, normalizeDatetime, type SqlValue } from './structure.ts';
import { columnOf, type CollectionRecord, type DatabaseRecord } from './types.ts';

const DOCUMENT_PERMISSIONS = ['read', 'update', 'delete'] as const;
/** Appwrite's `APP_LIMIT_DATABASE_BATCH`: documents per bulk request on a self-hosted server. */
export const BATCH_LIMIT = 100;
const CUSTOM_ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;
const CUSTOM_ID_MESSAGE =
  "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, period, hyphen, and underscore. Can't start with a special char";
/** Keys Appwrite always drops from document data. */
const ALWAYS_REMOVED = ['$sequence', '$databaseId', '$collectionId', '$collection', '$tenant'];

interface Target {
  database: DatabaseRecord;
  collection: CollectionRecord;
  caller: Caller;
}

function target(ctx: RequestContext): Target {
  const database = databaseParam(ctx, true);
  return {
    database,
    collection: collectionParam(ctx, database, true),
    caller: callerOf(ctx.identity),
  };
}

/** Transactions are not implemented: refuse rather than apply the change outside one. */
function refuseTransaction(ctx: RequestContext): void {
  const id = ctx.input.transactionId;
  if (id !== undefined && id !== null && id !== '')
    throw new ApiError(
      'general_not_implemented',
      'Transactions are not supported by the local backend.',
    );
}

/** A JSON object param (an object, or a JSON string of one); a list becomes `{0: …}` as in PHP. */
function jsonObject(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalidParam(name, 'Value must be a valid JSON string');
    }
  }
  if (Array.isArray(parsed)) return Object.fromEntries(parsed.map((item, i) => [String(i), item]));
  if (typeof parsed !== 'object' || parsed === null)
    throw invalidParam(name, 'Value must be a valid JSON string');
  return parsed as Record<string, unknown>;
}

function documentsParam(value: unknown): Record<string, unknown>[] {
  if (value === undefined || value === null) return [];
  const message = `Value must a valid array no longer than ${BATCH_LIMIT} items and Value must be a valid JSON string`;
  if (!Array.isArray(value) || value.length > BATCH_LIMIT) throw invalidParam('documents', message);
  return value.map((item) => {
    try {
      return jsonObject(item, 'documents');
    } catch {
      throw invalidParam('documents', message);
    }
  });
}

/** Optional `permissions` param (null when absent), validated and with `write` expanded. */
function permissionsParam(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  return formatPermissions(parsePermissions(value, DOCUMENT_PERMISSIONS));
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

function assertMaySet(permissions: string[], caller: Caller): void {
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
function checkTimestamp(ctx: RequestContext, row: Row): void {
  const header = ctx.headers['x-appwrite-timestamp'];
  if (typeof header !== 'string' || header === '') return;
  const timestamp = normalizeDatetime(header);
  if (timestamp === null)
    throw new ApiError('general_argument_invalid', 'Invalid X-Appwrite-Timestamp header value');
  if (String(row._updatedAt) > timestamp) throw new ApiError('document_update_conflict');
}

/** Publishes a document event: roles are the collection's read roles plus the document's with documentSecurity. */
function publish(
  backend: Backend,
  { database, collection }: Target,
  model: Record<string, unknown>,
  action: string,
): void {
  const roles = new Set(rolesFor(collection.permissions, 'read'));
  if (collection.documentSecurity)
    for (const role of rolesIn(model.$permissions as string[], 'read')) roles.add(role);
  const id = model.$id as string;
  backend.bus.publish({
    events: documentEvents(database.id, collection.id, id, action),
    channels: documentChannels(database.id, collection.id, id, action),
    roles: [...roles],
    payload: model,
  });
}

function dataValues(collection: CollectionRecord, row: Row): Record<string, unknown> {
  return decodeRow(collection, row);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' || typeof b === 'bigint')
    return typeof a !== 'object' && typeof b !== 'object' && String(a) === String(b);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  return false;
}

// ── handlers ─────────────────────────────────────────────────────────────────

function createDocuments(ctx: RequestContext): Reply {
  refuseTransaction(ctx);
  const rawId = ctx.input.documentId;
  const documentId =
    rawId === undefined || rawId === null || rawId === '' ? '' : resolveId('documentId', rawId);
  const data = jsonObject(ctx.input.data, 'data');
  const permissions = permissionsParam(ctx.input.permissions);
  const list = documentsParam(ctx.input.documents);
  const hasData = Object.keys(data).length > 0;
  const hasDocuments = list.length > 0;
  if (!hasData && !hasDocuments) throw new ApiError('document_missing_data');
  if (hasData && hasDocuments)
    throw new ApiError(
      'general_bad_request',
      'You can only send one of the following parameters: data, documents',
    );
  if (hasData && !documentId)
    throw new ApiError(
      'document_missing_data',
      'Document ID is required when creating a single document.',
    );
  if (hasDocuments && documentId)
    throw new ApiError(
      'general_bad_request',
      'Param "documentId" is not allowed when creating multiple documents, set "$id" on each instead.',
    );
  if (hasDocuments && permissions !== null && permissions.length > 0)
    throw new ApiError(
      'general_bad_request',
      'Param "permissions" is disallowed when creating multiple documents, set "$permissions" on each instead',
    );
  if (hasDocuments && ctx.identity.kind !== 'key') throw new ApiError('general_unauthorized_scope');
  const where = target(ctx);
  const { collection, caller } = where;
  const sources = hasDocuments ? list : [data];
  const time = now();
  const staged = sources.map((source) => {
    let id = documentId;
    let documentPermissions = permissions;
    if (hasDocuments) {
      const rawDocumentId = source.$id ?? 'unique()';
      if (rawDocumentId === 'unique()') id = uniqueId();
      else if (typeof rawDocumentId === 'string' && CUSTOM_ID.test(rawDocumentId))
        id = rawDocumentId;
      else throw new ApiError('general_bad_request', CUSTOM_ID_MESSAGE);
      const rawPermissions = source.$permissions;
      documentPermissions = null;
      if (rawPermissions !== undefined && rawPermissions !== null) {
        try {
          documentPermissions = permissionsParam(rawPermissions);
        } catch (error) {
          throw new ApiError(
            'general_bad_request',
            (error as Error).message.replace(/^Invalid `permissions` param: /, ''),
          );
        }
      }
    }
    const finalPermissions = newDocumentPermissions(documentPermissions, caller);
    assertMaySet(finalPermissions, caller);
    if (!caller.isKey) {
      const roles = rolesFor(collection.permissions, 'create');
      if (!granted(caller, roles))
        throw new ApiError('user_unauthorized', authorizationMessage('create', roles, caller));
    }
    return { id, permissions: finalPermissions, values: attributeData(source, caller) };
  });
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
  const rows = databasesOf(ctx.backend).documents.insert(collection, prepared);
  const models = rows.map((row) => documentModel(where.database, collection, row));
  for (const model of models) publish(ctx.backend, where, model, 'create');
  if (hasDocuments) return created({ total: models.length, documents: models });
  return created(models[0]);
}

function listDocuments(ctx: RequestContext): Reply {
  refuseTransaction(ctx);
  const where = target(ctx);
  const { collection, caller, database } = where;
  const { documents } = databasesOf(ctx.backend);
  const queries = parseQueries(ctx.input.queries);
  const includeTotal = bool(ctx.input, 'total', true);
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
  const rows = documents.list(collection, {
    filters,
    permission,
    cursor,
    orderBy: order.orderBy,
    limit: grouped.limit,
    offset: grouped.offset,
    selections,
  });
  if (grouped.cursor?.direction === 'before') rows.reverse();
  const total = includeTotal ? documents.count(collection, filters, permission, COUNT_LIMIT) : 0;
  return ok({ total, documents: rows.map((row) => documentModel(database, collection, row)) });
}

function getDocument(ctx: RequestContext): Reply {
  refuseTransaction(ctx);
  const { database, collection, caller } = target(ctx);
  const queries = parseQueries(ctx.input.queries);
  validateDocumentQueries(collection, queries);
  const id = ctx.params.documentId!;
  const row = databasesOf(ctx.backend).documents.getRow(collection, id);
  if (!row || !allowed(caller, collection, rowPermissions(row), 'read'))
    throw new ApiError('document_not_found', null, [id]);
  const selections = groupQueries(queries).selections;
  if (selections && !selections.includes('*')) {
    for (const attribute of collection.attributes)
      if (!selections.includes(attribute.key)) delete row[attribute.key];
  }
  return ok(documentModel(database, collection, row));
}

function updateDocument(ctx: RequestContext): Reply {
  refuseTransaction(ctx);
  const data = jsonObject(ctx.input.data, 'data');
  const permissions = permissionsParam(ctx.input.permissions);
  if (Object.keys(data).length === 0 && permissions === null)
    throw new ApiError('document_missing_payload');
  const where = target(ctx);
  const { collection, caller } = where;
  const { documents } = databasesOf(ctx.backend);
  const id = ctx.params.documentId!;
  const row = documents.getRow(collection, id);
  if (!row) throw new ApiError('document_not_found', null, [id]);
  if (permissions !== null) assertMaySet(permissions, caller);
  const oldPermissions = rowPermissions(row);
  const newPermissions = permissions ?? oldPermissions;
  const changes = attributeData(data, caller);
  const old = dataValues(collection, row);
  let changed = !sameValue(oldPermissions, newPermissions);
  for (const [key, value] of Object.entries(changes)) {
    if (key === '$createdAt' || key === '$updatedAt') {
      if (value !== null && value !== row[`_${key.slice(1)}`]) changed = true;
    } else if (!sameValue(old[key], value)) changed = true;
  }
  if (!allowed(caller, collection, oldPermissions, changed ? 'update' : 'read'))
    throw new ApiError('user_unauthorized');
  checkTimestamp(ctx, row);
  const checked = checkStructure(collection, { ...old, ...changes });
  const model = documentModel(
    where.database,
    collection,
    documents.update(
      collection,
      Number(row._seq),
      {
        uid: id,
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
  publish(ctx.backend, where, model, 'update');
  return ok(model);
}

function upsertDocument(ctx: RequestContext): Reply {
  refuseTransaction(ctx);
  const id = resolveId('documentId', ctx.params.documentId);
  const data = jsonObject(ctx.input.data, 'data');
  const permissions = permissionsParam(ctx.input.permissions);
  if (Object.keys(data).length === 0 && permissions === null)
    throw new ApiError('document_missing_payload');
  const where = target(ctx);
  const { collection, caller } = where;
  const { documents } = databasesOf(ctx.backend);
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
    const old = dataValues(collection, row);
    for (const attribute of collection.attributes)
      if (!attribute.required && !(attribute.key in changes))
        merged[attribute.key] = old[attribute.key];
    checkTimestamp(ctx, row);
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
  const model = documentModel(where.database, collection, stored);
  publish(ctx.backend, where, model, 'upsert');
  return row ? ok(model) : created(model);
}

function deleteDocument(ctx: RequestContext): Reply {
  refuseTransaction(ctx);
  const where = target(ctx);
  const { collection, caller } = where;
  const { documents } = databasesOf(ctx.backend);
  const id = ctx.params.documentId!;
  const row = documents.getRow(collection, id);
  if (!row) throw new ApiError('document_not_found', null, [id]);
  if (!allowed(caller, collection, rowPermissions(row), 'delete'))
    throw new ApiError('user_unauthorized');
  checkTimestamp(ctx, row);
  const model = documentModel(where.database, collection, row);
  documents.delete(collection, Number(row._seq));
  publish(ctx.backend, where, model, 'delete');
  return noContent();
}

/** `increment` / `decrement`: atomic, with an optional bound (`max` / `min`). */
function changeCounter(ctx: RequestContext, direction: 1 | -1): Reply {
  refuseTransaction(ctx);
  const boundName = direction === 1 ? 'max' : 'min';
  const numeric = (name: string, fallback: number | null): number | null => {
    const value = ctx.input[name];
    if (value === undefined || value === null) return fallback;
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number))
      throw invalidParam(name, 'Value must be a valid number');
    return number;
  };
  const value = numeric('value', 1)!;
  const bound = numeric(boundName, null);
  const database = databaseParam(ctx);
  const collection = collectionParam(ctx, database);
  const where: Target = { database, collection, caller: callerOf(ctx.identity) };
  if (value <= 0)
    throw new ApiError('general_argument_invalid', 'Value must be numeric and greater than 0');
  const key = ctx.params.attribute!;
  const attribute = collection.attributes.find((item) => item.key === key);
  if (!attribute) throw new ApiError('attribute_not_found', null, [key]);
  if ((attribute.kind !== 'integer' && attribute.kind !== 'float') || attribute.array)
    throw new ApiError('attribute_type_invalid', `databases "${key}" is not a number`);
  if (attribute.kind === 'integer' && !Number.isInteger(value))
    throw invalidParam('value', 'Value must be a valid integer');
  const { documents } = databasesOf(ctx.backend);
  const id = ctx.params.documentId!;
  const row = documents.getRow(collection, id);
  // Appwrite answers a missing document here with its "attribute not found" error.
  if (!row) throw new ApiError('attribute_not_found', null, [key]);
  if (!allowed(where.caller, collection, rowPermissions(row), 'update'))
    throw new ApiError('user_unauthorized');
  const current = Number(row[key] ?? 0);
  const next = current + direction * value;
  if (bound !== null && (direction === 1 ? next > bound : next < bound))
    throw new ApiError(
      'attribute_limit_exceeded',
      `databases "${key}" has reached the ${direction === 1 ? 'maximum' : 'minimum'} value of ${bound}`,
    );
  documents.increment(
    collection,
    Number(row._seq),
    attribute,
    direction * value,
    nextUpdatedAt(row._updatedAt),
  );
  const updated = documents.getRow(collection, id)!;
  const model = documentModel(database, collection, updated);
  publish(ctx.backend, where, model, 'update');
  return ok(model);
}

function notImplemented(what: string): () => never {
  return () => {
    throw new ApiError('general_not_implemented', `${what} is not supported by the local backend.`);
  };
}

/** Document routes (scopes `documents.read` / `documents.write`). */
export function documentRoutes(): Route[] {
  const base = '/databases/:databaseId/collections/:collectionId/documents';
  return [
    { method: 'GET', path: base, scope: 'documents.read', handler: listDocuments },
    { method: 'POST', path: base, scope: 'documents.write', handler: createDocuments },
    {
      method: 'PUT',
      path: base,
      scope: 'documents.write',
      handler: notImplemented('Bulk upsert (upsertDocuments)'),
    },
    {
      method: 'PATCH',
      path: base,
      scope: 'documents.write',
      handler: notImplemented('Bulk update (updateDocuments)'),
    },
    {
      method: 'DELETE',
      path: base,
      scope: 'documents.write',
      handler: notImplemented('Bulk delete (deleteDocuments)'),
    },
    { method: 'GET', path: `${base}/:documentId`, scope: 'documents.read', handler: getDocument },
    {
      method: 'PATCH',
      path: `${base}/:documentId`,
      scope: 'documents.write',
      handler: updateDocument,
    },
    {
      method: 'PUT',
      path: `${base}/:documentId`,
      scope: 'documents.write',
      handler: upsertDocument,
    },
    {
      method: 'DELETE',
      path: `${base}/:documentId`,
      scope: 'documents.write',
      handler: deleteDocument,
    },
    {
      method: 'PATCH',
      path: `${base}/:documentId/:attribute/increment`,
      scope: 'documents.write',
      handler: (ctx) => changeCounter(ctx, 1),
    },
    {
      method: 'PATCH',
      path: `${base}/:documentId/:attribute/decrement`,
      scope: 'documents.write',
      handler: (ctx) => changeCounter(ctx, -1),
    },
  ];
}
