import { Channel, Permission, Query, Role } from 'appwrite';
import { Databases, ID, Teams } from 'node-appwrite';
import { afterEach, describe, expect, it } from 'vitest';
import { installBrowserGlobals, sleep, until } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient, uniqueTestId, webClient } from '../support/clients.ts';
import { closeAll, createWebUser, listen, realtimeFor, type WebUser } from '../support/realtime.ts';

installBrowserGlobals();

const QUIET_MS = 300;

/**
 * Document events over realtime: delivered to the collection's readers (plus the document's
 * readers when the collection has documentSecurity), on the 16 channels Appwrite publishes.
 */
describe('realtime document events (browser SDK)', () => {
  const databases = () => new Databases(serverClient());
  let databaseId: string;
  let ana: WebUser;
  let ben: WebUser;
  let teamId: string;

  async function collection(documentSecurity: boolean): Promise<string> {
    const collectionId = uniqueTestId('rtcol');
    await databases().createCollection({
      databaseId,
      collectionId,
      name: 'Orders',
      permissions: [Permission.read(Role.team(teamId))],
      documentSecurity,
    });
    await databases().createStringAttribute({
      databaseId,
      collectionId,
      key: 'status',
      size: 32,
      required: false,
    });
    // attributes may become available asynchronously, as on Appwrite
    for (let attempt = 0; attempt < 100; attempt++) {
      const attribute = (await databases().getAttribute({
        databaseId,
        collectionId,
        key: 'status',
      })) as { status?: string };
      if (attribute.status === 'available') break;
      await sleep(50);
    }
    return collectionId;
  }

  beforeAllOnTarget(async () => {
    const database = await databases().create({ databaseId: uniqueTestId('rtdb'), name: 'RT' });
    databaseId = database.$id;
    ana = await createWebUser('Ana');
    ben = await createWebUser('Ben');
    const team = await new Teams(serverClient()).create({
      teamId: uniqueTestId('rtdt'),
      name: 'Desk',
    });
    teamId = team.$id;
    await new Teams(serverClient()).createMembership({
      teamId,
      roles: ['staff'],
      userId: ana.userId,
    });
  });

  afterEach(async () => {
    await closeAll();
  });

  it('delivers a document write to the collection’s readers only, on all 16 channels', async () => {
    const collectionId = await collection(false);
    const documentsChannel = Channel.database(databaseId).collection(collectionId).document();
    const reader = await listen(realtimeFor(ana.client), documentsChannel.toString());
    const open = await listen(realtimeFor(ana.client), 'documents', [
      Query.equal('status', ['open']),
    ]);
    const rows = await listen(
      realtimeFor(ana.client),
      `tablesdb.${databaseId}.tables.${collectionId}.rows`,
    );
    const outsider = await listen(realtimeFor(ben.client), ['documents', 'rows']);
    const guest = await listen(realtimeFor(webClient()), 'documents');

    const documentId = ID.unique();
    await databases().createDocument({
      databaseId,
      collectionId,
      documentId,
      data: { status: 'draft' },
    });
    await databases().updateDocument({
      databaseId,
      collectionId,
      documentId,
      data: { status: 'open' },
    });
    await until(
      () => reader.inbox.length === 2 && open.inbox.length === 1,
      15_000,
      'document events',
    );
    const [created, updated] = reader.inbox;
    expect(created!.payload).toMatchObject({
      $id: documentId,
      status: 'draft',
      $collectionId: collectionId,
    });
    expect(created!.events).toEqual(
      expect.arrayContaining([
        `databases.${databaseId}.collections.${collectionId}.documents.${documentId}.create`,
        `databases.${databaseId}.collections.*.documents.*.create`,
        'databases.*',
      ]),
    );
    expect(updated!.channels).toHaveLength(16);
    expect(updated!.channels).toEqual(
      expect.arrayContaining([
        'documents',
        `databases.${databaseId}.collections.${collectionId}.documents.${documentId}`,
        `tablesdb.${databaseId}.tables.${collectionId}.rows.update`,
      ]),
    );
    expect(updated!.subscriptions).toEqual([reader.id]);
    expect(open.inbox[0]!.payload).toMatchObject({ status: 'open' });
    await until(() => rows.inbox.length === 2, 15_000, 'row-channel events');
    await sleep(QUIET_MS);
    expect(outsider.inbox).toHaveLength(0);
    expect(guest.inbox).toHaveLength(0);
  });

  it('adds the document’s readers when the collection has documentSecurity', async () => {
    const collectionId = await collection(true);
    const member = await listen(realtimeFor(ana.client), 'documents');
    const named = await listen(realtimeFor(ben.client), 'documents');

    await databases().createDocument({
      databaseId,
      collectionId,
      documentId: ID.unique(),
      data: { status: 'team only' },
    });
    await databases().createDocument({
      databaseId,
      collectionId,
      documentId: ID.unique(),
      data: { status: 'shared with Ben' },
      permissions: [Permission.read(Role.user(ben.userId))],
    });
    await until(() => member.inbox.length === 2 && named.inbox.length === 1, 15_000, 'events');
    await sleep(QUIET_MS);
    expect(named.inbox.map((e) => e.payload.status)).toEqual(['shared with Ben']);
    expect(member.inbox.map((e) => e.payload.status)).toEqual(['team only', 'shared with Ben']);
  });
});
