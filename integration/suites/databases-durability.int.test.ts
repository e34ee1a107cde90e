import { Databases, Permission, Query, Role } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { backend, serverClient } from '../support/clients.ts';
import { caught, createCollection } from '../support/databases.ts';
import { startOwnBackend } from '../support/own-backend.ts';

// An acknowledged write is committed to SQLite's WAL before the answer is sent, so it survives the
// process being killed (SIGKILL, no chance to flush or close) and the backend being started again
// on the same data folder: schema (tables, indexes, FTS) and documents alike.
describe('databases survive kill -9', () => {
  it('keeps acknowledged documents, schema and indexes across crashAndRestart()', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const databases = new Databases(serverClient(own));
    await databases.create({ databaseId: 'crash', name: 'Crash' });
    const collectionId = await createCollection(databases, 'crash', {
      id: 'orders',
      permissions: [Permission.read(Role.any())],
      documentSecurity: true,
      attributes: [
        { type: 'integer', key: 'number', required: true },
        { type: 'string', key: 'customer', size: 80, required: true },
      ],
      indexes: [
        { key: 'number_u', type: 'unique', attributes: ['number'] },
        { key: 'customer_ft', type: 'fulltext', attributes: ['customer'] },
      ],
    });
    const ids = { databaseId: 'crash', collectionId };
    await databases.createDocuments({
      ...ids,
      documents: Array.from({ length: 100 }, (_, i) => ({
        $id: `o${i}`,
        number: i,
        customer: `Customer ${i}`,
      })),
    });
    const last = await databases.createDocument({
      ...ids,
      documentId: 'acknowledged',
      data: { number: 1000, customer: 'Zoë Last' },
    });
    await databases.updateDocument({ ...ids, documentId: 'o1', data: { customer: 'Renamed One' } });

    await own.crashAndRestart();

    expect(await databases.getDocument({ ...ids, documentId: 'acknowledged' })).toEqual(last);
    expect((await databases.getDocument({ ...ids, documentId: 'o1' })).customer).toBe(
      'Renamed One',
    );
    expect((await databases.listDocuments({ ...ids, queries: [Query.limit(1)] })).total).toBe(101);
    const found = await databases.listDocuments({
      ...ids,
      queries: [Query.search('customer', 'zoë')],
    });
    expect(found.documents.map((document) => document.$id)).toEqual(['acknowledged']);
    const duplicate = await caught(
      databases.createDocument({
        ...ids,
        documentId: 'again',
        data: { number: 1000, customer: 'x' },
      }),
    );
    expect(duplicate.type).toBe('document_already_exists');
    const next = await databases.createDocument({
      ...ids,
      documentId: 'after',
      data: { number: 1001, customer: 'After' },
    });
    expect(Number(next.$sequence)).toBeGreaterThan(Number(last.$sequence));
    expect((await databases.getCollection(ids)).indexes.map((index) => index.key)).toEqual([
      'number_u',
      'customer_ft',
    ]);
  });
});
