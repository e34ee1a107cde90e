import { Databases, Functions, ID } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { Drift } from '../../domain/order-invariants.ts';
import { auditOrders } from '../../functions/_shared/order-audit.ts';
import { repairSince } from '../../functions/repair-orders/src/main.ts';
import { installBrowserGlobals } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient } from '../support/clients.ts';
import {
  callFunction,
  createTestOrder,
  deskPerson,
  readTestOrder,
  type Person,
} from '../support/desk.ts';

installBrowserGlobals();

// repair-orders: the invariants of domain/order-invariants.ts over recently changed orders, and
// the repairs it can make, against the backend.

const admin = new Databases(serverClient());

async function record(orderId: string, rev: number, kind: string, data: object = {}) {
  await admin.createDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.activity,
    documentId: `${orderId}.r${rev}`,
    data: { orderId, kind, data: JSON.stringify(data), at: new Date().toISOString() },
  });
}

describe('repair-orders', () => {
  let sam: Person;

  beforeAllOnTarget(async () => {
    sam = await deskPerson('Sam Repair', 'staff');
  });

  it('runs every minute', async () => {
    const fn = await new Functions(serverClient()).get({ functionId: FUNCTIONS.repairOrders });
    expect(fn).toMatchObject({ schedule: '* * * * *', execute: [] });
  });

  it('finds no drift on orders written through the functions', async () => {
    const order = await createTestOrder();
    for (const body of ['One', 'Two', 'Three'])
      await callFunction(sam.client, FUNCTIONS.noteAction, {
        action: 'add',
        noteId: ID.unique(),
        orderId: order.$id,
        body,
      });
    expect(await auditOrders(serverClient(), [await readTestOrder(order.$id)])).toEqual([]);
  });

  it('repairs wrong counts and lost records in one change, reports a status that moved back, then finds nothing', async () => {
    const since = Date.now() - 1000;
    // noteCount 3 with one live note, rev 3 with only the records of rev 1 and 2.
    const drifting = await createTestOrder({ noteCount: 3, rev: 3, attachmentCount: 1 });
    await admin.createDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.notes,
      documentId: ID.unique(),
      data: { orderId: drifting.$id, authorId: 'u1', authorName: 'Ana', body: 'x' },
    });
    await record(drifting.$id, 1, 'paid');
    await record(drifting.$id, 2, 'claimed');
    // An order whose records say it was ready, but it is only preparing.
    const backwards = await createTestOrder({ status: 'preparing', rev: 1 });
    await record(backwards.$id, 1, 'status', { from: 'preparing', to: 'ready' });

    const first = await repairSince(serverClient(), since, { untilMs: Date.now() + 1000 });
    const mine = (drift: Drift[]) =>
      drift.filter((d) => [drifting.$id, backwards.$id].includes(d.orderId));
    expect(mine(first.drift)).toEqual([
      { orderId: drifting.$id, kind: 'noteCount', stored: 3, counted: 1 },
      { orderId: drifting.$id, kind: 'attachmentCount', stored: 1, counted: 0 },
      { orderId: drifting.$id, kind: 'missingRecords', revs: [3] },
      { orderId: backwards.$id, kind: 'movedBackwards', status: 'preparing', reached: 'ready' },
    ]);
    expect(mine(first.repaired).map((d) => d.kind)).toEqual([
      'noteCount',
      'attachmentCount',
      'missingRecords',
    ]);
    expect(await readTestOrder(drifting.$id)).toMatchObject({
      noteCount: 1,
      attachmentCount: 0,
      rev: 4,
      updatedByName: 'Livedesk',
    });
    const lost = await admin.getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.activity,
      documentId: `${drifting.$id}.r3`,
    });
    expect(lost).toMatchObject({ kind: 'repaired', actorName: 'Livedesk' });
    // The status is reported, never guessed at.
    expect(await readTestOrder(backwards.$id)).toMatchObject({ status: 'preparing', rev: 1 });
    const second = await repairSince(serverClient(), since, { untilMs: Date.now() + 1000 });
    expect(mine(second.drift).map((d) => d.kind)).toEqual(['movedBackwards']);
    expect(mine(second.repaired)).toEqual([]);
  });

  it('runs as a function: logs what it repaired and keeps a cursor', async () => {
    const drifting = await createTestOrder({ noteCount: 2 });
    const cursorBefore = await admin
      .getDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.counters,
        documentId: 'repair-cursor',
      })
      .then(
        (doc) => Number(doc.value),
        () => 0,
      );
    const functions = new Functions(serverClient());
    const execution = await functions.createExecution({
      functionId: FUNCTIONS.repairOrders,
      body: JSON.stringify({ settleMs: 0 }),
    });
    expect(execution.status, execution.errors).toBe('completed');
    const answer = JSON.parse(execution.responseBody) as { checked: number; repaired: number };
    expect(answer.checked).toBeGreaterThan(0);
    // On a shared backend other suites' test orders drift too and their lines can fill the log
    // Appwrite keeps; what must hold is the summary line and the order set right.
    expect(execution.logs).toMatch(/repair-orders: checked \d+ order\(s\)/);
    // What it found drifting, it set right (its repairs in detail: the tests above).
    if (execution.logs.includes(`drift: ${drifting.$id}`))
      expect(await readTestOrder(drifting.$id)).toMatchObject({ noteCount: 0 });
    const cursor = await admin.getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.counters,
      documentId: 'repair-cursor',
    });
    // On a shared backend one run may stop short of the newest orders: the cursor moves on.
    expect(cursor.value).toBeGreaterThan(cursorBefore);
  });
});
