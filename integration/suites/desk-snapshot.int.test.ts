import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { ID, Storage as WebStorage } from 'appwrite';
import { Databases, Functions, Query, Storage, type Models } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import {
  BUCKETS,
  COLLECTIONS,
  DATABASE_ID,
  DESK_SNAPSHOT_FILE_ID,
  FUNCTIONS,
} from '../../domain/ids.ts';
import type { Order } from '../../domain/order.ts';
import type { DocumentMeta } from '../../domain/schema.ts';
import {
  LEASE_MS,
  releaseLease,
  takeLease,
  type Lease,
} from '../../functions/desk-snapshot/src/lease.ts';
import {
  downloadServerSnapshot,
  ORDER_LIST_SELECT,
  readPersisted,
  SNAPSHOT_VERSION,
  type RestoredSnapshot,
} from '../../store/index.ts';
import { listOrderFromDocument } from '../../store/testing.ts';
import { installBrowserGlobals } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient, webClient } from '../support/clients.ts';
import { deskPerson, orderData, type Person } from '../support/desk.ts';

installBrowserGlobals();

// desk-snapshot against the backend: the file a desk's first visit starts from. The function also
// runs every 15 minutes on this backend, and other suites write orders meanwhile: every check
// holds whichever run wrote the file last, and compares it with the collection as read after.

/** Orders of this suite: with long, distinct summaries, enough for a file of several chunks. */
const OWN_ORDERS = 12_000;
/** The SDK uploads files larger than this in chunks. */
const CHUNK_BYTES = 5 * 1024 * 1024;

const admin = serverClient();
const databases = new Databases(admin);
const functions = new Functions(admin);
const ORDERS = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.orders } as const;
const FILE = { bucketId: BUCKETS.snapshots, fileId: DESK_SNAPSHOT_FILE_ID } as const;

/** What a run answers. */
interface RunAnswer {
  orders: number;
  bytes: number;
  watermark: number;
  ms: number;
}

/** One synchronous execution with the API key: its status and parsed answer. */
async function execute(): Promise<{ execution: Models.Execution; body: Record<string, unknown> }> {
  const execution = await functions.createExecution({ functionId: FUNCTIONS.deskSnapshot });
  return {
    execution,
    body: JSON.parse(execution.responseBody || '{}') as Record<string, unknown>,
  };
}

/** This suite's orders, once made. */
const mine: string[] = [];

/**
 * Runs desk-snapshot until a run of ours writes the file. A run finding another one writing
 * skips; one finding the file current (a scheduled run wrote it just before: other suites tick
 * the scheduler, which may fire the quarter hour) changes nothing, so an order of ours is changed
 * and it runs again.
 */
async function runSnapshot(): Promise<RunAnswer> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { execution, body } = await execute();
    expect(execution, execution.errors).toMatchObject({
      status: 'completed',
      responseStatusCode: 200,
    });
    if ('unchanged' in body) await touch(mine[0]!);
    else if (!('skipped' in body)) {
      expect(execution.logs.trim()).toMatch(
        /^desk-snapshot: \d+ orders, [\d.]+ MB, watermark \S+; read \d+ ms, encoded \d+ ms, stored in \d+ ms$/,
      );
      return body as unknown as RunAnswer;
    }
    if (Date.now() > deadline)
      throw new Error('desk-snapshot kept answering skipped or unchanged for 60 s');
    await sleep(500);
  }
}

/** The file as `person` (null: a guest) downloads it: `getFileDownload`'s URL, their session. */
function download(person: Person | null): Promise<Response> {
  const url = new WebStorage(person?.client ?? webClient()).getFileDownload(FILE);
  return fetch(url, { headers: person ? { 'x-appwrite-session': person.secret } : {} });
}

/**
 * The snapshot as a desk member's client reads it (`downloadServerSnapshot`, then `readPersisted`
 * as a first visit does), waiting out the moment between a run's delete and its new file.
 */
async function readAsDesk(person: Person): Promise<RestoredSnapshot> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const stored = await downloadServerSnapshot(person.client);
    if (stored) {
      const restored = readPersisted(stored, SNAPSHOT_VERSION);
      expect(restored, 'the file is a snapshot of this version').not.toBeNull();
      return restored!;
    }
    if (Date.now() > deadline) throw new Error('no snapshot file to download for 20 s');
    await sleep(200);
  }
}

/** Every order's list copy as read now with the API key. */
async function listCopies(): Promise<Map<string, Order>> {
  const copies = new Map<string, Order>();
  let cursor: string | null = null;
  for (;;) {
    const { documents }: { documents: Models.Document[] } = await databases.listDocuments({
      ...ORDERS,
      queries: [
        Query.select([...ORDER_LIST_SELECT]),
        Query.limit(5000),
        ...(cursor ? [Query.cursorAfter(cursor)] : []),
      ],
      total: false,
    });
    for (const doc of documents)
      copies.set(doc.$id, listOrderFromDocument(doc as unknown as DocumentMeta));
    if (documents.length < 5000) return copies;
    cursor = documents[documents.length - 1]!.$id;
  }
}

/** Changes one of this suite's orders: the next run has something to write. */
async function touch(id: string): Promise<void> {
  await databases.updateDocument({
    ...ORDERS,
    documentId: id,
    data: { totalCents: 1000 + Math.floor(Math.random() * 9000) },
  });
}

/** The latest `$updatedAt` of any order now (ms). */
async function newestChange(): Promise<number> {
  const { documents } = await databases.listDocuments({
    ...ORDERS,
    queries: [Query.orderDesc('$updatedAt'), Query.limit(1)],
  });
  return Date.parse(documents[0]!.$updatedAt);
}

/**
 * What a snapshot must hold, whichever run wrote it: every order that has not changed since its
 * watermark, as its list copy now, and no order in a version newer than the collection's.
 */
function expectCompleteUpTo(restored: RestoredSnapshot, now: Map<string, Order>): void {
  const differing: string[] = [];
  for (const [id, copy] of now) {
    if (copy.updatedAt > restored.watermark) continue;
    const kept = restored.orders.get(id);
    if (kept === undefined) differing.push(`${id}: missing`);
    else if (!isDeepStrictEqual(kept, copy)) differing.push(`${id}: differs`);
  }
  restored.orders.forEach((kept) => {
    const copy = now.get(kept.id);
    if (copy && kept.updatedAt > copy.updatedAt) differing.push(`${kept.id}: from the future`);
  });
  expect(differing.slice(0, 10)).toEqual([]);
}

describe('desk-snapshot (the server-kept snapshot of the desk orders)', () => {
  let staff: Person;
  let outsider: Person;

  beforeAllOnTarget(async () => {
    [staff, outsider] = await Promise.all([
      deskPerson('Sid Snapshot', 'staff'),
      deskPerson('Olga Outside', null),
    ]);
    const statuses = ['paid', 'preparing', 'ready', 'fulfilled', 'canceled'] as const;
    const documents = Array.from({ length: OWN_ORDERS }, (_, i) => {
      const claimed = i % 3 !== 0;
      const id = ID.unique();
      mine.push(id);
      return {
        ...orderData(),
        $id: id,
        status: statuses[i % statuses.length],
        customerName: i % 9 === 0 ? `Zoë Ñúñez ${i} — 田中` : `Snapshot Customer ${i}`,
        itemsSummary: `${i}: ${'1× Flat white, 2× Croissant au beurre, '.repeat(12)}`.slice(0, 500),
        assigneeId: claimed ? `snap-staff-${i % 4}` : null,
        assigneeName: claimed ? `Snap Staff ${i % 4}` : null,
        readyAt: i % 2 ? new Date(Date.now() - i * 1000).toISOString() : null,
        refundedCents: i % 50 === 0 ? 100 : 0,
      };
    });
    for (let i = 0; i < documents.length; i += 400)
      await Promise.all(
        [0, 100, 200, 300].map((offset) =>
          databases.createDocuments({
            ...ORDERS,
            documents: documents.slice(i + offset, i + offset + 100),
          }),
        ),
      );
    // A file to read for tests run on their own.
    await runSnapshot();
  }, 300_000);

  it('is provisioned to run every 15 minutes, by the backend only', async () => {
    const fn = await functions.get({ functionId: FUNCTIONS.deskSnapshot });
    expect(fn).toMatchObject({ schedule: '*/15 * * * *', execute: [], timeout: LEASE_MS / 1000 });
  });

  it('gives a desk member every order as its list copy, complete up to the watermark, in chunks', async () => {
    await touch(mine[0]!);
    const newestBefore = await newestChange();
    const run = await runSnapshot();
    expect(run.watermark).toBeGreaterThanOrEqual(newestBefore);
    expect(run.orders).toBeGreaterThanOrEqual(OWN_ORDERS);
    expect(run.bytes).toBeGreaterThan(CHUNK_BYTES);
    expect(run.ms).toBeGreaterThan(0);

    const file = await new Storage(admin).getFile(FILE);
    expect(file.chunksTotal).toBeGreaterThan(1);
    expect(file.chunksUploaded).toBe(file.chunksTotal);
    const response = await download(staff);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(createHash('md5').update(bytes).digest('hex')).toBe(file.signature);

    const restored = await readAsDesk(staff);
    const now = await listCopies();
    // A later run (the schedule) may have replaced it, never an earlier one.
    expect(restored.watermark).toBeGreaterThanOrEqual(run.watermark);
    expect(restored.orders.size).toBeGreaterThanOrEqual(OWN_ORDERS);
    for (const id of mine) expect(restored.orders.get(id)).toEqual(now.get(id));
    expect(restored.orders.get(mine[9]!)).toMatchObject({
      customerName: 'Zoë Ñúñez 9 — 田中',
      partial: true,
    });
    expectCompleteUpTo(restored, now);
  }, 180_000);

  it('is not readable by a signed-in user outside the desk, nor by a guest; no client writes it', async () => {
    const byOutsider = await download(outsider);
    expect(byOutsider.status).toBe(401);
    expect(await byOutsider.json()).toMatchObject({ type: 'user_unauthorized' });
    expect(await downloadServerSnapshot(outsider.client)).toBeUndefined();
    expect((await download(null)).status).toBe(401);
    await expect(new WebStorage(outsider.client).getFile(FILE)).rejects.toMatchObject({
      code: 401,
    });

    const staffStorage = new WebStorage(staff.client);
    expect(await staffStorage.getFile(FILE)).toMatchObject({ $id: DESK_SNAPSHOT_FILE_ID });
    await expect(staffStorage.deleteFile(FILE)).rejects.toMatchObject({ code: 401 });
    await expect(
      staffStorage.createFile({
        bucketId: BUCKETS.snapshots,
        fileId: ID.unique(),
        file: new File(['not a snapshot'], 'fake.snapshot'),
      }),
    ).rejects.toMatchObject({ code: 401 });
    expect(await staffStorage.getFile(FILE)).toMatchObject({ $id: DESK_SNAPSHOT_FILE_ID });
  }, 60_000);

  it('is replaced by the next run, with an order changed since and one created since', async () => {
    const before = await readAsDesk(staff);
    const changedId = mine[1]!;
    const changed = await databases.updateDocument({
      ...ORDERS,
      documentId: changedId,
      data: { status: 'ready', assigneeName: 'Renamed Staff', totalCents: 999 },
    });
    const added = await databases.createDocument({
      ...ORDERS,
      documentId: ID.unique(),
      data: { ...orderData(), customerName: 'Newer Customer' },
    });
    expect(before.orders.get(changedId)).not.toMatchObject({ status: 'ready' });
    expect(before.orders.has(added.$id)).toBe(false);

    const run = await runSnapshot();
    expect(run.watermark).toBeGreaterThanOrEqual(Date.parse(added.$updatedAt));
    const after = await readAsDesk(staff);
    expect(after.savedAt).toBeGreaterThan(before.savedAt);
    expect(after.watermark).toBeGreaterThanOrEqual(Date.parse(changed.$updatedAt));
    expect(after.orders.get(changedId)).toEqual(
      listOrderFromDocument(changed as unknown as DocumentMeta),
    );
    expect(after.orders.get(changedId)).toMatchObject({
      status: 'ready',
      assigneeName: 'Renamed Staff',
      totalCents: 999,
    });
    expect(after.orders.get(added.$id)).toMatchObject({ customerName: 'Newer Customer' });
    expectCompleteUpTo(after, await listCopies());
  }, 180_000);

  it('answers unchanged, leaving the file as it is, when no order changed since it was written', async () => {
    await touch(mine[3]!);
    const written = await runSnapshot();
    const file = await new Storage(admin).getFile(FILE);
    const { execution, body } = await execute();
    expect(execution).toMatchObject({ status: 'completed', responseStatusCode: 200 });
    // Other suites write orders on this backend too: then the run writes the file again.
    if ((await newestChange()) === written.watermark) {
      expect(body).toEqual({
        unchanged: true,
        watermark: written.watermark,
        ms: expect.any(Number),
      });
      expect(execution.logs.trim()).toMatch(
        /^desk-snapshot: no order changed since the stored file/,
      );
      expect(await new Storage(admin).getFile(FILE)).toMatchObject({
        $createdAt: file.$createdAt,
        name: `orders.${written.watermark}.snapshot`,
      });
    } else if (!('skipped' in body)) {
      expect(body).toMatchObject({ orders: expect.any(Number) });
      expect(body['watermark']).toBeGreaterThan(written.watermark);
    }
  }, 180_000);

  it('lets one run write at a time: a run finding another one writing skips, and two at once end well', async () => {
    const client = serverClient();
    // Wait for a scheduled run, if one is writing, to end.
    let lease = await takeLease(client, Date.now());
    const deadline = Date.now() + 60_000;
    while (!lease && Date.now() < deadline) {
      await sleep(500);
      lease = await takeLease(client, Date.now());
    }
    expect(lease).not.toBeNull();
    let takenOver: Lease | null = null;
    try {
      const written = await new Storage(admin).getFile(FILE);
      expect(await takeLease(client, Date.now())).toBeNull();
      const { execution, body } = await execute();
      expect(execution.status).toBe('completed');
      expect(body).toEqual({ skipped: 'another run is writing the snapshot' });
      expect((await new Storage(admin).getFile(FILE)).$createdAt).toBe(written.$createdAt);

      // A lease a run left behind (it crashed) is taken over once it expired; releasing the
      // stale one then leaves the new holder's alone.
      takenOver = await takeLease(client, Date.now() + LEASE_MS + 1);
      expect(takenOver).not.toBeNull();
      await releaseLease(client, lease!);
      expect(await takeLease(client, Date.now())).toBeNull();
    } finally {
      await releaseLease(client, lease!);
      if (takenOver) await releaseLease(client, takenOver);
    }

    // Two at once: neither fails, one writes (neither does only when a scheduled run wrote the
    // change first).
    let wrote = 0;
    for (let attempt = 0; attempt < 3 && wrote === 0; attempt++) {
      await touch(mine[2]!);
      const both = await Promise.all([execute(), execute()]);
      for (const { execution: run, body: answer } of both) {
        expect(run).toMatchObject({ status: 'completed', responseStatusCode: 200 });
        if ('skipped' in answer || 'unchanged' in answer) continue;
        expect(answer).toMatchObject({ orders: expect.any(Number), bytes: expect.any(Number) });
        wrote++;
      }
    }
    expect(wrote).toBeGreaterThanOrEqual(1);
    const restored = await readAsDesk(staff);
    expectCompleteUpTo(restored, await listCopies());
  }, 180_000);
});
