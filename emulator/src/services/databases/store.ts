import type { Backend } from '../../backend.ts';
import type { Identity } from '../../core/auth.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError } from '../../http/errors.ts';
import { Catalog } from './catalog.ts';
import { Documents } from './documents.ts';
import type { CollectionRecord, DatabaseRecord } from './types.ts';

/** The Databases service's shared state: the schema catalog and the document store. */
export interface DatabasesService {
  catalog: Catalog;
  documents: Documents;
}

/** The {@link DatabasesService} of a backend (created on first use; the tables are created then). */
export function databasesOf(backend: Backend): DatabasesService {
  let service = backend.services.get('databases') as DatabasesService | undefined;
  if (!service) {
    const catalog = new Catalog(backend.store);
    service = { catalog, documents: new Documents(backend.store, catalog) };
    backend.services.set('databases', service);
  }
  return service;
}

/** Who is calling, as permission checks see it: roles include `any`, as in Appwrite's Authorization. */
export interface Caller {
  isKey: boolean;
  userId: string | null;
  roles: Set<string>;
}

export function callerOf(identity: Identity): Caller {
  return {
    isKey: identity.kind === 'key',
    userId: identity.kind === 'user' ? identity.user.id : null,
    roles: new Set(['any', ...identity.roles]),
  };
}

/** Whether any of `granted` is one of the caller's roles. */
export function granted(caller: Caller, roles: readonly string[]): boolean {
  for (const role of roles) if (caller.roles.has(role)) return true;
  return false;
}

/** PHP's `json_encode` (escapes `/`). */
function phpJson(value: unknown): string {
  return JSON.stringify(value).replace(/\//g, '\\/');
}

/** utopia-php/database's Authorization description for a refused `action`. */
export function authorizationMessage(
  action: string,
  roles: readonly string[],
  caller: Caller,
): string {
  if (roles.length === 0) return `No permissions provided for action '${action}'`;
  return `Missing "${action}" permission for role "${roles[roles.length - 1]}". Only "${phpJson([
    ...caller.roles,
  ])}" scopes are allowed and "${phpJson(roles)}" was given.`;
}

/**
 * The database of `:databaseId`. For document routes a disabled database is hidden from
 * callers without an API key, as on Appwrite.
 */
export function databaseParam(ctx: RequestContext, forDocuments = false): DatabaseRecord {
  const id = ctx.params.databaseId!;
  const database = databasesOf(ctx.backend).catalog.getDatabase(id);
  if (!database || (forDocuments && !database.enabled && ctx.identity.kind !== 'key'))
    throw new ApiError('database_not_found', null, [id]);
  return database;
}

/** The collection of `:collectionId` (disabled ones are hidden from non-key callers of document routes). */
export function collectionParam(
  ctx: RequestContext,
  database: DatabaseRecord,
  forDocuments = false,
): CollectionRecord {
  const id = ctx.params.collectionId!;
  const collection = databasesOf(ctx.backend).catalog.getCollection(database.id, id);
  if (!collection || (forDocuments && !collection.enabled && ctx.identity.kind !== 'key'))
    throw new ApiError('collection_not_found', null, [id]);
  return collection;
}
