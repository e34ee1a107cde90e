import { ApiError, invalidParam } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import { parseQueries } from '../../core/queries.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, required } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import type { OperationInput } from './operations.ts';
import { bulkDocument, documentsParam, jsonObject, permissionsParam } from './params.ts';
import {
  assertMaySet,
  callerOf,
  type BulkResult,
  type Caller,
  type DatabasesStore,
  type DocumentTarget,
} from './store.ts';
import type { StagingRoute } from './transactions.ts';

const UID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

function store(ctx: RequestContext): DatabasesStore {
  return ctx.backend.services.databases;
}

/** The collection of a document request (disabled ones are hidden from callers without a key). */
function documentTarget(ctx: RequestContext): DocumentTarget {
  const caller = callerOf(ctx.identity);
  const found = store(ctx).database(ctx.params.databaseId!, caller);
  return {
    database: found,
    collection: store(ctx).collection(found, ctx.params.collectionId!, caller),
    caller,
  };
}

/**
 * The target of a bulk update, upsert or delete: API keys only. Appwrite reads the database
 * with the caller's permissions there, so a session is answered `database_not_found`.
 */
function bulkTarget(ctx: RequestContext): DocumentTarget {
  if (ctx.identity.kind !== 'key')
    throw new ApiError('database_not_found', null, [ctx.params.databaseId!]);
  return documentTarget(ctx);
}

/** `X-Appwrite-Timestamp`, when sent. */
function timestampHeader(ctx: RequestContext): string | undefined {
  const header = ctx.headers['x-appwrite-timestamp'];
  return typeof header === 'string' ? header : undefined;
}

/** The optional `transactionId` param (a UID; null when absent). */
function transactionId(ctx: RequestContext): string | null {
  const value = ctx.input.transactionId;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !UID.test(value))
    throw invalidParam(
      'transactionId',
      "UID must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, and underscore. Can't start with a leading underscore",
    );
  return value;
}

/** Stages one operation of a document route into transaction `id` (see `Transactions.forRoute`). */
function stage(
  ctx: RequestContext,
  id: string,
  caller: Caller,
  kind: StagingRoute,
  operation: Omit<OperationInput, 'databaseId' | 'collectionId'>,
): void {
  const { transactions } = store(ctx);
  const record = transactions.forRoute(id, caller, kind);
  transactions.stage(
    record,
    [
      {
        ...operation,
        databaseId: ctx.params.databaseId!,
        collectionId: ctx.params.collectionId!,
      },
    ],
    1,
  );
}

/** A document's attribute data (its `$` keys left out). */
function attributesOf(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !key.startsWith('$')));
}

/** What a route staging a write answers in place of the document (Appwrite's mock document). */
function placeholder(
  ctx: RequestContext,
  id: string,
  data: Record<string, unknown>,
  permissions: string[],
): Record<string, unknown> {
  return {
    $id: id,
    $sequence: '',
    $collectionId: ctx.params.collectionId,
    $databaseId: ctx.params.databaseId,
    $createdAt: '',
    $updatedAt: '',
    $permissions: permissions,
    ...attributesOf(data),
  };
}

/** A bulk answer: `total` and the first 100 documents. */
function bulkReply(result: BulkResult): Reply {
  return ok({ total: result.total, documents: result.documents });
}

/** `permissions` of a bulk document or update: Appwrite refuses bad ones as a bad request. */
function bulkPermissions(value: unknown): string[] | null {
  try {
    return permissionsParam(value);
  } catch (error) {
    throw new ApiError(
      'general_bad_request',
      (error as Error).message.replace(/^Invalid `permissions` param: /, ''),
    );
  }
}

/** `createDocument` (`documentId` + `data`) and, for API keys, `createDocuments` (`documents`). */
function createDocuments(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
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
  const target = documentTarget(ctx);
  const sources = hasDocuments ? list.map(bulkDocument) : [{ id: documentId, permissions, data }];
  if (txId !== null) {
    const checked = store(ctx).checkCreate(target, sources);
    const documents = checked.map((item) => ({
      ...item.data,
      $id: item.id,
      $permissions: item.permissions,
    }));
    stage(ctx, txId, target.caller, 'document', {
      action: hasDocuments ? 'bulkCreate' : 'create',
      documentId: hasDocuments ? null : documentId,
      data: hasDocuments ? documents : documents[0],
    });
    if (hasDocuments) return ok({ total: documents.length, documents: [] });
    return created(placeholder(ctx, documentId, data, checked[0]!.permissions));
  }
  const models = store(ctx).createDocuments(target, sources);
  if (hasDocuments) return created({ total: models.length, documents: models });
  return created(models[0]);
}

/** `listDocuments`; with `transactionId`, over the transaction's staged operations. */
function listDocuments(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
  const target = documentTarget(ctx);
  const queries = parseQueries(ctx.input.queries);
  const includeTotal = bool(ctx.input, 'total', true);
  const body = store(ctx).transactions.read(txId, target.caller, () =>
    store(ctx).listDocumentsBody(target, queries, includeTotal),
  );
  return { status: 200, json: body };
}

/** `getDocument`; with `transactionId`, over the transaction's staged operations. */
function getDocument(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
  const target = documentTarget(ctx);
  const queries = parseQueries(ctx.input.queries);
  const id = ctx.params.documentId!;
  return ok(
    store(ctx).transactions.read(txId, target.caller, () =>
      store(ctx).getDocument(target, id, queries),
    ),
  );
}

function updateDocument(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
  const data = jsonObject(ctx.input.data, 'data');
  const permissions = permissionsParam(ctx.input.permissions);
  if (Object.keys(data).length === 0 && permissions === null)
    throw new ApiError('document_missing_payload');
  const target = documentTarget(ctx);
  const id = ctx.params.documentId!;
  if (txId !== null) {
    // The document as the transaction sees it, read with the caller's permissions; the update
    // permission is checked when the transaction commits.
    const current = store(ctx).transactions.read(txId, target.caller, () =>
      store(ctx).getDocument(target, id, []),
    );
    if (permissions !== null) assertMaySet(permissions, target.caller);
    stage(ctx, txId, target.caller, 'document', {
      action: 'update',
      documentId: id,
      data: permissions === null ? data : { ...data, $permissions: permissions },
    });
    return ok({
      ...current,
      ...attributesOf(data),
      ...(permissions === null ? {} : { $permissions: permissions }),
    });
  }
  return ok(store(ctx).updateDocument(target, id, data, permissions, timestampHeader(ctx)));
}

function upsertDocument(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
  const id = resolveId('documentId', ctx.params.documentId);
  const data = jsonObject(ctx.input.data, 'data');
  const permissions = permissionsParam(ctx.input.permissions);
  if (Object.keys(data).length === 0 && permissions === null)
    throw new ApiError('document_missing_payload');
  const target = documentTarget(ctx);
  if (txId !== null) {
    if (permissions !== null) assertMaySet(permissions, target.caller);
    stage(ctx, txId, target.caller, 'document', {
      action: 'upsert',
      documentId: id,
      data: permissions === null ? data : { ...data, $permissions: permissions },
    });
    return created(placeholder(ctx, id, data, permissions ?? []));
  }
  const result = store(ctx).upsertDocument(target, id, data, permissions, timestampHeader(ctx));
  return result.created ? created(result.model) : ok(result.model);
}

function deleteDocument(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
  const target = documentTarget(ctx);
  const id = ctx.params.documentId!;
  if (txId !== null) {
    store(ctx).transactions.read(txId, target.caller, () => store(ctx).getDocument(target, id, []));
    stage(ctx, txId, target.caller, 'document', { action: 'delete', documentId: id, data: {} });
    return noContent();
  }
  store(ctx).deleteDocument(target, id, timestampHeader(ctx));
  return noContent();
}

/** `increment` / `decrement`: by `value` (default 1), bounded by `max` / `min` when sent. */
function changeCounter(direction: 1 | -1): Route['handler'] {
  return (ctx) => {
    const txId = transactionId(ctx);
    const numeric = (name: string, fallback: number | null): number | null => {
      const value = ctx.input[name];
      if (value === undefined || value === null) return fallback;
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number))
        throw invalidParam(name, 'Value must be a valid number');
      return number;
    };
    const value = numeric('value', 1)!;
    const boundName = direction === 1 ? 'max' : 'min';
    const bound = numeric(boundName, null);
    const caller = callerOf(ctx.identity);
    const database = store(ctx).database(ctx.params.databaseId!);
    const target: DocumentTarget = {
      database,
      collection: store(ctx).collection(database, ctx.params.collectionId!),
      caller,
    };
    const id = ctx.params.documentId!;
    const attribute = ctx.params.attribute!;
    if (txId !== null) {
      stage(ctx, txId, caller, 'counter', {
        action: direction === 1 ? 'increment' : 'decrement',
        documentId: id,
        data: { attribute, value, [boundName]: bound },
      });
      return ok({
        $id: id,
        $sequence: '',
        $collectionId: target.collection.id,
        $databaseId: database.id,
        $createdAt: '',
        $updatedAt: '',
        $permissions: [],
        [attribute]: value,
      });
    }
    return ok(store(ctx).changeCounter(target, id, attribute, { direction, value, bound }));
  };
}

/** `updateDocuments`: `data` (and `$permissions` in it) on every document `queries` match. */
function updateDocumentsByQuery(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
  const data = jsonObject(ctx.input.data, 'data');
  if (Object.keys(data).length === 0) throw new ApiError('document_missing_payload');
  const target = bulkTarget(ctx);
  const queries = parseQueries(ctx.input.queries);
  const permissions = data.$permissions === undefined ? null : bulkPermissions(data.$permissions);
  if (txId !== null) {
    stage(ctx, txId, target.caller, 'bulk', {
      action: 'bulkUpdate',
      documentId: null,
      data: { data, queries: ctx.input.queries ?? [] },
    });
    return ok({ total: 0, documents: [] });
  }
  return bulkReply(store(ctx).updateDocuments(target, queries, data, permissions));
}

/** `upsertDocuments`: creates or replaces each of `documents` (at most 100). */
function upsertDocumentsBulk(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
  const list = documentsParam(required(ctx.input, 'documents'));
  const target = bulkTarget(ctx);
  const sources = list.map(bulkDocument);
  if (txId !== null) {
    stage(ctx, txId, target.caller, 'bulk', {
      action: 'bulkUpsert',
      documentId: null,
      data: sources.map((source) => ({
        ...source.data,
        $id: source.id,
        ...(source.permissions === null ? {} : { $permissions: source.permissions }),
      })),
    });
    return ok({ total: sources.length, documents: [] });
  }
  return bulkReply(store(ctx).upsertDocuments(target, sources));
}

/** `deleteDocuments`: deletes every document `queries` match. */
function deleteDocumentsByQuery(ctx: RequestContext): Reply {
  const txId = transactionId(ctx);
  const target = bulkTarget(ctx);
  const queries = parseQueries(ctx.input.queries);
  if (txId !== null) {
    stage(ctx, txId, target.caller, 'bulk', {
      action: 'bulkDelete',
      documentId: null,
      data: { queries: ctx.input.queries ?? [] },
    });
    return ok({ total: 0, documents: [] });
  }
  return bulkReply(store(ctx).deleteDocuments(target, queries));
}

const DOCUMENTS = '/databases/:databaseId/collections/:collectionId/documents';

/**
 * Documents (`documents.read`, `documents.write`): single and bulk writes, each of which stages
 * into a transaction with `transactionId` instead of writing, and reads through one.
 */
export const documentRoutes: readonly Route[] = [
  route('GET', DOCUMENTS, 'documents.read', listDocuments),
  route('POST', DOCUMENTS, 'documents.write', createDocuments),
  route('PUT', DOCUMENTS, 'documents.write', upsertDocumentsBulk),
  route('PATCH', DOCUMENTS, 'documents.write', updateDocumentsByQuery),
  route('DELETE', DOCUMENTS, 'documents.write', deleteDocumentsByQuery),
  route('GET', `${DOCUMENTS}/:documentId`, 'documents.read', getDocument),
  route('PATCH', `${DOCUMENTS}/:documentId`, 'documents.write', updateDocument),
  route('PUT', `${DOCUMENTS}/:documentId`, 'documents.write', upsertDocument),
  route('DELETE', `${DOCUMENTS}/:documentId`, 'documents.write', deleteDocument),
  route(
    'PATCH',
    `${DOCUMENTS}/:documentId/:attribute/increment`,
    'documents.write',
    changeCounter(1),
  ),
  route(
    'PATCH',
    `${DOCUMENTS}/:documentId/:attribute/decrement`,
    'documents.write',
    changeCounter(-1),
  ),
];
