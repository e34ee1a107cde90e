import { Channel, Databases as WebDatabases } from 'appwrite';
import type { Databases } from 'node-appwrite';
import { Permission, Query, Role } from 'node-appwrite';
import { afterEach, describe, expect, it } from 'vitest';
import { installBrowserGlobals, sleep, until } from '../support/browser.ts';
import { beforeAllOnTarget } from '../support/clients.ts';
import { caught, createCollection, raw, scratchDatabase } from '../support/databases.ts';
import { closeAll, createWebUser, listen, realtimeFor } from '../support/realtime.ts';

installBrowserGlobals();

// Appwrite 1.9's bulk writes (node-appwrite createDocuments, upsertDocuments, updateDocuments,
// deleteDocuments): API keys only, update and delete by query change every matching document
// while the answer and the events cover the first 100, `total` counts them all.
describe('bulk operations by query', () => {
  let databases: Databases;
  let databaseId: string;
  let collectionId: string;
  const ids = () => ({ databaseId, collectionId });

  beforeAllOnTarget(async () => {
    ({ databases, databaseId } = await scratchDatabase());
    collectionId = await createCollection(databases, databaseId, {
      permissions: [Permission.read(Role.users()), Permission.create(Role.users())],
      attributes: [
        { type: 'integer', key: 'n', required: true },
        { type: 'string', key: 'group', size: 10, required: true },
        { type: 'string', key: 'state', size: 20 },
      ],
      indexes: [{ key: 'n_u', type: 'unique', attributes: ['n'] }],
    });
  });
  afterEach(closeAll);

  async function seed(prefix: string, count: number, group: string, offset: number) {
    for (let start = 0; start < count; start += 100) {
      await databases.createDocuments({
        ...ids(),
        documents: Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
          $id: `${prefix}${start + i}`,
          n: offset + start + i,
          group,
          state: 'new',
        })),
      });
    }
  }

  it('updateDocuments changes every match, answers 100 of them, publishes 100 events', async () => {
    await seed('u', 250, 'upd', 0);
    await seed('x', 10, 'other', 10_000);
    const user = await createWebUser('Watcher');
    const listening = await listen(
      realtimeFor(user.client),
      Channel.database(databaseId).collection(collectionId).document().toString(),
    );
    const result = await databases.updateDocuments({
      ...ids(),
      data: { state: 'done' },
      queries: [Query.equal('group', 'upd')],
    });
    expect(result.total).toBe(250);
    expect(result.documents).toHaveLength(100);
    expect(result.documents.every((document) => document.state === 'done')).toBe(true);
    const done = await databases.listDocuments({
      ...ids(),
      queries: [Query.equal('state', 'done'), Query.limit(1)],
    });
    expect(done.total).toBe(250);
    const untouched = await databases.listDocuments({
      ...ids(),
      queries: [Query.equal('group', 'other'), Query.equal('state', 'new'), Query.limit(1)],
    });
    expect(untouched.total).toBe(10);
    await until(() => listening.inbox.length >= 100, 10_000, '100 update events');
    await sleep(300);
    expect(listening.inbox).toHaveLength(100);
    expect(listening.inbox.every((event) => event.events.some((e) => e.endsWith('.update')))).toBe(
      true,
    );

    // A limit query bounds the change.
    const limited = await databases.updateDocuments({
      ...ids(),
      data: { state: 'limited' },
      queries: [Query.equal('group', 'upd'), Query.orderDesc('n'), Query.limit(5)],
    });
    expect(limited.total).toBe(5);
    expect(limited.documents.map((document) => document.n)).toEqual([249, 248, 247, 246, 245]);
  });

  it('deleteDocuments deletes every match and answers the first 100', async () => {
    await seed('d', 230, 'del', 20_000);
    const result = await databases.deleteDocuments({
      ...ids(),
      queries: [Query.equal('group', 'del')],
    });
    expect(result.total).toBe(230);
    expect(result.documents).toHaveLength(100);
    const left = await databases.listDocuments({
      ...ids(),
      queries: [Query.equal('group', 'del'), Query.limit(1)],
    });
    expect(left.total).toBe(0);
  });

  it('upsertDocuments creates and replaces, answers 200 with every document and .upsert events', async () => {
    await seed('p', 2, 'ups', 30_000);
    const user = await createWebUser('Upsert watcher');
    const listening = await listen(
      realtimeFor(user.client),
      Channel.database(databaseId).collection(collectionId).document().toString(),
    );
    const response = await raw(
      'PUT',
      `/databases/${databaseId}/collections/${collectionId}/documents`,
      {
        body: JSON.stringify({
          documents: [
            { $id: 'p0', n: 30_000, group: 'ups', state: 'replaced' },
            { $id: 'p9', n: 30_009, group: 'ups', state: 'created' },
          ],
        }),
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(2);
    expect((await databases.getDocument({ ...ids(), documentId: 'p0' })).state).toBe('replaced');
    expect((await databases.getDocument({ ...ids(), documentId: 'p9' })).state).toBe('created');
    await until(() => listening.inbox.length >= 2, 5_000, 'two upsert events');
    expect(listening.inbox.every((event) => event.events.some((e) => e.endsWith('.upsert')))).toBe(
      true,
    );
    const sdk = await databases.upsertDocuments({
      ...ids(),
      documents: [{ $id: 'p1', n: 30_001, group: 'ups', state: 'again' }],
    });
    expect(sdk.documents[0]!.state).toBe('again');
  });

  it('refuses sessions, bad input and conflicts without changing anything', async () => {
    await seed('r', 3, 'ref', 40_000);
    const user = await createWebUser('Bulk user');
    const path = `/databases/${databaseId}/collections/${collectionId}/documents`;
    const asUser = { key: false, headers: { 'x-appwrite-session': user.secret } };
    for (const method of ['PATCH', 'PUT', 'DELETE']) {
      const response = await raw(method, path, {
        ...asUser,
        body: JSON.stringify({ data: { state: 'x' }, documents: [{ n: 1, group: 'g' }] }),
      });
      expect([method, response.status, response.body.type]).toEqual([
        method,
        404,
        'database_not_found',
      ]);
    }
    const bulkCreate = await raw('POST', path, {
      ...asUser,
      body: JSON.stringify({ documents: [{ n: 40_100, group: 'ref' }] }),
    });
    expect([bulkCreate.status, bulkCreate.body.type]).toEqual([401, 'general_unauthorized_scope']);
    // The web SDK has no bulk methods; its createDocument from the same session still works.
    await new WebDatabases(user.client).createDocument({
      ...ids(),
      documentId: 'r-web',
      data: { n: 40_101, group: 'ref' },
    });

    const emptyData = await caught(databases.updateDocuments({ ...ids(), data: {} }));
    expect([emptyData.code, emptyData.type]).toEqual([400, 'document_missing_payload']);
    const badQuery = await caught(
      databases.updateDocuments({ ...ids(), data: { state: 'x' }, queries: ['not a query'] }),
    );
    expect([badQuery.code, badQuery.type]).toEqual([400, 'general_query_invalid']);
    const unknownAttribute = await caught(
      databases.deleteDocuments({ ...ids(), queries: [Query.equal('nope', 'x')] }),
    );
    expect(unknownAttribute.type).toBe('general_query_invalid');
    const badPermissions = await caught(
      databases.updateDocuments({
        ...ids(),
        data: { $permissions: ['write("nobody here")'] },
        queries: [Query.equal('group', 'ref')],
      }),
    );
    expect([badPermissions.code, badPermissions.type]).toEqual([400, 'general_bad_request']);
    const tooMany = await caught(
      databases.upsertDocuments({
        ...ids(),
        documents: Array.from({ length: 101 }, (_, i) => ({ n: 50_000 + i, group: 'big' })),
      }),
    );
    expect([tooMany.code, tooMany.type]).toEqual([400, 'general_argument_invalid']);
    // A unique value taken by another document: nothing of the batch is written.
    const duplicate = await caught(
      databases.updateDocuments({
        ...ids(),
        data: { n: 40_000 },
        queries: [Query.equal('group', 'ref')],
      }),
    );
    expect([duplicate.code, duplicate.type]).toEqual([409, 'document_already_exists']);
    const after = await databases.listDocuments({
      ...ids(),
      queries: [Query.equal('group', 'ref'), Query.orderAsc('n')],
    });
    expect(after.documents.map((document) => document.n)).toEqual([40_000, 40_001, 40_002, 40_101]);
  });
});
