import { Databases, ID, Permission, Query, Role } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { beforeAllOnTarget, serverClient, uniqueTestId } from '../support/clients.ts';
import {
  caught,
  createAttribute,
  createCollection,
  raw,
  scratchDatabase,
} from '../support/databases.ts';
import { modelProblems } from '../support/openapi.ts';

let databases: Databases;
let databaseId: string;

beforeAllOnTarget(async () => {
  ({ databases, databaseId } = await scratchDatabase());
});

describe('databases', () => {
  it('creates, gets, lists, updates and deletes a database (Database models)', async () => {
    const id = uniqueTestId('dbx');
    const created = await databases.create({ databaseId: id, name: 'Shop' });
    expect(modelProblems('database', created)).toEqual([]);
    expect(created).toMatchObject({ $id: id, name: 'Shop', enabled: true, type: 'legacy' });
    expect(await databases.get({ databaseId: id })).toEqual(created);

    const list = await databases.list({ search: id });
    expect(modelProblems('databaseList', list)).toEqual([]);
    expect(list.databases.map((db) => db.$id)).toEqual([id]);
    expect(
      (await databases.list({ queries: [Query.equal('name', ['Shop'])] })).total,
    ).toBeGreaterThan(0);

    const updated = await databases.update({ databaseId: id, name: 'Shop 2', enabled: false });
    expect(updated).toMatchObject({ name: 'Shop 2', enabled: false });
    expect((await caught(databases.create({ databaseId: id, name: 'again' }))).type).toBe(
      'database_already_exists',
    );
    await databases.delete({ databaseId: id });
    const gone = await caught(databases.get({ databaseId: id }));
    expect([gone.code, gone.type, gone.message]).toEqual([
      404,
      'database_not_found',
      `Database with the requested ID '${id}' could not be found.`,
    ]);
  });
});

describe('collections', () => {
  it('creates, gets, lists, updates and deletes a collection (Collection models)', async () => {
    const id = uniqueTestId('colx');
    const created = await databases.createCollection({
      databaseId,
      collectionId: id,
      name: 'Orders',
      permissions: [Permission.read(Role.any()), Permission.write(Role.team('desk', 'manager'))],
      documentSecurity: true,
    });
    expect(modelProblems('collection', created)).toEqual([]);
    expect(created).toMatchObject({
      $id: id,
      databaseId,
      name: 'Orders',
      enabled: true,
      documentSecurity: true,
      attributes: [],
      indexes: [],
    });
    // write() expands into create, update and delete
    expect(created.$permissions).toEqual([
      'read("any")',
      'create("team:desk/manager")',
      'update("team:desk/manager")',
      'delete("team:desk/manager")',
    ]);
    const list = await databases.listCollections({ databaseId, search: id });
    expect(modelProblems('collectionList', list)).toEqual([]);
    expect(list.collections.map((collection) => collection.$id)).toEqual([id]);

    const updated = await databases.updateCollection({
      databaseId,
      collectionId: id,
      name: 'Orders 2',
      enabled: false,
    });
    // permissions are kept when not given; documentSecurity defaults to false, as on Appwrite
    expect(updated).toMatchObject({ name: 'Orders 2', enabled: false, documentSecurity: false });
    expect(updated.$permissions).toEqual(created.$permissions);

    const duplicate = await caught(
      databases.createCollection({ databaseId, collectionId: id, name: 'x' }),
    );
    expect([duplicate.code, duplicate.type]).toEqual([409, 'collection_already_exists']);
    await databases.deleteCollection({ databaseId, collectionId: id });
    const gone = await caught(databases.getCollection({ databaseId, collectionId: id }));
    expect([gone.code, gone.type]).toEqual([404, 'collection_not_found']);
  });

  it('refuses invalid permissions and unknown databases', async () => {
    const invalid = await caught(
      databases.createCollection({
        databaseId,
        collectionId: ID.unique(),
        name: 'x',
        permissions: ['read("nobody:x")'],
      }),
    );
    expect([invalid.code, invalid.type]).toEqual([400, 'general_argument_invalid']);
    const missing = await caught(databases.listCollections({ databaseId: 'no-such-db' }));
    expect([missing.code, missing.type]).toEqual([404, 'database_not_found']);
  });

  it('needs collections.* scopes: users and guests are refused', async () => {
    const response = await raw('GET', `/databases/${databaseId}/collections`, { key: false });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      type: 'general_unauthorized_scope',
      message: 'User (role: guests) missing scopes (["collections.read"])',
    });
  });
});

describe('attributes', () => {
  const ids = () => ({ databaseId, collectionId });
  let collectionId: string;

  beforeAllOnTarget(async () => {
    collectionId = await createCollection(databases, databaseId, { attributes: [] });
  });

  it('creates every supported type with 202 and Appwrite’s models', async () => {
    const created = [
      await createAttribute(databases, ids(), {
        type: 'string',
        key: 'name',
        size: 80,
        required: true,
      }),
      await createAttribute(databases, ids(), { type: 'email', key: 'email' }),
      await createAttribute(databases, ids(), {
        type: 'enum',
        key: 'status',
        elements: ['open', 'done'],
        default: 'open',
      }),
      await createAttribute(databases, ids(), { type: 'integer', key: 'count', min: 0, max: 100 }),
      await createAttribute(databases, ids(), { type: 'float', key: 'price', default: 1.5 }),
      await createAttribute(databases, ids(), { type: 'boolean', key: 'active', default: true }),
      await createAttribute(databases, ids(), { type: 'datetime', key: 'at' }),
      await createAttribute(databases, ids(), {
        type: 'string',
        key: 'tags',
        size: 20,
        array: true,
      }),
    ];
    const models = [
      'attributeString',
      'attributeEmail',
      'attributeEnum',
      'attributeInteger',
      'attributeFloat',
      'attributeBoolean',
      'attributeDatetime',
      'attributeString',
    ];
    created.forEach((attribute, i) => expect(modelProblems(models[i]!, attribute)).toEqual([]));
    expect(created[0]).toMatchObject({
      key: 'name',
      type: 'string',
      size: 80,
      required: true,
      status: 'available',
    });
    expect(created[1]).toMatchObject({ type: 'string', format: 'email' });
    expect(created[2]).toMatchObject({
      type: 'string',
      format: 'enum',
      elements: ['open', 'done'],
      default: 'open',
    });
    expect(created[3]).toMatchObject({ type: 'integer', min: 0, max: 100 });
    expect(created[4]).toMatchObject({ type: 'double', default: 1.5 });
    expect(created[6]).toMatchObject({ type: 'datetime', format: 'datetime' });
    expect(created[7]).toMatchObject({ array: true });

    const response = await raw(
      'POST',
      `/databases/${databaseId}/collections/${collectionId}/attributes/integer`,
      { body: JSON.stringify({ key: 'unbounded', required: false }) },
    );
    expect(response.status).toBe(202);
    // Appwrite reports PHP's integer limits for unset bounds
    expect((await databases.getAttribute({ ...ids(), key: 'unbounded' })) as unknown).toMatchObject(
      {
        min: -9223372036854775808n,
        max: 9223372036854775807n,
      },
    );

    const list = await databases.listAttributes(ids());
    expect(modelProblems('attributeList', list)).toEqual([]);
    expect(list.attributes.map((attribute) => (attribute as { key: string }).key)).toEqual([
      'name',
      'email',
      'status',
      'count',
      'price',
      'active',
      'at',
      'tags',
      'unbounded',
    ]);
  });

  it('updates an attribute (required, default, bounds, rename) and deletes one', async () => {
    await createAttribute(databases, ids(), { type: 'integer', key: 'stock', min: 0 });
    const updated = await databases.updateIntegerAttribute({
      ...ids(),
      key: 'stock',
      required: false,
      min: 0,
      max: 50,
      xdefault: 5,
      newKey: 'inStock',
    });
    expect(updated).toMatchObject({ key: 'inStock', min: 0, max: 50, default: 5 });
    expect((await caught(databases.getAttribute({ ...ids(), key: 'stock' }))).type).toBe(
      'attribute_not_found',
    );
    const wrongType = await caught(
      databases.updateStringAttribute({
        ...ids(),
        key: 'inStock',
        required: false,
        xdefault: null as never,
      }),
    );
    expect(wrongType.type).toBe('attribute_type_invalid');
    await databases.deleteAttribute({ ...ids(), key: 'inStock' });
    const gone = await caught(databases.getAttribute({ ...ids(), key: 'inStock' }));
    expect([gone.code, gone.type, gone.message]).toEqual([
      404,
      'attribute_not_found',
      "Attribute with the requested key 'inStock' could not be found.",
    ]);
  });

  it('answers Appwrite’s errors for bad attribute definitions', async () => {
    const duplicate = await caught(
      createAttribute(databases, ids(), { type: 'string', key: 'name', size: 10 }),
    );
    expect([duplicate.code, duplicate.type]).toEqual([409, 'attribute_already_exists']);
    const defaultOnRequired = await caught(
      createAttribute(databases, ids(), {
        type: 'string',
        key: 'x1',
        size: 10,
        required: true,
        default: 'a',
      }),
    );
    expect([defaultOnRequired.type, defaultOnRequired.message]).toEqual([
      'attribute_default_unsupported',
      'Cannot set default value for required attribute',
    ]);
    const enumDefault = await caught(
      createAttribute(databases, ids(), { type: 'enum', key: 'x2', elements: ['a'], default: 'b' }),
    );
    expect([enumDefault.type, enumDefault.message]).toEqual([
      'attribute_value_invalid',
      'Default value not found in elements',
    ]);
    const range = await caught(
      createAttribute(databases, ids(), { type: 'integer', key: 'x3', min: 10, max: 1 }),
    );
    expect([range.type, range.message]).toEqual([
      'attribute_value_invalid',
      'Minimum value must be lesser than maximum value',
    ]);
    const badKey = await caught(
      createAttribute(databases, ids(), { type: 'boolean', key: '_hidden' }),
    );
    expect([badKey.code, badKey.type]).toEqual([400, 'general_argument_invalid']);
    const unsupported = await caught(
      databases.createUrlAttribute({ ...ids(), key: 'site', required: false }),
    );
    expect([unsupported.code, unsupported.type]).toEqual([400, 'ATTRIBUTE_TYPE_NOT_SUPPORTED']);
  });
});

describe('indexes', () => {
  let collectionId: string;
  const ids = () => ({ databaseId, collectionId });

  beforeAllOnTarget(async () => {
    collectionId = await createCollection(databases, databaseId, {
      attributes: [
        { type: 'string', key: 'name', size: 80 },
        { type: 'integer', key: 'number' },
        { type: 'string', key: 'code', size: 10 },
        { type: 'string', key: 'tags', size: 10, array: true },
      ],
    });
  });

  it('creates key, unique and fulltext indexes, on system fields too (202, Index models)', async () => {
    const key = await databases.createIndex({
      ...ids(),
      key: 'name_created',
      type: 'key' as never,
      attributes: ['name', '$createdAt'],
      orders: ['asc' as never, 'desc' as never],
    });
    expect(modelProblems('index', key)).toEqual([]);
    expect(key).toMatchObject({
      key: 'name_created',
      type: 'key',
      status: 'available',
      attributes: ['name', '$createdAt'],
      orders: ['asc', 'desc'],
    });
    await databases.createIndex({
      ...ids(),
      key: 'updated',
      type: 'key' as never,
      attributes: ['$updatedAt'],
    });
    await databases.createIndex({
      ...ids(),
      key: 'id_name',
      type: 'key' as never,
      attributes: ['$id', 'name'],
    });
    await databases.createIndex({
      ...ids(),
      key: 'number_u',
      type: 'unique' as never,
      attributes: ['number'],
    });
    await databases.createIndex({
      ...ids(),
      key: 'name_ft',
      type: 'fulltext' as never,
      attributes: ['name'],
    });
    const response = await raw(
      'POST',
      `/databases/${databaseId}/collections/${collectionId}/indexes`,
      {
        body: JSON.stringify({ key: 'code_i', type: 'key', attributes: ['code'] }),
      },
    );
    expect(response.status).toBe(202);

    const list = await databases.listIndexes(ids());
    expect(modelProblems('indexList', list)).toEqual([]);
    expect(list.indexes.map((index) => index.key)).toEqual([
      'name_created',
      'updated',
      'id_name',
      'number_u',
      'name_ft',
      'code_i',
    ]);
    expect(await databases.getIndex({ ...ids(), key: 'number_u' })).toMatchObject({
      type: 'unique',
    });
    const collection = await databases.getCollection(ids());
    expect(modelProblems('collection', collection)).toEqual([]);
    expect(collection.indexes).toHaveLength(6);

    await databases.deleteIndex({ ...ids(), key: 'code_i' });
    const gone = await caught(databases.getIndex({ ...ids(), key: 'code_i' }));
    expect([gone.code, gone.type]).toEqual([404, 'index_not_found']);
  });

  it('enforces unique indexes on documents (409 document_already_exists)', async () => {
    await databases.createDocument({ ...ids(), documentId: 'n1', data: { number: 1 } });
    const duplicate = await caught(
      databases.createDocument({ ...ids(), documentId: 'n2', data: { number: 1 } }),
    );
    expect([duplicate.code, duplicate.type]).toEqual([409, 'document_already_exists']);
    const sameId = await caught(
      databases.createDocument({ ...ids(), documentId: 'n1', data: { number: 2 } }),
    );
    expect([sameId.code, sameId.type, sameId.message]).toEqual([
      409,
      'document_already_exists',
      "Document with the requested ID 'n1' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
    ]);
  });

  it('reports a unique index over duplicate values as failed, as Appwrite’s worker does', async () => {
    await databases.createDocument({ ...ids(), documentId: 'c1', data: { code: 'same' } });
    await databases.createDocument({ ...ids(), documentId: 'c2', data: { code: 'same' } });
    const index = await databases.createIndex({
      ...ids(),
      key: 'code_u',
      type: 'unique' as never,
      attributes: ['code'],
    });
    expect(index.status).toBe('failed');
    expect(index.error).not.toBe('');
  });

  it('answers Appwrite’s errors for bad index definitions', async () => {
    const unknown = await caught(
      databases.createIndex({ ...ids(), key: 'bad1', type: 'key' as never, attributes: ['nope'] }),
    );
    expect([unknown.code, unknown.type]).toEqual([400, 'attribute_unknown']);
    const array = await caught(
      databases.createIndex({ ...ids(), key: 'bad2', type: 'key' as never, attributes: ['tags'] }),
    );
    expect([array.type, array.message]).toEqual([
      'index_invalid',
      'Creating indexes on array attributes is not currently supported.',
    ]);
    const fulltext = await caught(
      databases.createIndex({
        ...ids(),
        key: 'bad3',
        type: 'fulltext' as never,
        attributes: ['number'],
      }),
    );
    expect([fulltext.type, fulltext.message]).toEqual([
      'index_invalid',
      'Attribute "number" cannot be part of a fulltext index, must be of type string',
    ]);
    const duplicate = await caught(
      databases.createIndex({
        ...ids(),
        key: 'name_created',
        type: 'key' as never,
        attributes: ['code'],
      }),
    );
    expect([duplicate.code, duplicate.type]).toEqual([409, 'index_already_exists']);
  });
});

describe('the provisioned Livedesk schema', () => {
  it('exists with the orders collection, its attributes and indexes', async () => {
    const orders = await new Databases(serverClient()).getCollection({
      databaseId: 'livedesk',
      collectionId: 'orders',
    });
    expect(modelProblems('collection', orders)).toEqual([]);
    expect(orders.documentSecurity).toBe(true);
    expect(orders.indexes.map((index) => index.key)).toContain('status_created');
    expect(orders.attributes.every((attribute) => attribute.status === 'available')).toBe(true);
  });
});

describe('the OpenAPI checker', () => {
  it('reports missing and mistyped properties', () => {
    expect(modelProblems('document', { $id: 1, $sequence: 2 })).toEqual(
      expect.arrayContaining([
        'document.$collectionId: missing',
        'document.$id: integer, expected string',
        'document.$sequence: integer, expected string',
      ]),
    );
  });
});
