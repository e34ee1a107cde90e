import { ApiError } from '../../core/errors.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, integer } from '../../http/params.ts';
import { created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import { BULK_ACTIONS, parseOperations, type OperationNaming } from './operations.ts';
import { assertMaySet, callerOf, type Caller, type DatabasesStore } from './store.ts';
import { TTL_DEFAULT, TTL_MAX, TTL_MIN, transactionModel } from './transactions.ts';
import { rolesFor, rolesIn } from '../../core/permissions.ts';
import { permissionsParam } from './params.ts';

function store(ctx: RequestContext): DatabasesStore {
  return ctx.backend.services.databases;
}

function createTransaction(ctx: RequestContext): Reply {
  const ttl = integer(ctx.input, 'ttl', { min: TTL_MIN, max: TTL_MAX, fallback: TTL_DEFAULT })!;
  const record = store(ctx).transactions.create(ttl, callerOf(ctx.identity));
  return created(transactionModel(record));
}

function listTransactions(ctx: RequestContext): Reply {
  const models = store(ctx).transactions.list(callerOf(ctx.identity)).map(transactionModel);
  const { total, page } = applyListQueries(
    models,
    ctx.input.queries,
    ['status', 'expiresAt'],
    'Transaction',
  );
  return ok({ total, transactions: page });
}

function getTransaction(ctx: RequestContext): Reply {
  const record = store(ctx).transactions.get(ctx.params.transactionId!, callerOf(ctx.identity));
  return ok(transactionModel(record));
}

/** `updateTransaction`: `commit` or `rollback`, exactly one of them. */
function updateTransaction(ctx: RequestContext): Reply {
  const commit = bool(ctx.input, 'commit', false);
  const rollback = bool(ctx.input, 'rollback', false);
  if (!commit && !rollback)
    throw new ApiError('general_bad_request', 'Either commit or rollback must be true');
  if (commit && rollback)
    throw new ApiError('general_bad_request', 'Cannot commit and rollback at the same time');
  const caller = callerOf(ctx.identity);
  const { transactions } = store(ctx);
  const record = transactions.forDecision(ctx.params.transactionId!, caller);
  const done = commit ? transactions.commit(record, caller) : transactions.rollback(record);
  return ok(transactionModel(done));
}

function deleteTransaction(ctx: RequestContext): Reply {
  const { transactions } = store(ctx);
  transactions.delete(transactions.get(ctx.params.transactionId!, callerOf(ctx.identity)));
  return noContent();
}

/** Whether the caller holds one of `roles`. */
function holds(caller: Caller, roles: readonly string[]): boolean {
  return roles.some((role) => caller.roles.has(role));
}

/**
 * `createOperations`: stages operations after Appwrite's checks, in its order — the list, the
 * transaction, then each operation: bulk actions for API keys only (401 `user_unauthorized`),
 * the database and collection (404), the document for update/upsert/delete/increment/decrement
 * (404 unless it exists, staged operations included, or an earlier one of this call creates it),
 * the caller's collection or document permission, and the roles of the `$permissions` it sets.
 */
function createOperations(naming: OperationNaming): Route['handler'] {
  return (ctx) => {
    const operations = parseOperations(ctx.input.operations, naming);
    if (operations.length === 0)
      throw new ApiError('general_bad_request', 'Operations array cannot be empty');
    const caller = callerOf(ctx.identity);
    const databases = store(ctx);
    const { transactions } = databases;
    const record = transactions.forOperations(ctx.params.transactionId!, caller, operations.length);
    transactions.withStaged(record, () => {
      const creating = new Set<string>();
      for (const operation of operations) {
        if (!caller.isKey && BULK_ACTIONS.has(operation.action))
          throw new ApiError('user_unauthorized');
        const database = databases.database(operation.databaseId, caller);
        const collection = databases.collection(database, operation.collectionId, caller);
        if (BULK_ACTIONS.has(operation.action)) continue;
        const key = `${collection.seq}:${operation.documentId}`;
        const row =
          operation.action === 'create'
            ? null
            : databases.documents.getRow(collection, operation.documentId!);
        if (
          !row &&
          !creating.has(key) &&
          operation.action !== 'create' &&
          operation.action !== 'upsert'
        )
          throw new ApiError('document_not_found', null, [operation.documentId!]);
        if (operation.action === 'create') creating.add(key);
        if (caller.isKey) continue;
        const type =
          operation.action === 'create' || (operation.action === 'upsert' && !row)
            ? 'create'
            : operation.action === 'delete'
              ? 'delete'
              : 'update';
        const byCollection = holds(caller, rolesFor(collection.permissions, type));
        const byDocument =
          type !== 'create' &&
          collection.documentSecurity &&
          row !== null &&
          holds(caller, rolesIn(JSON.parse(String(row._permissions)) as string[], type));
        if (!byCollection && !byDocument) throw new ApiError('user_unauthorized');
        const permissions = (operation.data as Record<string, unknown>).$permissions;
        if (permissions !== undefined && permissions !== null) {
          const formatted = permissionsParam(permissions) ?? [];
          try {
            assertMaySet(formatted, caller);
          } catch {
            throw new ApiError(
              'user_unauthorized',
              `Permissions must be one of: (${[...caller.roles].join(', ')})`,
            );
          }
        }
      }
    });
    return created(transactionModel(transactions.stage(record, operations)));
  };
}

/** The transaction routes of one API (`/databases` legacy, `/tablesdb`). */
function transactionRoutes(
  base: string,
  naming: OperationNaming,
  scopes: { read: string; write: string },
): Route[] {
  const one = `${base}/transactions/:transactionId`;
  return [
    route('POST', `${base}/transactions`, scopes.write, createTransaction),
    route('GET', `${base}/transactions`, scopes.read, listTransactions),
    route('GET', one, scopes.read, getTransaction),
    route('PATCH', one, scopes.write, updateTransaction),
    route('DELETE', one, scopes.write, deleteTransaction),
    route('POST', `${one}/operations`, scopes.write, createOperations(naming)),
  ];
}

/**
 * Transactions, as Appwrite 1.9 serves them twice over one set of transactions: the legacy
 * `/databases/transactions…` (writes need `documents.write`, reads `rows.read`) and
 * `/tablesdb/transactions…` (`rows.write`, `rows.read`; operations name `tableId`, `rowId`,
 * `column`).
 */
export const transactionRoutesOfBothApis: readonly Route[] = [
  ...transactionRoutes('/databases', 'legacy', { read: 'rows.read', write: 'documents.write' }),
  ...transactionRoutes('/tablesdb', 'tablesdb', { read: 'rows.read', write: 'rows.write' }),
];
