import { Channel, ID, Permission, Role, Storage as WebStorage } from 'appwrite';
import { Storage, Teams } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import { afterEach, describe, expect, it } from 'vitest';
import { installBrowserGlobals, sleep, until } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient, uniqueTestId, webClient } from '../support/clients.ts';
import { closeAll, createWebUser, listen, realtimeFor, type WebUser } from '../support/realtime.ts';
import { patternBytes } from '../support/storage.ts';

installBrowserGlobals();

const QUIET_MS = 300;

async function refusalType(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return `${(error as { code?: number }).code} ${(error as { type?: string }).type}`;
  }
  return 'not refused';
}

/**
 * Appwrite's permission model for files, through the browser SDK: the bucket's permissions, plus
 * each file's when the bucket has fileSecurity; realtime file events filtered the same way.
 */
describe('storage permissions and file events (browser SDK)', () => {
  const admin = () => new Storage(serverClient());
  let staff: WebUser;
  let customer: WebUser;
  let teamId: string;

  async function bucket(fileSecurity: boolean, permissions: string[]): Promise<string> {
    const created = await admin().createBucket({
      bucketId: uniqueTestId('pb'),
      name: 'Attachments',
      permissions,
      fileSecurity,
    });
    return created.$id;
  }

  const upload = (bucketId: string, permissions?: string[], bytes = Buffer.from('attachment')) =>
    admin().createFile({
      bucketId,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(bytes, 'note.txt'),
      ...(permissions ? { permissions } : {}),
    });

  beforeAllOnTarget(async () => {
    staff = await createWebUser('Staff');
    customer = await createWebUser('Customer');
    teamId = (await new Teams(serverClient()).create({ teamId: uniqueTestId('st'), name: 'Desk' }))
      .$id;
    await new Teams(serverClient()).createMembership({
      teamId,
      roles: ['staff'],
      userId: staff.userId,
    });
  });

  afterEach(async () => {
    await closeAll();
  });

  it('without fileSecurity the bucket decides: a team member reads, another user and a guest are refused', async () => {
    const bucketId = await bucket(false, [Permission.read(Role.team(teamId))]);
    const file = await upload(bucketId, [Permission.read(Role.user(customer.userId))]);
    const asStaff = new WebStorage(staff.client);
    expect((await asStaff.getFile({ bucketId, fileId: file.$id })).$id).toBe(file.$id);
    expect((await asStaff.listFiles({ bucketId })).total).toBe(1);
    // the file's own permission plays no part without fileSecurity
    for (const client of [customer.client, webClient()]) {
      const storage = new WebStorage(client);
      expect(await refusalType(storage.getFile({ bucketId, fileId: file.$id }))).toBe(
        '401 user_unauthorized',
      );
      expect(await refusalType(storage.listFiles({ bucketId }))).toBe('401 user_unauthorized');
    }
    expect(await refusalType(asStaff.deleteFile({ bucketId, fileId: file.$id }))).toBe(
      '401 user_unauthorized',
    );
  });

  it('with fileSecurity a file’s own permissions open it to its readers only', async () => {
    const bucketId = await bucket(true, [Permission.create(Role.users())]);
    const shared = await upload(bucketId, [
      Permission.read(Role.team(teamId)),
      Permission.update(Role.team(teamId, 'staff')),
    ]);
    const asCustomer = new WebStorage(customer.client);
    const own = await asCustomer.createFile({
      bucketId,
      fileId: ID.unique(),
      file: new File(['mine'], 'mine.txt'),
    });
    expect(own.$permissions).toContain(`read("user:${customer.userId}")`);

    const asStaff = new WebStorage(staff.client);
    expect((await asStaff.getFile({ bucketId, fileId: shared.$id })).$id).toBe(shared.$id);
    expect((await asStaff.listFiles({ bucketId })).files.map((file) => file.$id)).toEqual([
      shared.$id,
    ]);
    expect(
      (await asStaff.updateFile({ bucketId, fileId: shared.$id, name: 'renamed.txt' })).name,
    ).toBe('renamed.txt');
    expect(await refusalType(asStaff.getFile({ bucketId, fileId: own.$id }))).toBe(
      '404 storage_file_not_found',
    );
    expect(await refusalType(asStaff.deleteFile({ bucketId, fileId: shared.$id }))).toBe(
      '401 user_unauthorized',
    );

    expect(await refusalType(asCustomer.getFile({ bucketId, fileId: shared.$id }))).toBe(
      '404 storage_file_not_found',
    );
    expect(
      await refusalType(asCustomer.updateFile({ bucketId, fileId: shared.$id, name: 'x' })),
    ).toBe('401 user_unauthorized');
    expect((await asCustomer.listFiles({ bucketId })).files.map((file) => file.$id)).toEqual([
      own.$id,
    ]);
    expect(
      await refusalType(
        asCustomer.createFile({
          bucketId,
          fileId: ID.unique(),
          file: new File(['x'], 'x.txt'),
          permissions: [Permission.read(Role.team(teamId))],
        }),
      ),
    ).toBe('401 user_unauthorized');
    await asCustomer.deleteFile({ bucketId, fileId: own.$id });
    expect((await admin().listFiles({ bucketId })).total).toBe(1);
    expect((await new WebStorage(webClient()).listFiles({ bucketId })).total).toBe(0);
  });

  it('sends file events to the bucket’s readers (and the file’s with fileSecurity), on the six file channels', async () => {
    const bucketId = await bucket(false, [Permission.read(Role.team(teamId))]);
    const reader = await listen(realtimeFor(staff.client), 'files');
    const perBucket = await listen(
      realtimeFor(staff.client),
      Channel.bucket(bucketId).file().toString(),
    );
    const outsider = await listen(realtimeFor(customer.client), [
      'files',
      `buckets.${bucketId}.files`,
    ]);
    const guest = await listen(realtimeFor(webClient()), 'files');

    const file = await upload(bucketId);
    await admin().updateFile({ bucketId, fileId: file.$id, name: 'renamed.txt' });
    await admin().deleteFile({ bucketId, fileId: file.$id });
    await until(
      () => reader.inbox.length === 3 && perBucket.inbox.length === 3,
      5000,
      'file events',
    );
    const [created, updated, deleted] = reader.inbox;
    expect(created!.events).toEqual(
      expect.arrayContaining([
        `buckets.${bucketId}.files.${file.$id}.create`,
        `buckets.${bucketId}.files.*.create`,
        `buckets.*.files.*`,
        'buckets.*',
      ]),
    );
    expect(created!.channels.sort()).toEqual(
      [
        'files',
        `buckets.${bucketId}.files`,
        `buckets.${bucketId}.files.${file.$id}`,
        'files.create',
        `buckets.${bucketId}.files.create`,
        `buckets.${bucketId}.files.${file.$id}.create`,
      ].sort(),
    );
    expect(created!.payload).toMatchObject({ $id: file.$id, bucketId, name: 'note.txt' });
    expect(updated!.payload).toMatchObject({ name: 'renamed.txt' });
    expect(deleted!.events).toContain(`buckets.${bucketId}.files.${file.$id}.delete`);
    await sleep(QUIET_MS);
    expect(outsider.inbox).toHaveLength(0);
    expect(guest.inbox).toHaveLength(0);

    const secured = await bucket(true, [Permission.read(Role.team(teamId))]);
    const customerFiles = await listen(realtimeFor(customer.client), 'files');
    await upload(secured, [Permission.read(Role.user(customer.userId))]);
    await until(() => customerFiles.inbox.length === 1, 5000, 'the customer’s own file event');
    expect(customerFiles.inbox[0]!.payload).toMatchObject({ bucketId: secured });
  });

  it('fires one create event for a chunked upload, once its last chunk arrived', async () => {
    const bucketId = await bucket(false, [Permission.read(Role.team(teamId))]);
    const reader = await listen(realtimeFor(staff.client), `buckets.${bucketId}.files`);
    const bytes = patternBytes(11 * 1024 * 1024, 9);
    const file = await upload(bucketId, undefined, bytes);
    await until(() => reader.inbox.length >= 1, 5000, 'the create event');
    await sleep(QUIET_MS);
    expect(reader.inbox).toHaveLength(1);
    expect(reader.inbox[0]!.events).toContain(`buckets.${bucketId}.files.${file.$id}.create`);
    expect(reader.inbox[0]!.payload).toMatchObject({ chunksTotal: 3, chunksUploaded: 3 });
  });
});
