import { Channel, Databases as WebDatabases } from 'appwrite';
import { Databases, Permission, Query, Role, TablesDB } from 'node-appwrite';
import { afterEach, describe, expect, it } from 'vitest';
import { installBrowserGlobals, sleep, until } from '../support/browser.ts';
import { backend, beforeAllOnTarget, serverClient } from '../support/clients.ts';
import { caught, createCollection, raw, scratchDatabase } from '../support/databases.ts';
import { closeAll, createWebUser, listen, realtimeFor } from '../support/realtime.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import type { BackendConnection } from '../targets/types.ts';

installBrowserGlobals();

// Appwrite 1.9's database transactions, as tests/e2e/Services/Databases/Transactions/
// TransactionsBase.php and TransactionPermissionsBase.php (appwrite/appwrite 1.9.6) assert them:
// states, ttl, the 100-operation limit, staging through createOperations and the document routes,
// reads through a transaction, commit, rollback, conflicts, expiry, ownership, events after the
// commit only — and a commit that stays all or nothing across kill -9.

/** Operations of `createOperations` on one collection. */
function op(
  ids: { databaseId: string; collectionId: string },
  action: string,
  documentId: string | null,
  data?: unknown,
): object {
  return {
    action,
    ...ids,
    ...(documentId === null ? {} : { documentId }),
    ...(data === undefined ? {} : { data }),
  };
}

describe('database transactions', () => {
  let databases: Databases;
  let databaseId: string;
  let collectionId: string;
  const ids = () => ({ databaseId, collectionId });

  beforeAllOnTarget(async () => {
    ({ databases, databaseId } = await scratchDatabase());
    collectionId = await createCollection(databases, databaseId, {
      permissions: [
        Permission.read(Role.users()),
        Permission.create(Role.users()),
        Permission.update(Role.users()),
        Permission.delete(Role.users()),
      ],
      attributes: [
        { type: 'string', key: 'name', size: 40 },
        { type: 'integer', key: 'counter', min: 0, max: 1_000_000 },
        { type: 'string', key: 'group', size: 10 },
      ],
      indexes: [{ key: 'name_u', type: 'unique', attributes: ['name'] }],
    });
  });
  afterEach(closeAll);

  it('creates pending transactions with a ttl of 60..3600 s (default 300)', async () => {
    const transaction = await databases.createTransaction();
    expect(transaction).toMatchObject({ status: 'pending', operations: 0 });
    const seconds = (Date.parse(transaction.expiresAt) - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(290);
    expect(seconds).toBeLessThan(310);
    const long = await databases.createTransaction({ ttl: 900 });
    expect((Date.parse(long.expiresAt) - Date.now()) / 1000).toBeGreaterThan(890);
    for (const ttl of [30, 4000]) {
      const error = await caught(databases.createTransaction({ ttl }));
      expect([error.code, error.type]).toEqual([400, 'general_argument_invalid']);
    }
    expect((await databases.getTransaction({ transactionId: long.$id })).status).toBe('pending');
    const listed = await databases.listTransactions({
      queries: [Query.equal('status', 'pending'), Query.limit(5000)],
    });
    expect(listed.transactions.map((item) => item.$id)).toContain(long.$id);
    await databases.deleteTransaction({ transactionId: long.$id });
    const gone = await caught(databases.getTransaction({ transactionId: long.$id }));
    expect([gone.code, gone.type]).toEqual([404, 'transaction_not_found']);
  });

  it('stages operations, commits them in order, and applies nothing on rollback', async () => {
    const transaction = await databases.createTransaction();
    const staged = await databases.createOperations({
      transactionId: transaction.$id,
      operations: [
        op(ids(), 'create', 'c1', { name: 'commit-1', counter: 1 }),
        op(ids(), 'create', 'c2', { name: 'commit-2', counter: 2 }),
      ],
    });
    expect(staged.operations).toBe(2);
    const more = await databases.createOperations({
      transactionId: transaction.$id,
      operations: [op(ids(), 'update', 'c1', { counter: 10 })],
    });
    expect(more.operations).toBe(3);
    // Nothing is visible before the commit.
    expect((await caught(databases.getDocument({ ...ids(), documentId: 'c1' }))).code).toBe(404);
    const committed = await databases.updateTransaction({
      transactionId: transaction.$id,
      commit: true,
    });
    expect(committed.status).toBe('committed');
    expect((await databases.getDocument({ ...ids(), documentId: 'c1' })).counter).toBe(10);
    expect((await databases.getDocument({ ...ids(), documentId: 'c2' })).counter).toBe(2);

    const rolled = await databases.createTransaction();
    await databases.createOperations({
      transactionId: rolled.$id,
      operations: [op(ids(), 'create', 'r1', { name: 'rolled-1' })],
    });
    const back = await databases.updateTransaction({ transactionId: rolled.$id, rollback: true });
    expect(back.status).toBe('failed');
    expect((await caught(databases.getDocument({ ...ids(), documentId: 'r1' }))).code).toBe(404);

    const empty = await databases.createTransaction();
    expect(
      (await databases.updateTransaction({ transactionId: empty.$id, commit: true })).status,
    ).toBe('committed');
  });

  it('refuses malformed operations, commits and rollbacks with 400 (and unknown ones with 404)', async () => {
    const transaction = await databases.createTransaction();
    const id = { transactionId: transaction.$id };
    const bad: unknown[] = [
      [op(ids(), 'invalidAction', 'x', { name: 'x' })],
      [{ databaseId, collectionId, documentId: 'x', data: { name: 'x' } }],
      [{ action: 'create', collectionId, documentId: 'x', data: { name: 'x' } }],
      [{ action: 'create', databaseId, documentId: 'x', data: { name: 'x' } }],
      [op(ids(), 'create', null, { name: 'x' })],
      [op(ids(), 'create', 'x')],
      [op(ids(), 'bulkCreate', null, 'not an array')],
      [op(ids(), 'bulkUpdate', null, { data: { name: 'y' } })],
      [op(ids(), 'bulkUpdate', null, { queries: 'not an array', data: { name: 'y' } })],
      [op(ids(), 'bulkDelete', null, [])],
      [op(ids(), 'increment', 'x', { value: 1 })],
      [op(ids(), 'decrement', 'x', { attribute: 'counter', value: 'not a number' })],
      [],
      'not an array',
    ];
    for (const operations of bad) {
      const response = await raw('POST', `/databases/transactions/${transaction.$id}/operations`, {
        body: JSON.stringify({ operations }),
      });
      expect([JSON.stringify(operations), response.status]).toEqual([
        JSON.stringify(operations),
        400,
      ]);
    }
    expect((await databases.getTransaction(id)).operations).toBe(0);
    const neither = await raw('PATCH', `/databases/transactions/${transaction.$id}`, {
      body: '{}',
    });
    expect([neither.status, neither.body.message]).toEqual([
      400,
      'Either commit or rollback must be true',
    ]);
    const both = await caught(databases.updateTransaction({ ...id, commit: true, rollback: true }));
    expect([both.code, both.message]).toEqual([400, 'Cannot commit and rollback at the same time']);
    const unknown = await caught(
      databases.updateTransaction({ transactionId: 'invalid_id', commit: true }),
    );
    expect(unknown.code).toBe(404);
    for (const missing of [
      op({ databaseId: 'nonExistentDatabase', collectionId: 'c' }, 'create', 'x', { name: 'x' }),
      op({ databaseId, collectionId: 'nonExistentCollection' }, 'create', 'x', { name: 'x' }),
      op(ids(), 'update', 'no-such-document', { name: 'x' }),
      op(ids(), 'delete', 'no-such-document'),
      op(ids(), 'increment', 'no-such-document', { attribute: 'counter' }),
    ]) {
      const error = await caught(databases.createOperations({ ...id, operations: [missing] }));
      expect(error.code).toBe(404);
    }
    // An update of a document created earlier in the same call is fine.
    await databases.createOperations({
      ...id,
      operations: [
        op(ids(), 'create', 'dep', { name: 'dependent' }),
        op(ids(), 'update', 'dep', { counter: 3 }),
      ],
    });
    await databases.updateTransaction({ ...id, commit: true });
    for (const decision of [{ commit: true }, { rollback: true }]) {
      const again = await caught(databases.updateTransaction({ ...id, ...decision }));
      expect([again.code, again.type]).toEqual([400, 'transaction_not_ready']);
    }
    const late = await caught(
      databases.createOperations({ ...id, operations: [op(ids(), 'create', 'late', {})] }),
    );
    expect([late.code, late.type, late.message]).toEqual([
      400,
      'general_bad_request',
      'Invalid or non‑pending transaction',
    ]);
  });

  it('holds at most 100 operations', async () => {
    const transaction = await databases.createTransaction();
    const batch = (from: number) =>
      Array.from({ length: 50 }, (_, i) =>
        op(ids(), 'create', `lim${from + i}`, { name: `limit-${from + i}` }),
      );
    expect(
      (await databases.createOperations({ transactionId: transaction.$id, operations: batch(0) }))
        .operations,
    ).toBe(50);
    expect(
      (await databases.createOperations({ transactionId: transaction.$id, operations: batch(50) }))
        .operations,
    ).toBe(100);
    const over = await caught(
      databases.createOperations({
        transactionId: transaction.$id,
        operations: [op(ids(), 'create', 'lim100', { name: 'overflow' })],
      }),
    );
    expect([over.code, over.type, over.message]).toEqual([
      400,
      'transaction_limit_exceeded',
      'Transaction already has 100 operations, adding 1 would exceed the maximum of 100',
    ]);
    const viaRoute = await caught(
      databases.createDocument({
        ...ids(),
        documentId: 'lim101',
        data: { name: 'overflow-2' },
        transactionId: transaction.$id,
      }),
    );
    expect(viaRoute.type).toBe('transaction_limit_exceeded');
    await databases.updateTransaction({ transactionId: transaction.$id, commit: true });
    const made = await databases.listDocuments({
      ...ids(),
      queries: [Query.startsWith('name', 'limit-'), Query.limit(1)],
    });
    expect(made.total).toBe(100);
  });

  it('stages through the document routes, answers placeholders, and reads through the transaction', async () => {
    await databases.createDocument({ ...ids(), documentId: 'rt-old', data: { name: 'rt-old' } });
    await databases.createDocument({ ...ids(), documentId: 'rt-gone', data: { name: 'rt-gone' } });
    const user = await createWebUser('Stager');
    const web = new WebDatabases(user.client);
    const transaction = await web.createTransaction();
    const transactionId = transaction.$id;
    const created = await web.createDocument({
      ...ids(),
      documentId: 'rt-new',
      data: { name: 'rt-new', counter: 1 },
      transactionId,
    });
    expect(created).toMatchObject({ $id: 'rt-new', name: 'rt-new', $collectionId: collectionId });
    const updated = await web.updateDocument({
      ...ids(),
      documentId: 'rt-old',
      data: { counter: 7 },
      transactionId,
    });
    expect(updated).toMatchObject({ $id: 'rt-old', name: 'rt-old', counter: 7 });
    const upsertResponse = await raw(
      'PUT',
      `/databases/${databaseId}/collections/${collectionId}/documents/rt-up`,
      {
        key: false,
        headers: { 'x-appwrite-session': user.secret },
        body: JSON.stringify({ data: { name: 'rt-up' }, transactionId }),
      },
    );
    expect(upsertResponse.status).toBe(201);
    await web.deleteDocument({ ...ids(), documentId: 'rt-gone', transactionId });
    expect((await web.getTransaction({ transactionId })).operations).toBe(4);

    // Outside the transaction nothing changed; through it, everything did.
    expect((await caught(web.getDocument({ ...ids(), documentId: 'rt-new' }))).code).toBe(404);
    expect((await web.getDocument({ ...ids(), documentId: 'rt-old' })).counter).toBeNull();
    expect((await web.getDocument({ ...ids(), documentId: 'rt-new', transactionId })).counter).toBe(
      1,
    );
    expect((await web.getDocument({ ...ids(), documentId: 'rt-old', transactionId })).counter).toBe(
      7,
    );
    expect(
      (await caught(web.getDocument({ ...ids(), documentId: 'rt-gone', transactionId }))).code,
    ).toBe(404);
    const prefix = [Query.startsWith('name', 'rt-'), Query.orderAsc('name')];
    const through = await web.listDocuments({ ...ids(), queries: prefix, transactionId });
    expect(through.documents.map((document) => document.$id)).toEqual([
      'rt-new',
      'rt-old',
      'rt-up',
    ]);
    expect(through.total).toBe(3);
    const outside = await web.listDocuments({ ...ids(), queries: prefix });
    expect(outside.documents.map((document) => document.$id)).toEqual(['rt-gone', 'rt-old']);

    await web.updateTransaction({ transactionId, commit: true });
    const after = await web.listDocuments({ ...ids(), queries: prefix });
    expect(after.documents.map((document) => [document.$id, document.counter])).toEqual([
      ['rt-new', 1],
      ['rt-old', 7],
      ['rt-up', null],
    ]);
    // A finished transaction's id falls back to the committed data.
    expect((await web.getDocument({ ...ids(), documentId: 'rt-old', transactionId })).counter).toBe(
      7,
    );
  });

  it('fails a commit whose document changed after staging: 409 transaction_conflict, nothing applied', async () => {
    await databases.createDocument({
      ...ids(),
      documentId: 'shared',
      data: { name: 'shared', counter: 100 },
    });
    const first = await databases.createTransaction();
    const second = await databases.createTransaction();
    await databases.createOperations({
      transactionId: first.$id,
      operations: [op(ids(), 'update', 'shared', { counter: 200 })],
    });
    await databases.createOperations({
      transactionId: second.$id,
      operations: [
        op(ids(), 'create', 'second-new', { name: 'second-new' }),
        op(ids(), 'update', 'shared', { counter: 300 }),
      ],
    });
    await databases.updateTransaction({ transactionId: first.$id, commit: true });
    const conflict = await caught(
      databases.updateTransaction({ transactionId: second.$id, commit: true }),
    );
    expect([conflict.code, conflict.type]).toEqual([409, 'transaction_conflict']);
    expect((await databases.getDocument({ ...ids(), documentId: 'shared' })).counter).toBe(200);
    expect((await caught(databases.getDocument({ ...ids(), documentId: 'second-new' }))).code).toBe(
      404,
    );
    expect((await databases.getTransaction({ transactionId: second.$id })).status).toBe('failed');

    // A duplicate is a conflict too.
    const duplicate = await databases.createTransaction();
    await databases.createOperations({
      transactionId: duplicate.$id,
      operations: [op(ids(), 'create', 'dup-of-shared', { name: 'shared' })],
    });
    const taken = await caught(
      databases.updateTransaction({ transactionId: duplicate.$id, commit: true }),
    );
    expect([taken.code, taken.type]).toEqual([409, 'transaction_conflict']);

    // A document deleted meanwhile: 404 document_not_found, status failed.
    await databases.createDocument({ ...ids(), documentId: 'doomed', data: { name: 'doomed' } });
    const late = await databases.createTransaction();
    await databases.createOperations({
      transactionId: late.$id,
      operations: [op(ids(), 'update', 'doomed', { counter: 1 })],
    });
    await databases.deleteDocument({ ...ids(), documentId: 'doomed' });
    const deleted = await caught(
      databases.updateTransaction({ transactionId: late.$id, commit: true }),
    );
    expect([deleted.code, deleted.type]).toEqual([404, 'document_not_found']);
    expect((await databases.getTransaction({ transactionId: late.$id })).status).toBe('failed');

    // A document the transaction wrote itself earlier is not a conflict.
    const own = await databases.createTransaction();
    await databases.createOperations({
      transactionId: own.$id,
      operations: [
        op(ids(), 'update', 'shared', { counter: 201 }),
        op(ids(), 'update', 'shared', { counter: 202 }),
      ],
    });
    await databases.updateTransaction({ transactionId: own.$id, commit: true });
    expect((await databases.getDocument({ ...ids(), documentId: 'shared' })).counter).toBe(202);
  });

  it('increments without a conflict check: +10 and +5 from two transactions give +15', async () => {
    await databases.createDocument({
      ...ids(),
      documentId: 'count',
      data: { name: 'count', counter: 0 },
    });
    const a = await databases.createTransaction();
    const b = await databases.createTransaction();
    await databases.createOperations({
      transactionId: a.$id,
      operations: [op(ids(), 'increment', 'count', { attribute: 'counter', value: 10 })],
    });
    await databases.incrementDocumentAttribute({
      ...ids(),
      documentId: 'count',
      attribute: 'counter',
      value: 5,
      transactionId: b.$id,
    });
    await databases.updateTransaction({ transactionId: a.$id, commit: true });
    await databases.updateTransaction({ transactionId: b.$id, commit: true });
    expect((await databases.getDocument({ ...ids(), documentId: 'count' })).counter).toBe(15);
    // Bounds are checked at commit.
    const c = await databases.createTransaction();
    await databases.createOperations({
      transactionId: c.$id,
      operations: [op(ids(), 'decrement', 'count', { attribute: 'counter', value: 20, min: 0 })],
    });
    const below = await caught(databases.updateTransaction({ transactionId: c.$id, commit: true }));
    expect([below.code, below.type]).toEqual([400, 'attribute_limit_exceeded']);
  });

  it('runs bulk operations in order, each seeing the ones before it', async () => {
    const transaction = await databases.createTransaction();
    await databases.createOperations({
      transactionId: transaction.$id,
      operations: [
        op(
          ids(),
          'bulkCreate',
          null,
          Array.from({ length: 5 }, (_, i) => ({ $id: `bk${i}`, name: `bulk-${i}`, group: 'bk' })),
        ),
        op(ids(), 'bulkUpdate', null, {
          data: { counter: 9 },
          queries: [Query.equal('group', 'bk')],
        }),
        op(ids(), 'bulkDelete', null, { queries: [Query.equal('name', 'bulk-4')] }),
        op(ids(), 'bulkUpsert', null, [{ $id: 'bk0', name: 'bulk-0', group: 'bk', counter: 1 }]),
      ],
    });
    await databases.updateDocuments({
      ...ids(),
      data: { counter: 8 },
      queries: [Query.equal('name', 'bulk-3')],
      transactionId: transaction.$id,
    });
    await databases.updateTransaction({ transactionId: transaction.$id, commit: true });
    const result = await databases.listDocuments({
      ...ids(),
      queries: [Query.equal('group', 'bk'), Query.orderAsc('name')],
    });
    expect(result.documents.map((document) => [document.$id, document.counter])).toEqual([
      ['bk0', 1],
      ['bk1', 9],
      ['bk2', 9],
      ['bk3', 8],
    ]);
  });

  it('keeps user transactions to their user; checks permissions when staging', async () => {
    const ana = await createWebUser('Ana');
    const ben = await createWebUser('Ben');
    const anaDb = new WebDatabases(ana.client);
    const benDb = new WebDatabases(ben.client);
    const transaction = await anaDb.createTransaction();
    const transactionId = transaction.$id;
    for (const call of [
      () => benDb.getTransaction({ transactionId }),
      () => benDb.updateTransaction({ transactionId, commit: true }),
      () => benDb.deleteTransaction({ transactionId }),
      () =>
        benDb.createOperations({
          transactionId,
          operations: [op(ids(), 'create', 'ben', { name: 'ben' })],
        }),
    ]) {
      const error = await caught(call());
      expect([error.code, error.type]).toEqual([404, 'transaction_not_found']);
    }
    expect((await benDb.listTransactions()).transactions.map((item) => item.$id)).not.toContain(
      transactionId,
    );
    expect((await anaDb.listTransactions()).transactions.map((item) => item.$id)).toEqual([
      transactionId,
    ]);
    // API keys see every transaction.
    expect((await databases.getTransaction({ transactionId })).status).toBe('pending');

    const bulk = await caught(
      anaDb.createOperations({
        transactionId,
        operations: [op(ids(), 'bulkCreate', null, [{ name: 'no' }])],
      }),
    );
    expect([bulk.code, bulk.type]).toEqual([401, 'user_unauthorized']);
    const foreignRole = await caught(
      anaDb.createOperations({
        transactionId,
        operations: [
          op(ids(), 'create', 'ana-doc', {
            name: 'ana-doc',
            $permissions: [Permission.read(Role.user(ben.userId))],
          }),
        ],
      }),
    );
    expect(foreignRole.code).toBe(401);
    expect(foreignRole.message).toMatch(/^Permissions must be one of: \(/);

    const { databases: admin, databaseId: closedDb } = await scratchDatabase();
    const closed = await createCollection(admin, closedDb, {
      permissions: [Permission.read(Role.users())],
      attributes: [{ type: 'string', key: 'name', size: 10 }],
    });
    const refused = await caught(
      anaDb.createOperations({
        transactionId,
        operations: [
          op({ databaseId: closedDb, collectionId: closed }, 'create', 'x', { name: 'x' }),
        ],
      }),
    );
    expect([refused.code, refused.type]).toEqual([401, 'user_unauthorized']);
    expect((await anaDb.getTransaction({ transactionId })).operations).toBe(0);
  });

  it('lets a document permission stand in for the collection one; checks it again at commit', async () => {
    const ana = await createWebUser('Ana Doc');
    const ben = await createWebUser('Ben Doc');
    const { databases: admin, databaseId: secureDb } = await scratchDatabase();
    const secure = await createCollection(admin, secureDb, {
      permissions: [Permission.read(Role.users())],
      documentSecurity: true,
      attributes: [{ type: 'integer', key: 'counter' }],
    });
    const target = { databaseId: secureDb, collectionId: secure };
    await admin.createDocument({
      ...target,
      documentId: 'owned',
      data: { counter: 0 },
      permissions: [Permission.update(Role.user(ana.userId))],
    });
    const anaDb = new WebDatabases(ana.client);
    const mine = await anaDb.createTransaction();
    await anaDb.createOperations({
      transactionId: mine.$id,
      operations: [op(target, 'update', 'owned', { counter: 1 })],
    });
    await anaDb.updateTransaction({ transactionId: mine.$id, commit: true });
    expect((await admin.getDocument({ ...target, documentId: 'owned' })).counter).toBe(1);

    // Ben may read but not update: createOperations refuses at once; a staged route call is
    // refused at commit (401 user_unauthorized, the transaction left committing, as on Appwrite).
    const benDb = new WebDatabases(ben.client);
    const his = await benDb.createTransaction();
    const direct = await caught(
      benDb.createOperations({
        transactionId: his.$id,
        operations: [op(target, 'update', 'owned', { counter: 2 })],
      }),
    );
    expect([direct.code, direct.type]).toEqual([401, 'user_unauthorized']);
    await benDb.updateDocument({
      ...target,
      documentId: 'owned',
      data: { counter: 3 },
      transactionId: his.$id,
    });
    const refused = await caught(benDb.updateTransaction({ transactionId: his.$id, commit: true }));
    expect([refused.code, refused.type]).toEqual([401, 'user_unauthorized']);
    expect((await benDb.getTransaction({ transactionId: his.$id })).status).toBe('committing');
    expect((await admin.getDocument({ ...target, documentId: 'owned' })).counter).toBe(1);
  });

  /** A new web user listening to the collection's document events. */
  async function listenToDocuments(name: string) {
    const user = await createWebUser(name);
    return listen(
      realtimeFor(user.client),
      Channel.database(databaseId).collection(collectionId).document().toString(),
    );
  }

  /** An event's document id and action (`create`, `update`, `delete`). */
  const idAndAction = (event: { payload: unknown; events: string[] }) => [
    (event.payload as { $id: string }).$id,
    event.events[0]!.split('.').pop(),
  ];

  it('publishes events only after the commit: one per single operation, upsert as .update, bulk none', async () => {
    await databases.createDocument({ ...ids(), documentId: 'ev-del', data: { name: 'ev-del' } });
    await databases.createDocument({ ...ids(), documentId: 'ev-up', data: { name: 'ev-up' } });
    const listening = await listenToDocuments('Listener');
    const transaction = await databases.createTransaction();
    await databases.createOperations({
      transactionId: transaction.$id,
      operations: [
        op(ids(), 'create', 'ev1', { name: 'ev1' }),
        op(ids(), 'create', 'ev2', { name: 'ev2' }),
        op(ids(), 'create', 'ev3', { name: 'ev3' }),
        op(ids(), 'upsert', 'ev-up', { name: 'ev-up', counter: 4 }),
        op(ids(), 'delete', 'ev-del'),
        op(ids(), 'bulkCreate', null, [{ $id: 'ev-bulk', name: 'ev-bulk' }]),
      ],
    });
    await sleep(300);
    expect(listening.inbox).toHaveLength(0);
    const rolled = await databases.createTransaction();
    await databases.createOperations({
      transactionId: rolled.$id,
      operations: [op(ids(), 'create', 'ev-rolled', { name: 'ev-rolled' })],
    });
    await databases.updateTransaction({ transactionId: rolled.$id, rollback: true });
    await databases.updateTransaction({ transactionId: transaction.$id, commit: true });
    await until(() => listening.inbox.length >= 5, 5_000, 'five events');
    await sleep(300);
    const seen = listening.inbox.map(idAndAction);
    expect(seen).toEqual([
      ['ev1', 'create'],
      ['ev2', 'create'],
      ['ev3', 'create'],
      ['ev-up', 'update'],
      ['ev-del', 'delete'],
    ]);
    expect(listening.inbox[3]!.payload).toMatchObject({ counter: 4 });
  });

  it('publishes each operation with its document as committed: changed later, the later copy; deleted later, none', async () => {
    const listening = await listenToDocuments('Committed listener');
    const transaction = await databases.createTransaction();
    await databases.createOperations({
      transactionId: transaction.$id,
      operations: [
        op(ids(), 'create', 'cm-twice', { name: 'cm-twice', counter: 1 }),
        op(ids(), 'create', 'cm-gone', { name: 'cm-gone' }),
        op(ids(), 'update', 'cm-twice', { counter: 7 }),
        op(ids(), 'delete', 'cm-gone'),
        op(ids(), 'create', 'cm-once', { name: 'cm-once', counter: 2 }),
      ],
    });
    await databases.updateTransaction({ transactionId: transaction.$id, commit: true });
    await until(() => listening.inbox.length >= 4, 5_000, 'four events');
    await sleep(300);
    const seen = listening.inbox.map((event) => [
      ...idAndAction(event),
      (event.payload as { counter?: number }).counter ?? null,
    ]);
    expect(seen).toEqual([
      ['cm-twice', 'create', 7],
      ['cm-twice', 'update', 7],
      ['cm-gone', 'delete', null],
      ['cm-once', 'create', 2],
    ]);
  });

  it('serves the TablesDB transaction routes over the same transactions', async () => {
    const tables = new TablesDB(serverClient());
    const transaction = await tables.createTransaction();
    await tables.createOperations({
      transactionId: transaction.$id,
      operations: [
        {
          action: 'create',
          databaseId,
          tableId: collectionId,
          rowId: 'tdb1',
          data: { name: 'tdb1' },
        },
        {
          action: 'increment',
          databaseId,
          tableId: collectionId,
          rowId: 'tdb1',
          data: { column: 'counter', value: 2 },
        },
      ],
    });
    expect((await databases.getTransaction({ transactionId: transaction.$id })).operations).toBe(2);
    await tables.updateTransaction({ transactionId: transaction.$id, commit: true });
    expect((await databases.getDocument({ ...ids(), documentId: 'tdb1' })).counter).toBe(2);
  });
});

/** Moves the backend's clock of expiries forward (test switch). */
async function advanceClock(connection: BackendConnection, seconds: number): Promise<void> {
  const response = await fetch(`${connection.endpoint.replace(/\/v1$/, '')}/_emulator/clock`, {
    method: 'POST',
    headers: { 'x-appwrite-key': connection.apiKey },
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  expect(response.status).toBe(200);
}

/** What a started backend printed lately (local process or container). */
async function outputOf(own: object): Promise<string> {
  if ('log' in own) return String(own.log);
  if ('recentOutput' in own)
    return (own as { recentOutput(lines: number): Promise<string> }).recentOutput(50);
  return '';
}

async function ownSchema(connection: BackendConnection) {
  const databases = new Databases(serverClient(connection));
  await databases.create({ databaseId: 'tx', name: 'Transactions' });
  const collectionId = await createCollection(databases, 'tx', {
    id: 'items',
    attributes: [{ type: 'string', key: 'name', size: 40, required: true }],
  });
  return { databases, ids: { databaseId: 'tx', collectionId } };
}

describe('database transactions across time and crashes', () => {
  it('expires: staging and committing an expired transaction answer 410 transaction_expired', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const { databases, ids } = await ownSchema(own);
    const transaction = await databases.createTransaction({ ttl: 60 });
    await databases.createOperations({
      transactionId: transaction.$id,
      operations: [op(ids, 'create', 'e1', { name: 'e1' })],
    });
    await advanceClock(own, 61);
    const staging = await caught(
      databases.createOperations({
        transactionId: transaction.$id,
        operations: [op(ids, 'create', 'e2', { name: 'e2' })],
      }),
    );
    expect([staging.code, staging.type]).toEqual([410, 'transaction_expired']);
    const viaRoute = await caught(
      databases.createDocument({
        ...ids,
        documentId: 'e3',
        data: { name: 'e3' },
        transactionId: transaction.$id,
      }),
    );
    expect(viaRoute.code).toBe(410);
    const commit = await caught(
      databases.updateTransaction({ transactionId: transaction.$id, commit: true }),
    );
    expect([commit.code, commit.type]).toEqual([410, 'transaction_expired']);
    expect((await databases.getTransaction({ transactionId: transaction.$id })).status).toBe(
      'pending',
    );
    expect((await databases.listDocuments(ids)).total).toBe(0);
  });

  it('kill -9 during a commit applies nothing; an acknowledged commit survives kill -9', async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const { databases, ids } = await ownSchema(own);
    const operations = Array.from({ length: 60 }, (_, i) =>
      op(ids, 'create', `k${i}`, { name: `kill-${i}` }),
    );
    const interrupted = await databases.createTransaction();
    await databases.createOperations({ transactionId: interrupted.$id, operations });
    const arm = await fetch(
      `${own.endpoint.replace(/\/v1$/, '')}/_emulator/databases/pause-commit`,
      {
        method: 'POST',
        headers: { 'x-appwrite-key': own.apiKey },
        body: JSON.stringify({ afterOperations: 30, seconds: 60 }),
      },
    );
    expect(arm.status).toBe(200);
    const pending = databases
      .updateTransaction({ transactionId: interrupted.$id, commit: true })
      .catch((error: unknown) => error);
    const marker = `commit of transaction ${interrupted.$id} paused after 30 of 60 operations`;
    const deadline = Date.now() + 20_000;
    while (!(await outputOf(own)).includes(marker)) {
      if (Date.now() > deadline) throw new Error(`no "${marker}" in the backend's output`);
      await sleep(50);
    }
    await own.crashAndRestart();
    expect(await pending).toBeInstanceOf(Error);
    expect((await databases.listDocuments(ids)).total).toBe(0);
    expect((await databases.getTransaction({ transactionId: interrupted.$id })).status).toBe(
      'committing',
    );
    const retried = await caught(
      databases.updateTransaction({ transactionId: interrupted.$id, commit: true }),
    );
    expect(retried.type).toBe('transaction_not_ready');

    const acknowledged = await databases.createTransaction();
    await databases.createOperations({
      transactionId: acknowledged.$id,
      operations: operations.map((item, i) => ({ ...item, documentId: `a${i}` })),
    });
    await databases.updateTransaction({ transactionId: acknowledged.$id, commit: true });
    await own.crashAndRestart();
    expect((await databases.listDocuments({ ...ids, queries: [Query.limit(1)] })).total).toBe(60);
    expect((await databases.getTransaction({ transactionId: acknowledged.$id })).status).toBe(
      'committed',
    );
  });
});
