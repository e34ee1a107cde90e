import { resolveId, validateKey } from '../../core/ids.ts';
import { parsePermissions } from '../../core/permissions.ts';
import { now } from '../../core/time.ts';
import type { RequestContext } from '../../http/context.ts';
import { ApiError, invalidParam } from '../../http/errors.ts';
import { parseSimpleListQueries } from '../../http/list-queries.ts';
import { bool, required, text } from '../../http/params.ts';
import { accepted, created, noContent, ok } from '../../http/reply.ts';
import type { Route } from '../../http/router.ts';
import {
  ATTRIBUTE_KINDS,
  UNSUPPORTED_ATTRIBUTE_KINDS,
  attributeFromCreate,
  attributeFromUpdate,
} from './attributes.ts';
import {
  attributeModel,
  attributeType,
  collectionModel,
  databaseModel,
  indexModel,
} from './models.ts';
import { collectionParam, databaseParam, databasesOf } from './service.ts';
import type {
  AttributeKind,
  AttributeRecord,
  CollectionRecord,
  IndexRecord,
  IndexType,
} from './types.ts';

const COLLECTION_PERMISSIONS = ['read', 'create', 'update', 'delete'] as const;
/** MariaDB's 64 indexes a table, less the ones Appwrite keeps for itself. */
const INDEX_LIMIT = 58;
const KEY_MESSAGE =
  "Parameter must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, period, hyphen, and underscore. Can't start with a special char";

function search(ctx: RequestContext): string {
  return typeof ctx.input.search === 'string' ? ctx.input.search.toLowerCase() : '';
}

/** Applies `equal` filters of simple list queries to records with the given fields. */
function applyEqual<T>(
  items: T[],
  equal: Map<string, unknown[]>,
  field: (item: T, key: string) => unknown,
): T[] {
  return items.filter((item) =>
    [...equal].every(([key, values]) => {
      const value = field(item, key);
      return values.some((candidate) =>
        Array.isArray(value) ? value.includes(candidate) : candidate === value,
      );
    }),
  );
}

function page<T>(items: T[], query: { limit: number; offset: number }, withTotal: boolean) {
  return {
    total: withTotal ? items.length : 0,
    items: items.slice(query.offset, query.offset + query.limit),
  };
}

function attributeOf(collection: CollectionRecord, key: string): AttributeRecord {
  const attribute = collection.attributes.find((item) => item.key === key);
  if (!attribute) throw new ApiError('attribute_not_found', null, [key]);
  return attribute;
}

/** Validates index params and metadata like Appwrite's index endpoint and validator. */
function indexFromParams(
  collection: CollectionRecord,
  input: Record<string, unknown>,
  time: string,
): Omit<IndexRecord, 'seq' | 'status' | 'error'> {
  const key = validateKey('key', required(input, 'key'));
  const type = required(input, 'type');
  if (type !== 'key' && type !== 'fulltext' && type !== 'unique' && type !== 'spatial')
    throw invalidParam('type', 'Value must be one of (key, fulltext, unique, spatial)');
  const attributes = required(input, 'attributes');
  if (
    !Array.isArray(attributes) ||
    attributes.length > 100 ||
    attributes.some(
      (item) =>
        typeof item !== 'string' ||
        !(
          /^[A-Za-z0-9][A-Za-z0-9._-]{0,35}$/.test(item) ||
          ['$id', '$createdAt', '$updatedAt'].includes(item)
        ),
    )
  ) {
    throw invalidParam(
      'attributes',
      `Value must a valid array no longer than 100 items and ${KEY_MESSAGE}`,
    );
  }
  const orders = input.orders ?? [];
  if (
    !Array.isArray(orders) ||
    orders.length > 100 ||
    orders.some((item) => typeof item !== 'string' || !['ASC', 'DESC'].includes(item.toUpperCase()))
  ) {
    throw invalidParam(
      'orders',
      'Value must a valid array no longer than 100 items and Value must be one of (ASC, DESC)',
    );
  }
  const lengths = input.lengths ?? [];
  if (
    !Array.isArray(lengths) ||
    lengths.length > 100 ||
    lengths.some((item) => item !== null && (typeof item !== 'number' || !Number.isInteger(item)))
  ) {
    throw invalidParam(
      'lengths',
      'Value must a valid array no longer than 100 items and Value must be a valid integer',
    );
  }
  if (type === 'spatial') throw new ApiError('index_invalid', 'Spatial indexes are not supported');
  if (collection.indexes.length >= INDEX_LIMIT)
    throw new ApiError('index_limit_exceeded', null, [collection.id]);
  const system: Record<string, AttributeRecord['kind']> = {
    $id: 'string',
    $createdAt: 'datetime',
    $updatedAt: 'datetime',
  };
  for (const name of attributes as string[]) {
    if (system[name]) continue;
    const attribute = collection.attributes.find((item) => item.key === name);
    if (!attribute) throw new ApiError('attribute_unknown', null, [name]);
    if (attribute.status !== 'available')
      throw new ApiError('attribute_not_available', null, [name]);
    if (attribute.array)
      throw new ApiError(
        'index_invalid',
        'Creating indexes on array attributes is not currently supported.',
      );
  }
  if (new Set(attributes as string[]).size !== attributes.length)
    throw new ApiError('index_invalid', 'Duplicate attributes provided');
  if (type === 'fulltext') {
    for (const name of attributes as string[]) {
      const kind = system[name] ?? collection.attributes.find((item) => item.key === name)!.kind;
      if (!['string', 'email', 'enum'].includes(kind))
        throw new ApiError(
          'index_invalid',
          `Attribute "${name}" cannot be part of a fulltext index, must be of type string`,
        );
    }
  }
  if ((lengths as unknown[]).length > attributes.length)
    throw new ApiError(
      'index_invalid',
      'Invalid index lengths. Count of lengths must be equal or less than the number of attributes.',
    );
  if (collection.indexes.some((index) => index.key.toLowerCase() === key.toLowerCase()))
    throw new ApiError('index_already_exists', null, [key]);
  return {
    key,
    type: type as IndexType,
    attributes: attributes as string[],
    orders: orders as string[],
    lengths: (lengths as (number | null)[]).filter((item): item is number => item !== null),
    createdAt: time,
    updatedAt: time,
  };
}

/** An element of `createCollection`'s `attributes`/`indexes` params: a JSON object or its text. */
function inlineDefinition(raw: unknown, name: string): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      value = null;
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalidParam(
      name,
      'Value must a valid array no longer than 100 items and Value must be a valid JSON string',
    );
  return value as Record<string, unknown>;
}

/** An inline attribute definition of `createCollection` in the shape of the create endpoints' params. */
function inlineAttribute(raw: unknown, time: string): AttributeRecord {
  const definition = inlineDefinition(raw, 'attributes');
  let kind = String(definition.type ?? '');
  if (kind === 'double') kind = 'float';
  if (kind === 'string' && (definition.format === 'email' || definition.format === 'enum'))
    kind = String(definition.format);
  if (!ATTRIBUTE_KINDS.includes(kind as AttributeKind))
    throw new ApiError('ATTRIBUTE_TYPE_NOT_SUPPORTED', null, [kind]);
  return attributeFromCreate(kind as AttributeKind, definition, time);
}

/** Databases, collections, attributes and indexes (scopes `databases.*` and `collections.*`). */
export function schemaRoutes(): Route[] {
  const routes: Route[] = [
    // ── databases ──
    {
      method: 'GET',
      path: '/databases',
      scope: 'databases.read',
      handler: (ctx) => {
        const query = parseSimpleListQueries(ctx.input.queries, ['name']);
        const term = search(ctx);
        let items = databasesOf(ctx.backend).catalog.listDatabases();
        if (term) items = items.filter((db) => `${db.id} ${db.name}`.toLowerCase().includes(term));
        items = applyEqual(items, query.equal, (db, key) => (key === 'name' ? db.name : undefined));
        const result = page(items, query, bool(ctx.input, 'total', true));
        return ok({ total: result.total, databases: result.items.map(databaseModel) });
      },
    },
    {
      method: 'POST',
      path: '/databases',
      scope: 'databases.write',
      handler: (ctx) => {
        const id = resolveId('databaseId', required(ctx.input, 'databaseId'));
        const name = text(ctx.input, 'name', { required: true, max: 128 });
        const time = now();
        const database = databasesOf(ctx.backend).catalog.createDatabase({
          id,
          name,
          enabled: bool(ctx.input, 'enabled', true),
          createdAt: time,
          updatedAt: time,
        });
        return created(databaseModel(database));
      },
    },
    {
      method: 'GET',
      path: '/databases/:databaseId',
      scope: 'databases.read',
      handler: (ctx) => ok(databaseModel(databaseParam(ctx))),
    },
    {
      method: 'PUT',
      path: '/databases/:databaseId',
      scope: 'databases.write',
      handler: (ctx) => {
        const database = databaseParam(ctx);
        const name =
          text(ctx.input, 'name', { max: 128, fallback: database.name }) || database.name;
        const next = {
          ...database,
          name,
          enabled: bool(ctx.input, 'enabled', true),
          updatedAt: now(),
        };
        databasesOf(ctx.backend).catalog.saveDatabase(next);
        return ok(databaseModel(next));
      },
    },
    {
      method: 'DELETE',
      path: '/databases/:databaseId',
      scope: 'databases.write',
      handler: (ctx) => {
        databasesOf(ctx.backend).catalog.deleteDatabase(databaseParam(ctx));
        return noContent();
      },
    },
    // ── collections ──
    {
      method: 'GET',
      path: '/databases/:databaseId/collections',
      scope: 'collections.read',
      handler: (ctx) => {
        const database = databaseParam(ctx);
        const query = parseSimpleListQueries(ctx.input.queries, [
          'name',
          'enabled',
          'documentSecurity',
        ]);
        const term = search(ctx);
        let items = databasesOf(ctx.backend).catalog.listCollections(database.id);
        if (term)
          items = items.filter((item) => `${item.id} ${item.name}`.toLowerCase().includes(term));
        items = applyEqual(items, query.equal, (item, key) =>
          key === 'name' ? item.name : key === 'enabled' ? item.enabled : item.documentSecurity,
        );
        const result = page(items, query, bool(ctx.input, 'total', true));
        return ok({ total: result.total, collections: result.items.map(collectionModel) });
      },
    },
    {
      method: 'POST',
      path: '/databases/:databaseId/collections',
      scope: 'collections.write',
      handler: (ctx) => {
        const database = databaseParam(ctx);
        const id = resolveId('collectionId', required(ctx.input, 'collectionId'));
        const name = text(ctx.input, 'name', { required: true, max: 128 });
        const permissions = parsePermissions(ctx.input.permissions, COLLECTION_PERMISSIONS);
        const time = now();
        const inlineAttributes = Array.isArray(ctx.input.attributes) ? ctx.input.attributes : [];
        const inlineIndexes = Array.isArray(ctx.input.indexes) ? ctx.input.indexes : [];
        const attributes = inlineAttributes.map((raw) => inlineAttribute(raw, time));
        const { catalog } = databasesOf(ctx.backend);
        let collection = catalog.createCollection({
          databaseSeq: database.seq,
          databaseId: database.id,
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
          for (const attribute of attributes)
            collection = catalog.addAttribute(collection, attribute);
          for (const raw of inlineIndexes) {
            const definition = inlineDefinition(raw, 'indexes');
            collection = catalog.createIndex(
              collection,
              indexFromParams(collection, definition, time),
            ).collection;
          }
        } catch (error) {
          catalog.deleteCollection(collection);
          throw error;
        }
        return created(collectionModel(collection));
      },
    },
    {
      method: 'GET',
      path: '/databases/:databaseId/collections/:collectionId',
      scope: 'collections.read',
      handler: (ctx) => ok(collectionModel(collectionParam(ctx, databaseParam(ctx)))),
    },
    {
      method: 'PUT',
      path: '/databases/:databaseId/collections/:collectionId',
      scope: 'collections.write',
      handler: (ctx) => {
        const collection = collectionParam(ctx, databaseParam(ctx));
        const name = text(ctx.input, 'name', { max: 128 }) || collection.name;
        const permissions =
          ctx.input.permissions === undefined || ctx.input.permissions === null
            ? collection.permissions
            : parsePermissions(ctx.input.permissions, COLLECTION_PERMISSIONS);
        const next: CollectionRecord = {
          ...collection,
          name,
          permissions,
          documentSecurity: bool(ctx.input, 'documentSecurity', false),
          enabled: bool(ctx.input, 'enabled', true),
          updatedAt: now(),
        };
        databasesOf(ctx.backend).catalog.saveCollection(next);
        return ok(collectionModel(next));
      },
    },
    {
      method: 'DELETE',
      path: '/databases/:databaseId/collections/:collectionId',
      scope: 'collections.write',
      handler: (ctx) => {
        databasesOf(ctx.backend).catalog.deleteCollection(collectionParam(ctx, databaseParam(ctx)));
        return noContent();
      },
    },
    // ── attributes ──
    {
      method: 'GET',
      path: '/databases/:databaseId/collections/:collectionId/attributes',
      scope: 'collections.read',
      handler: (ctx) => {
        const collection = collectionParam(ctx, databaseParam(ctx));
        const query = parseSimpleListQueries(ctx.input.queries, [
          'key',
          'type',
          'size',
          'required',
          'array',
          'status',
          'error',
        ]);
        const items = applyEqual(collection.attributes, query.equal, (attribute, key) =>
          key === 'type' ? attributeType(attribute) : attribute[key as keyof AttributeRecord],
        );
        const result = page(items, query, bool(ctx.input, 'total', true));
        return ok({ total: result.total, attributes: result.items.map(attributeModel) });
      },
    },
    {
      method: 'GET',
      path: '/databases/:databaseId/collections/:collectionId/attributes/:key',
      scope: 'collections.read',
      handler: (ctx) => {
        const collection = collectionParam(ctx, databaseParam(ctx));
        return ok(attributeModel(attributeOf(collection, ctx.params.key!)));
      },
    },
    {
      method: 'DELETE',
      path: '/databases/:databaseId/collections/:collectionId/attributes/:key',
      scope: 'collections.write',
      handler: (ctx) => {
        const collection = collectionParam(ctx, databaseParam(ctx));
        const attribute = attributeOf(collection, ctx.params.key!);
        if (
          attribute.array &&
          collection.indexes.some((index) => index.attributes.includes(attribute.key))
        )
          throw new ApiError('index_dependency', null, [attribute.key]);
        databasesOf(ctx.backend).catalog.deleteAttribute(collection, attribute.key);
        return noContent();
      },
    },
    // ── indexes ──
    {
      method: 'GET',
      path: '/databases/:databaseId/collections/:collectionId/indexes',
      scope: 'collections.read',
      handler: (ctx) => {
        const collection = collectionParam(ctx, databaseParam(ctx));
        const query = parseSimpleListQueries(ctx.input.queries, [
          'key',
          'type',
          'status',
          'attributes',
          'error',
        ]);
        const items = applyEqual(
          collection.indexes,
          query.equal,
          (index, key) => index[key as keyof IndexRecord],
        );
        const result = page(items, query, bool(ctx.input, 'total', true));
        return ok({
          total: result.total,
          indexes: result.items.map((index) => indexModel(collection, index)),
        });
      },
    },
    {
      method: 'POST',
      path: '/databases/:databaseId/collections/:collectionId/indexes',
      scope: 'collections.write',
      handler: (ctx) => {
        const collection = collectionParam(ctx, databaseParam(ctx));
        const spec = indexFromParams(collection, ctx.input, now());
        const result = databasesOf(ctx.backend).catalog.createIndex(collection, spec);
        return accepted(indexModel(result.collection, result.index));
      },
    },
    {
      method: 'GET',
      path: '/databases/:databaseId/collections/:collectionId/indexes/:key',
      scope: 'collections.read',
      handler: (ctx) => {
        const collection = collectionParam(ctx, databaseParam(ctx));
        const index = collection.indexes.find((item) => item.key === ctx.params.key);
        if (!index) throw new ApiError('index_not_found', null, [ctx.params.key!]);
        return ok(indexModel(collection, index));
      },
    },
    {
      method: 'DELETE',
      path: '/databases/:databaseId/collections/:collectionId/indexes/:key',
      scope: 'collections.write',
      handler: (ctx) => {
        const collection = collectionParam(ctx, databaseParam(ctx));
        if (!collection.indexes.some((item) => item.key === ctx.params.key))
          throw new ApiError('index_not_found', null, [ctx.params.key!]);
        databasesOf(ctx.backend).catalog.deleteIndex(collection, ctx.params.key!);
        return noContent();
      },
    },
  ];
  for (const kind of ATTRIBUTE_KINDS) {
    routes.push(
      {
        method: 'POST',
        path: `/databases/:databaseId/collections/:collectionId/attributes/${kind}`,
        scope: 'collections.write',
        handler: (ctx) => {
          const collection = collectionParam(ctx, databaseParam(ctx));
          const attribute = attributeFromCreate(kind, ctx.input, now());
          databasesOf(ctx.backend).catalog.addAttribute(collection, attribute);
          return accepted(attributeModel(attribute));
        },
      },
      {
        method: 'PATCH',
        path: `/databases/:databaseId/collections/:collectionId/attributes/${kind}/:key`,
        scope: 'collections.write',
        handler: (ctx) => {
          const collection = collectionParam(ctx, databaseParam(ctx));
          const existing = attributeOf(collection, ctx.params.key!);
          const attribute = attributeFromUpdate(kind, existing, ctx.input, now());
          databasesOf(ctx.backend).catalog.updateAttribute(collection, existing.key, attribute);
          return ok(attributeModel(attribute));
        },
      },
    );
  }
  for (const kind of UNSUPPORTED_ATTRIBUTE_KINDS) {
    const unsupported = () => {
      throw new ApiError('ATTRIBUTE_TYPE_NOT_SUPPORTED', null, [kind]);
    };
    routes.push(
      {
        method: 'POST',
        path: `/databases/:databaseId/collections/:collectionId/attributes/${kind}`,
        scope: 'collections.write',
        handler: unsupported,
      },
      {
        method: 'PATCH',
        path: `/databases/:databaseId/collections/:collectionId/attributes/${kind}/:key`,
        scope: 'collections.write',
        handler: unsupported,
      },
    );
  }
  return routes;
}
