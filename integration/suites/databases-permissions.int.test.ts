import { Channel, Databases as WebDatabases } from 'appwrite';
import { ID, Permission, Query, Role, Teams, type Databases } from 'node-appwrite';
import { afterEach, describe, expect, it } from 'vitest';
import { installBrowserGlobals, sleep, until } from '../support/browser.ts';
import {
  beforeAllOnTarget,
  createUserClient,
  guestServerClient,
  serverClient,
  uniqueTestId,
  webClient,
} from '../support/clients.ts';
import { caught, createCollection, databasesFor, scratchDatabase } from '../support/databases.ts';
import { closeAll, createWebUser, listen, realtimeFor } from '../support/realtime.ts';

installBrowserGlobals();

let databases: Databases;
let databaseId: string;

const NOTE = [{ type: 'string' as const, key: 'text', size: 100 }];

beforeAllOnTarget(async () => {
  ({ databases, databaseId } = await scratchDatabase());
});

afterEach(async () => {
  await closeAll();
});

async function listIds(client: Databases, collectionId: string): Promise<string[]> {
  const list = await client.listDocuments({
    databaseId,
    collectionId,
    queries: [Query.limit(100)],
  });
  return list.documents.map((document) => document.$id);
}

async function team(roles: Record<string, string[]>): Promise<string> {
  const teams = new Teams(serverClient());
  const created = await teams.create({ teamId: uniqueTestId('team'), name: 'Desk' });
  for (const [userId, memberRoles] of Object.entries(roles))
    await teams.createMembership({ teamId: created.$id, roles: memberRoles, userId });
  return created.$id;
}

describe('document permissions', () => {
  it('a user cannot read another user’s document (documentSecurity)', async () => {
    const collectionId = await createCollection(databases, databaseId, {
      permissions: [Permission.create(Role.users())],
      documentSecurity: true,
      attributes: NOTE,
    });
    const ana = await createUserClient();
    const ben = await createUserClient();
    const anas = databasesFor(ana.client);
    const bens = databasesFor(ben.client);
    const note = await anas.createDocument({
      databaseId,
      collectionId,
      documentId: ID.unique(),
      data: { text: 'Ana only' },
    });
    await bens.createDocument({
      databaseId,
      collectionId,
      documentId: ID.unique(),
      data: { text: 'Ben' },
    });

    expect(await listIds(anas, collectionId)).toEqual([note.$id]);
    expect(await listIds(bens, collectionId)).not.toContain(note.$id);
    const hidden = await caught(
      bens.getDocument({ databaseId, collectionId, documentId: note.$id }),
    );
    expect([hidden.code, hidden.type]).toEqual([404, 'document_not_found']);
    const update = await caught(
      bens.updateDocument({
        databaseId,
        collectionId,
        documentId: note.$id,
        data: { text: 'mine' },
      }),
    );
    expect([update.code, update.type]).toEqual([401, 'user_unauthorized']);
    const remove = await caught(
      bens.deleteDocument({ databaseId, collectionId, documentId: note.$id }),
    );
    expect([remove.code, remove.type]).toEqual([401, 'user_unauthorized']);
    // Ana may update and delete what she created (read/update/delete("user:ana") by default).
    await anas.updateDocument({
      databaseId,
      collectionId,
      documentId: note.$id,
      data: { text: 'edited' },
    });
    await anas.deleteDocument({ databaseId, collectionId, documentId: note.$id });
  });

  it('a team member with role staff reads what the collection grants team:T/staff; others cannot', async () => {
    const staff = await createUserClient();
    const manager = await createUserClient();
    const teamId = await team({ [staff.userId]: ['staff'], [manager.userId]: ['manager'] });
    const collectionId = await createCollection(databases, databaseId, {
      permissions: [Permission.read(Role.team(teamId, 'staff'))],
      attributes: NOTE,
    });
    await databases.createDocument({
      databaseId,
      collectionId,
      documentId: 'n1',
      data: { text: 'x' },
    });

    expect(await listIds(databasesFor(staff.client), collectionId)).toEqual(['n1']);
    expect(
      await databasesFor(staff.client).getDocument({ databaseId, collectionId, documentId: 'n1' }),
    ).toMatchObject({ text: 'x' });
    // Without the role and without documentSecurity, listing is refused and the document is hidden.
    const list = await caught(listIds(databasesFor(manager.client), collectionId));
    expect([list.code, list.type]).toEqual([401, 'user_unauthorized']);
    const get = await caught(
      databasesFor(manager.client).getDocument({ databaseId, collectionId, documentId: 'n1' }),
    );
    expect([get.code, get.type]).toEqual([404, 'document_not_found']);
  });

  it('documentSecurity on/off decides whether document permissions count', async () => {
    const ben = await createUserClient();
    const collectionId = await createCollection(databases, databaseId, {
      permissions: [],
      documentSecurity: false,
      attributes: NOTE,
    });
    await databases.createDocument({
      databaseId,
      collectionId,
      documentId: 'shared',
      data: { text: 'for Ben' },
      permissions: [Permission.read(Role.user(ben.userId))],
    });
    const bens = databasesFor(ben.client);
    expect(
      (await caught(bens.getDocument({ databaseId, collectionId, documentId: 'shared' }))).type,
    ).toBe('document_not_found');
    expect((await caught(listIds(bens, collectionId))).type).toBe('user_unauthorized');

    await databases.updateCollection({
      databaseId,
      collectionId,
      name: 'x',
      documentSecurity: true,
    });
    expect(
      await bens.getDocument({ databaseId, collectionId, documentId: 'shared' }),
    ).toMatchObject({
      text: 'for Ben',
    });
    expect(await listIds(bens, collectionId)).toEqual(['shared']);
  });

  it('a user cannot grant a role it does not hold', async () => {
    const ana = await createUserClient();
    const collectionId = await createCollection(databases, databaseId, {
      permissions: [Permission.create(Role.users())],
      documentSecurity: true,
      attributes: NOTE,
    });
    const error = await caught(
      databasesFor(ana.client).createDocument({
        databaseId,
        collectionId,
        documentId: ID.unique(),
        data: { text: 'x' },
        permissions: [Permission.read(Role.user('someone-else'))],
      }),
    );
    expect([error.code, error.type]).toEqual([401, 'user_unauthorized']);
    expect(error.message).toMatch(/^Permissions must be one of: \(any, .*user:/);
    // roles it holds are fine
    await databasesFor(ana.client).createDocument({
      databaseId,
      collectionId,
      documentId: ID.unique(),
      data: { text: 'x' },
      permissions: [Permission.read(Role.users()), Permission.update(Role.user(ana.userId))],
    });
  });

  it('create needs the collection’s create permission', async () => {
    const ana = await createUserClient();
    const collectionId = await createCollection(databases, databaseId, {
      permissions: [Permission.read(Role.users()), Permission.create(Role.team('nobody'))],
      attributes: NOTE,
    });
    const error = await caught(
      databasesFor(ana.client).createDocument({
        databaseId,
        collectionId,
        documentId: ID.unique(),
        data: { text: 'x' },
      }),
    );
    expect([error.code, error.type]).toEqual([401, 'user_unauthorized']);
    expect(error.message).toContain('Missing "create" permission for role "team:nobody"');
  });

  it('guests and users: read("any") lets guests read, read("users") does not', async () => {
    const open = await createCollection(databases, databaseId, {
      permissions: [Permission.read(Role.any())],
      attributes: NOTE,
    });
    const members = await createCollection(databases, databaseId, {
      permissions: [Permission.read(Role.users())],
      attributes: NOTE,
    });
    for (const collectionId of [open, members])
      await databases.createDocument({
        databaseId,
        collectionId,
        documentId: 'd',
        data: { text: 't' },
      });
    const guest = databasesFor(guestServerClient());
    expect(await listIds(guest, open)).toEqual(['d']);
    expect((await caught(listIds(guest, members))).type).toBe('user_unauthorized');
    const user = await createUserClient();
    expect(await listIds(databasesFor(user.client), members)).toEqual(['d']);
    // the browser SDK as a guest, too
    const web = new WebDatabases(webClient());
    expect((await web.listDocuments({ databaseId, collectionId: open })).total).toBe(1);
  });

  it('API keys bypass every permission; disabled collections are hidden from others', async () => {
    const collectionId = await createCollection(databases, databaseId, {
      permissions: [],
      attributes: NOTE,
    });
    await databases.createDocument({
      databaseId,
      collectionId,
      documentId: 'k',
      data: { text: 'key' },
    });
    expect(await listIds(databases, collectionId)).toEqual(['k']);
    await databases.updateDocument({
      databaseId,
      collectionId,
      documentId: 'k',
      data: { text: 'key 2' },
    });

    await databases.updateCollection({
      databaseId,
      collectionId,
      name: 'x',
      permissions: [Permission.read(Role.any())],
      enabled: false,
    });
    const user = await createUserClient();
    const hidden = await caught(listIds(databasesFor(user.client), collectionId));
    expect([hidden.code, hidden.type]).toEqual([404, 'collection_not_found']);
    expect(await listIds(databases, collectionId)).toEqual(['k']);
  });
});

describe('document events', () => {
  it('publishes create/update/delete to readers only (collection read roles plus document read roles)', async () => {
    const ana = await createWebUser('Ana');
    const ben = await createWebUser('Ben');
    const collectionId = await createCollection(databases, databaseId, {
      permissions: [],
      documentSecurity: true,
      attributes: NOTE,
    });
    const channel = Channel.database(databaseId).collection(collectionId).document().toString();
    const anaInbox = await listen(realtimeFor(ana.client), channel);
    const benInbox = await listen(realtimeFor(ben.client), channel);

    await databases.createDocument({
      databaseId,
      collectionId,
      documentId: 'ev',
      data: { text: 'hello' },
      permissions: [Permission.read(Role.user(ana.userId))],
    });
    await databases.updateDocument({
      databaseId,
      collectionId,
      documentId: 'ev',
      data: { text: 'bye' },
    });
    await databases.deleteDocument({ databaseId, collectionId, documentId: 'ev' });
    await until(() => anaInbox.inbox.length === 3, 15_000, 'three events for Ana');
    const [created, updated, deleted] = anaInbox.inbox;
    expect(created!.events).toContain(
      `databases.${databaseId}.collections.${collectionId}.documents.ev.create`,
    );
    expect(created!.payload).toMatchObject({
      $id: 'ev',
      text: 'hello',
      $collectionId: collectionId,
    });
    expect(updated!.events).toContain(
      `databases.${databaseId}.collections.${collectionId}.documents.ev.update`,
    );
    expect(updated!.payload).toMatchObject({ text: 'bye' });
    expect(deleted!.events).toContain(
      `databases.${databaseId}.collections.${collectionId}.documents.ev.delete`,
    );
    await sleep(300);
    expect(benInbox.inbox).toHaveLength(0);
  });

  it('publishes one event per document of a bulk create', async () => {
    const ana = await createWebUser('Ana');
    const collectionId = await createCollection(databases, databaseId, {
      permissions: [Permission.read(Role.users())],
      attributes: NOTE,
    });
    const inbox = await listen(
      realtimeFor(ana.client),
      Channel.database(databaseId).collection(collectionId).document().toString(),
    );
    await databases.createDocuments({
      databaseId,
      collectionId,
      documents: [{ text: '1' }, { text: '2' }, { text: '3' }],
    });
    await until(() => inbox.inbox.length === 3, 15_000, 'three create events');
    expect(inbox.inbox.map((event) => event.payload.text)).toEqual(['1', '2', '3']);
  });
});
