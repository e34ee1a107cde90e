import { ID, Permission, Query, Role, type Databases, type Models } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { beforeAllOnTarget, createUserClient } from '../support/clients.ts';
import {
  caught,
  createCollection,
  databasesFor,
  raw,
  scratchDatabase,
} from '../support/databases.ts';
import { modelProblems } from '../support/openapi.ts';

let databases: Databases;
let databaseId: string;
let collectionId: string;

const ids = () => ({ databaseId, collectionId });

beforeAllOnTarget(async () => {
  ({ databases, databaseId } = await scratchDatabase());
  collectionId = await createCollection(databases, databaseId, {
    permissions: [Permission.read(Role.users()), Permission.create(Role.users())],
    documentSecurity: true,
    attributes: [
      { type: 'string', key: 'name', size: 10, required: true },
      { type: 'integer', key: 'count', min: 0, max: 100 },
      { type: 'integer', key: 'big' },
      { type: 'float', key: 'price' },
      { type: 'boolean', key: 'active', default: false },
      { type: 'datetime', key: 'at' },
      { type: 'email', key: 'email' },
      { type: 'enum', key: 'status', elements: ['open', 'done'] },
      { type: 'string', key: 'tags', size: 5, array: true },
    ],
  });
});

async function structureError(data: Record<string, unknown>): Promise<[number, string, string]> {
  const error = await caught(databases.createDocument({ ...ids(), documentId: ID.unique(), data }));
  return [error.code, error.type, error.message];
}

describe('validation against attributes', () => {
  it.each([
    [{ name: 'a', foo: 1 }, 'Invalid document structure: Unknown attribute: "foo"'],
    [{ count: 1 }, 'Invalid document structure: Missing required attribute "name"'],
    [
      { name: 'abcdefghijk' },
      'Invalid document structure: Attribute "name" has invalid type. Value must be a valid string and no longer than 10 chars',
    ],
    [
      { name: 42 },
      'Invalid document structure: Attribute "name" has invalid type. Value must be a valid string and no longer than 10 chars',
    ],
    [
      { name: 'a', count: 'many' },
      'Invalid document structure: Attribute "count" has invalid format. Value must be a valid signed 32-bit integer between -2,147,483,648 and 2,147,483,647',
    ],
    [
      { name: 'a', count: 1.5 },
      'Invalid document structure: Attribute "count" has invalid format. Value must be a valid signed 32-bit integer between -2,147,483,648 and 2,147,483,647',
    ],
    [
      { name: 'a', count: 101 },
      'Invalid document structure: Attribute "count" has invalid format. Value must be a valid range between 0 and 100',
    ],
    [
      { name: 'a', big: 2 ** 64 },
      'Invalid document structure: Attribute "big" has invalid format. Value must be a valid signed 64-bit integer between -9,223,372,036,854,775,808 and 9,223,372,036,854,775,808',
    ],
    [
      { name: 'a', price: '1.5' },
      'Invalid document structure: Attribute "price" has invalid format. Value must be a valid float',
    ],
    [
      { name: 'a', active: 'yes' },
      'Invalid document structure: Attribute "active" has invalid type. Value must be a valid boolean',
    ],
    [
      { name: 'a', status: 'maybe' },
      'Invalid document structure: Attribute "status" has invalid format. Value must be one of (open, done)',
    ],
    [
      { name: 'a', email: 'not-an-email' },
      'Invalid document structure: Attribute "email" has invalid format. Value must be a valid email address',
    ],
    [
      { name: 'a', at: 'next tuesday' },
      'Invalid document structure: Attribute "at" has invalid type. Value must be valid date between 1000-01-01 00:00:00 and 9999-12-31 23:59:59.',
    ],
    [{ name: 'a', tags: 'x' }, 'Invalid document structure: Attribute "tags" must be an array'],
    [
      { name: 'a', tags: ['toolong'] },
      `Invalid document structure: Attribute "tags['0']" has invalid type. Value must be a valid string and no longer than 5 chars`,
    ],
  ])('%j → %s', async (data, message) => {
    expect(await structureError(data)).toEqual([400, 'document_invalid_structure', message]);
  });

  it('keeps 64-bit integers exact in queries and responses', async () => {
    // node-appwrite sends and parses integers beyond 2^53 as bigints (json-bigint).
    const created = await databases.createDocument({
      ...ids(),
      documentId: ID.unique(),
      data: { name: 'big', big: 2 ** 60 },
    });
    expect((created as Models.DefaultDocument).big).toBe(2n ** 60n);
    const found = await databases.listDocuments({
      ...ids(),
      queries: [Query.equal('big', [(2n ** 60n) as unknown as number])],
    });
    expect(found.documents.map((document) => document.$id)).toEqual([created.$id]);
  });
});

describe('bad input', () => {
  it('answers malformed JSON with general_argument_invalid, never a 500', async () => {
    const response = await raw(
      'POST',
      `/databases/${databaseId}/collections/${collectionId}/documents`,
      {
        body: '{"documentId": "x", "data": {',
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.type).toBe('general_argument_invalid');
  });

  it('answers an unknown project with project_not_found', async () => {
    const response = await raw(
      'GET',
      `/databases/${databaseId}/collections/${collectionId}/documents`,
      {
        project: 'no-such-project',
      },
    );
    expect([response.status, response.body.type]).toEqual([404, 'project_not_found']);
  });

  it('refuses data given as a non-object and a missing document id', async () => {
    const notJson = await raw(
      'POST',
      `/databases/${databaseId}/collections/${collectionId}/documents`,
      {
        body: JSON.stringify({ documentId: 'x', data: '{not json' }),
      },
    );
    expect([notJson.status, notJson.body.type]).toEqual([400, 'general_argument_invalid']);
    const noId = await raw(
      'POST',
      `/databases/${databaseId}/collections/${collectionId}/documents`,
      {
        body: JSON.stringify({ data: { name: 'a' } }),
      },
    );
    expect([noId.status, noId.body.type, noId.body.message]).toEqual([
      400,
      'document_missing_data',
      'Document ID is required when creating a single document.',
    ]);
    const empty = await raw(
      'POST',
      `/databases/${databaseId}/collections/${collectionId}/documents`,
      {
        body: JSON.stringify({ documentId: 'x', data: {} }),
      },
    );
    expect([empty.status, empty.body.type]).toEqual([400, 'document_missing_data']);
    const badId = await caught(
      databases.createDocument({ ...ids(), documentId: '_bad id', data: { name: 'a' } }),
    );
    expect([badId.code, badId.type]).toEqual([400, 'general_argument_invalid']);
  });

  it('answers unknown databases, collections and documents with their not-found types', async () => {
    expect((await caught(databases.listDocuments({ databaseId: 'nope', collectionId }))).type).toBe(
      'database_not_found',
    );
    expect((await caught(databases.listDocuments({ databaseId, collectionId: 'nope' }))).type).toBe(
      'collection_not_found',
    );
    const missing = await caught(databases.getDocument({ ...ids(), documentId: 'nope' }));
    expect([missing.code, missing.type, missing.message]).toEqual([
      404,
      'document_not_found',
      "Document with the requested ID 'nope' could not be found.",
    ]);
  });
});

describe('document lifecycle', () => {
  it('creates (Document model), gets, updates (merging, PATCH), upserts (PUT) and deletes', async () => {
    const created = await databases.createDocument({
      ...ids(),
      documentId: 'life',
      data: { name: 'Ana', count: 1, tags: ['a'] },
      permissions: [Permission.read(Role.any())],
    });
    expect(modelProblems('document', created)).toEqual([]);
    expect(created).toMatchObject({
      $id: 'life',
      $collectionId: collectionId,
      $databaseId: databaseId,
      $permissions: ['read("any")'],
      name: 'Ana',
      count: 1,
      active: false, // the attribute's default
      tags: ['a'],
      at: null,
    });
    expect(created.$createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect(await databases.getDocument({ ...ids(), documentId: 'life' })).toEqual(created);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await databases.updateDocument({
      ...ids(),
      documentId: 'life',
      data: { count: 2 },
    });
    expect(updated).toMatchObject({
      name: 'Ana',
      count: 2,
      tags: ['a'],
      $createdAt: created.$createdAt,
    });
    expect(updated.$updatedAt > created.$updatedAt).toBe(true);
    expect(updated.$sequence).toBe(created.$sequence);

    const nothing = await caught(databases.updateDocument({ ...ids(), documentId: 'life' }));
    expect([nothing.code, nothing.type]).toEqual([400, 'document_missing_payload']);

    const upserted = await databases.upsertDocument({
      ...ids(),
      documentId: 'life',
      data: { name: 'Ana 2' },
    });
    expect(upserted).toMatchObject({ name: 'Ana 2', count: 2, $permissions: ['read("any")'] });
    const inserted = await databases.upsertDocument({
      ...ids(),
      documentId: 'fresh',
      data: { name: 'New' },
    });
    expect(inserted).toMatchObject({ $id: 'fresh', name: 'New' });

    await databases.deleteDocument({ ...ids(), documentId: 'life' });
    expect((await caught(databases.getDocument({ ...ids(), documentId: 'life' }))).type).toBe(
      'document_not_found',
    );
  });

  it('increments and decrements atomically within bounds', async () => {
    await databases.createDocument({
      ...ids(),
      documentId: 'counter',
      data: { name: 'c', count: 5 },
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        databases.incrementDocumentAttribute({
          ...ids(),
          documentId: 'counter',
          attribute: 'count',
        }),
      ),
    );
    expect(
      results.map((result) => (result as Models.DefaultDocument).count).sort((a, b) => a - b),
    ).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    const down = await databases.decrementDocumentAttribute({
      ...ids(),
      documentId: 'counter',
      attribute: 'count',
      value: 5,
    });
    expect((down as Models.DefaultDocument).count).toBe(10);
    const capped = await caught(
      databases.incrementDocumentAttribute({
        ...ids(),
        documentId: 'counter',
        attribute: 'count',
        value: 5,
        max: 12,
      }),
    );
    expect([capped.code, capped.type, capped.message]).toEqual([
      400,
      'attribute_limit_exceeded',
      'databases "count" has reached the maximum value of 12',
    ]);
    const notNumber = await caught(
      databases.incrementDocumentAttribute({ ...ids(), documentId: 'counter', attribute: 'name' }),
    );
    expect([notNumber.type, notNumber.message]).toEqual([
      'attribute_type_invalid',
      'databases "name" is not a number',
    ]);
  });

  it('refuses a change when the document was updated after X-Appwrite-Timestamp', async () => {
    await databases.createDocument({ ...ids(), documentId: 'stamped', data: { name: 's' } });
    const response = await raw(
      'PATCH',
      `/databases/${databaseId}/collections/${collectionId}/documents/stamped`,
      {
        body: JSON.stringify({ data: { count: 3 } }),
        headers: { 'x-appwrite-timestamp': '2000-01-01T00:00:00.000Z' },
      },
    );
    expect([response.status, response.body.type]).toEqual([409, 'document_update_conflict']);
  });
});

describe('system fields and bulk creation', () => {
  it('lets API keys set $createdAt/$updatedAt and $permissions in bulk documents', async () => {
    const result = await databases.createDocuments({
      ...ids(),
      documents: [
        {
          $id: 'old-1',
          $createdAt: '2024-05-01T10:00:00.000Z',
          $updatedAt: '2024-05-02T10:00:00.000Z',
          $permissions: [Permission.read(Role.user('someone'))],
          name: 'Old',
        },
        { name: 'New' },
      ],
    });
    expect(modelProblems('documentList', result)).toEqual([]);
    expect(result.total).toBe(2);
    expect(result.documents[0]).toMatchObject({
      $id: 'old-1',
      $createdAt: '2024-05-01T10:00:00.000+00:00',
      $updatedAt: '2024-05-02T10:00:00.000+00:00',
      $permissions: ['read("user:someone")'],
    });
    expect(result.documents[1]!.$id).toMatch(/^[0-9a-f]{20}$/);
    expect(Number(result.documents[1]!.$sequence)).toBe(Number(result.documents[0]!.$sequence) + 1);
  });

  it('ignores $createdAt from users and gives them read/update/delete on what they create', async () => {
    const ana = await createUserClient();
    const created = await databasesFor(ana.client).createDocument({
      ...ids(),
      documentId: ID.unique(),
      data: { name: 'Mine', $createdAt: '2000-01-01T00:00:00.000Z' },
    });
    expect(created.$createdAt.startsWith('2000')).toBe(false);
    expect(created.$permissions).toEqual([
      `read("user:${ana.userId}")`,
      `update("user:${ana.userId}")`,
      `delete("user:${ana.userId}")`,
    ]);
  });

  it('refuses bulk creation without an API key, more than 100 documents, and an id taken twice', async () => {
    const ana = await createUserClient();
    const scope = await caught(
      databasesFor(ana.client).createDocuments({ ...ids(), documents: [{ name: 'x' }] }),
    );
    expect([scope.code, scope.type]).toEqual([401, 'general_unauthorized_scope']);
    const tooMany = await caught(
      databases.createDocuments({
        ...ids(),
        documents: Array.from({ length: 101 }, () => ({ name: 'x' })),
      }),
    );
    expect([tooMany.code, tooMany.type, tooMany.message]).toEqual([
      400,
      'general_argument_invalid',
      'Invalid `documents` param: Value must a valid array no longer than 100 items and Value must be a valid JSON string',
    ]);
    const twice = await caught(
      databases.createDocuments({
        ...ids(),
        documents: [
          { $id: 'twin', name: 'a' },
          { $id: 'twin', name: 'b' },
        ],
      }),
    );
    expect([twice.code, twice.type]).toEqual([409, 'document_already_exists']);
    // all or nothing
    expect((await caught(databases.getDocument({ ...ids(), documentId: 'twin' }))).type).toBe(
      'document_not_found',
    );
    const invalid = await caught(
      databases.createDocuments({ ...ids(), documents: [{ name: 'ok' }, { name: 'x', nope: 1 }] }),
    );
    expect(invalid.type).toBe('document_invalid_structure');
  });
});
