import { ApiError } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';
import { applyListQueries } from '../../core/list-queries.ts';
import { parsePermissions } from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { bool, required, text } from '../../http/params.ts';
import { accepted, created, noContent, ok, type Reply } from '../../http/reply.ts';
import { route, type Route } from '../../http/router.ts';
import {
  ATTRIBUTE_KINDS,
  UNSUPPORTED_ATTRIBUTE_KINDS,
  attributeFromCreate,
  attributeFromUpdate,
} from './attributes.ts';
import { attributeModel, collectionModel, databaseModel, indexModel } from './models.ts';
import { documentRoutes } from './document-routes.ts';
import { indexFromParams, inlineAttribute, inlineDefinition } from './params.ts';
import type { DatabasesStore } from './store.ts';
import { transactionRoutesOfBothApis } from './transaction-routes.ts';
import type { AttributeKind, AttributeRecord, CollectionRecord, DatabaseRecord } from './types.ts';

const COLLECTION_PERMISSIONS = ['read', 'create', 'update', 'delete'] as const;

function store(ctx: RequestContext): DatabasesStore {
  return ctx.backend.services.databases;
}

/** The database of `:databaseId`. */
function database(ctx: RequestContext): DatabaseRecord {
  return store(ctx).database(ctx.params.databaseId!);
}

/** The collection of `:databaseId`/`:collectionId`. */
function collection(ctx: RequestContext): CollectionRecord {
  return store(ctx).collection(database(ctx), ctx.params.collectionId!);
}

function searchTerm(ctx: RequestContext): string {
  return typeof ctx.input.search === 'string' ? ctx.input.search.toLowerCase() : '';
}

/** A list answer: the page, and the total unless the caller asked for none (`total=false`). */
function listReply(
  ctx: RequestContext,
  key: string,
  models: Record<string, unknown>[],
  attributes: readonly string[],
  resource: string,
): Reply {
  const { total, page } = applyListQueries(models, ctx.input.queries, attributes, resource);
  return ok({ total: bool(ctx.input, 'total', true) ? total : 0, [key]: page });
}

function attributeOf(collection: CollectionRecord, key: string): AttributeRecord {
  const attribute = collection.attributes.find((item) => item.key === key);
  if (!attribute) throw new ApiError('attribute_not_found', null, [key]);
  return attribute;
}

// ── databases ─────────────────────────────────────────────────────────────────

function listDatabases(ctx: RequestContext): Reply {
  const term = searchTerm(ctx);
  let items = store(ctx).catalog.listDatabases();
  if (term) items = items.filter((db) => `${db.id} ${db.name}`.toLowerCase().includes(term));
  return listReply(ctx, 'databases', items.map(databaseModel), ['name'], 'Database');
}

function createDatabase(ctx: RequestContext): Reply {
  const id = resolveId('databaseId', required(ctx.input, 'databaseId'));
  const name = text(ctx.input, 'name', { required: true, max: 128 });
  const time = now();
  const record = store(ctx).catalog.createDatabase({
    id,
    name,
    enabled: bool(ctx.input, 'enabled', true),
    createdAt: time,
    updatedAt: time,
  });
  return created(databaseModel(record));
}

function getDatabase(ctx: RequestContext): Reply {
  return ok(databaseModel(database(ctx)));
}

function updateDatabase(ctx: RequestContext): Reply {
  const previous = database(ctx);
  const name = text(ctx.input, 'name', { max: 128, fallback: previous.name }) || previous.name;
  const next = { ...previous, name, enabled: bool(ctx.input, 'enabled', true), updatedAt: now() };
  store(ctx).catalog.saveDatabase(next);
  return ok(databaseModel(next));
}

function deleteDatabase(ctx: RequestContext): Reply {
  store(ctx).catalog.deleteDatabase(database(ctx));
  return noContent();
}

// ── collections ───────────────────────────────────────────────────────────────

function listCollections(ctx: RequestContext): Reply {
  const { id } = database(ctx);
  const term = searchTerm(ctx);
  let items = store(ctx).catalog.listCollections(id);
  if (term) items = items.filter((item) => `${item.id} ${item.name}`.toLowerCase().includes(term));
  return listReply(
    ctx,
    'collections',
    items.map(collectionModel),
    ['name', 'enabled', 'documentSecurity'],
    'Collection',
  );
}

/** Creates a collection with its inline attributes and indexes, all or nothing. */
function createCollection(ctx: RequestContext): Reply {
  const parent = database(ctx);
  const id = resolveId('collectionId', required(ctx.input, 'collectionId'));
  const name = text(ctx.input, 'name', { required: true, max: 128 });
  const permissions = parsePermissions(ctx.input.permissions, COLLECTION_PERMISSIONS);
  const time = now();
  const inlineAttributes = Array.isArray(ctx.input.attributes) ? ctx.input.attributes : [];
  const inlineIndexes = Array.isArray(ctx.input.indexes) ? ctx.input.indexes : [];
  const attributes = inlineAttributes.map((raw) => inlineAttribute(raw, time));
  const { catalog } = store(ctx);
  let next = catalog.createCollection({
    databaseSeq: parent.seq,
    databaseId: parent.id,
    id,
    name,
    enabled: bool(ctx.input, 'enabled', true),
    documentSecurity: bool(ctx.input, 'documentSecurity', false),
    permissions,
    attributes: [],
    indexes: [],
    nextIndexSeq: 1,
    createdAt: time,
    updatedAt: time,
  });
  try {
    for (const attribute of attributes) next = catalog.addAttribute(next, attribute);
    for (const raw of inlineIndexes) {
      const definition = inlineDefinition(raw, 'indexes');
      next = catalog.createIndex(next, indexFromParams(next, definition, time)).collection;
    }
  } catch (error) {
    catalog.deleteCollection(next);
    throw error;
  }
  return created(collectionModel(next));
}

function getCollection(ctx: RequestContext): Reply {
  return ok(collectionModel(collection(ctx)));
}

function updateCollection(ctx: RequestContext): Reply {
  const previous = collection(ctx);
  const name = text(ctx.input, 'name', { max: 128 }) || previous.name;
  const permissions =
    ctx.input.permissions === undefined || ctx.input.permissions === null
      ? previous.permissions
      : parsePermissions(ctx.input.permissions, COLLECTION_PERMISSIONS);
  const next: CollectionRecord = {
    ...previous,
    name,
    permissions,
    documentSecurity: bool(ctx.input, 'documentSecurity', false),
    enabled: bool(ctx.input, 'enabled', true),
    updatedAt: now(),
  };
  store(ctx).catalog.saveCollection(next);
  return ok(collectionModel(next));
}

function deleteCollection(ctx: RequestContext): Reply {
  store(ctx).catalog.deleteCollection(collection(ctx));
  return noContent();
}

// ── attributes ────────────────────────────────────────────────────────────────

function listAttributes(ctx: RequestContext): Reply {
  return listReply(
    ctx,
    'attributes',
    collection(ctx).attributes.map(attributeModel),
    ['key', 'type', 'size', 'required', 'array', 'status', 'error'],
    'Attribute',
  );
}

function getAttribute(ctx: RequestContext): Reply {
  return ok(attributeModel(attributeOf(collection(ctx), ctx.params.key!)));
}

function deleteAttribute(ctx: RequestContext): Reply {
  const parent = collection(ctx);
  const attribute = attributeOf(parent, ctx.params.key!);
  if (attribute.array && parent.indexes.some((index) => index.attributes.includes(attribute.key)))
    throw new ApiError('index_dependency', null, [attribute.key]);
  store(ctx).catalog.deleteAttribute(parent, attribute.key);
  return noContent();
}

function createAttribute(kind: AttributeKind): Route['handler'] {
  return (ctx) => {
    const parent = collection(ctx);
    const attribute = attributeFromCreate(kind, ctx.input, now());
    store(ctx).catalog.addAttribute(parent, attribute);
    return accepted(attributeModel(attribute));
  };
}

function updateAttribute(kind: AttributeKind): Route['handler'] {
  return (ctx) => {
    const parent = collection(ctx);
    const existing = attributeOf(parent, ctx.params.key!);
    const attribute = attributeFromUpdate(kind, existing, ctx.input, now());
    store(ctx).catalog.updateAttribute(parent, existing.key, attribute);
    return ok(attributeModel(attribute));
  };
}

function unsupportedAttribute(kind: string): Route['handler'] {
  return () => {
    throw new ApiError(
      'ATTRIBUTE_TYPE_NOT_SUPPORTED',
      `Attribute type '${kind}' is not supported by the local backend.`,
    );
  };
}

// ── indexes ───────────────────────────────────────────────────────────────────

function listIndexes(ctx: RequestContext): Reply {
  const parent = collection(ctx);
  return listReply(
    ctx,
    'indexes',
    parent.indexes.map((index) => indexModel(parent, index)),
    ['key', 'type', 'status', 'attributes', 'error'],
    'Index',
  );
}

function createIndex(ctx: RequestContext): Reply {
  const parent = collection(ctx);
  const spec = indexFromParams(parent, ctx.input, now());
  const result = store(ctx).catalog.createIndex(parent, spec);
  return accepted(indexModel(result.collection, result.index));
}

function getIndex(ctx: RequestContext): Reply {
  const parent = collection(ctx);
  const index = parent.indexes.find((item) => item.key === ctx.params.key);
  if (!index) throw new ApiError('index_not_found', null, [ctx.params.key!]);
  return ok(indexModel(parent, index));
}

function deleteIndex(ctx: RequestContext): Reply {
  const parent = collection(ctx);
  if (!parent.indexes.some((item) => item.key === ctx.params.key))
    throw new ApiError('index_not_found', null, [ctx.params.key!]);
  store(ctx).catalog.deleteIndex(parent, ctx.params.key!);
  return noContent();
}

const DATABASE = '/databases/:databaseId';
const COLLECTION = `${DATABASE}/collections/:collectionId`;

/**
 * The Databases service: databases and collections (scopes `databases.*`, `collections.*`),
 * attributes and indexes, and documents (`documents.*`).
 */
export const routes: readonly Route[] = [
  route('GET', '/databases', 'databases.read', listDatabases),
  route('POST', '/databases', 'databases.write', createDatabase),
  route('GET', DATABASE, 'databases.read', getDatabase),
  route('PUT', DATABASE, 'databases.write', updateDatabase),
  route('DELETE', DATABASE, 'databases.write', deleteDatabase),
  route('GET', `${DATABASE}/collections`, 'collections.read', listCollections),
  route('POST', `${DATABASE}/collections`, 'collections.write', createCollection),
  route('GET', COLLECTION, 'collections.read', getCollection),
  route('PUT', COLLECTION, 'collections.write', updateCollection),
  route('DELETE', COLLECTION, 'collections.write', deleteCollection),
  route('GET', `${COLLECTION}/attributes`, 'collections.read', listAttributes),
  route('GET', `${COLLECTION}/attributes/:key`, 'collections.read', getAttribute),
  route('DELETE', `${COLLECTION}/attributes/:key`, 'collections.write', deleteAttribute),
  ...ATTRIBUTE_KINDS.flatMap((kind): Route[] => [
    route('POST', `${COLLECTION}/attributes/${kind}`, 'collections.write', createAttribute(kind)),
    route(
      'PATCH',
      `${COLLECTION}/attributes/${kind}/:key`,
      'collections.write',
      updateAttribute(kind),
    ),
  ]),
  ...UNSUPPORTED_ATTRIBUTE_KINDS.flatMap((kind): Route[] => [
    route(
      'POST',
      `${COLLECTION}/attributes/${kind}`,
      'collections.write',
      unsupportedAttribute(kind),
    ),
    route(
      'PATCH',
      `${COLLECTION}/attributes/${kind}/:key`,
      'collections.write',
      unsupportedAttribute(kind),
    ),
  ]),
  route('GET', `${COLLECTION}/indexes`, 'collections.read', listIndexes),
  route('POST', `${COLLECTION}/indexes`, 'collections.write', createIndex),
  route('GET', `${COLLECTION}/indexes/:key`, 'collections.read', getIndex),
  route('DELETE', `${COLLECTION}/indexes/:key`, 'collections.write', deleteIndex),
  ...documentRoutes,
  ...transactionRoutesOfBothApis,
];
