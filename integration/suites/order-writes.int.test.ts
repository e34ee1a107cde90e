import { Databases, ID } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import type { OrderDocument, OrderDocumentData } from '../../domain/order.ts';
import type { OrderChange } from '../../domain/order-machine.ts';
import {
  commitHeldOrderChange,
  commitNewOrder,
  commitOrderChange,
  commitUntilLanded,
  writeNewOrder,
} from '../../functions/_shared/order-writes.ts';
import { serverClient } from '../support/clients.ts';
import { activityOf, readOrderDocument } from '../support/payments.ts';

// functions/_shared/order-writes.ts against the backend: an order and its activity record are
// written in one transaction, or neither is.

let nextNumber = 500_000_000 + Math.floor(Math.random() * 100_000_000);

function orderData(patch: Partial<OrderDocumentData> = {}): OrderDocumentData {
  return {
    number: nextNumber++,
    status: 'paid',
    customerName: 'Tia Transaction',
    customerEmail: 'tia@example.test',
    customerId: null,
    items: '[]',
    itemsSummary: '',
    subtotalCents: 700,
    totalCents: 700,
    currency: 'eur',
    paymentIntentId: null,
    paymentStatus: 'succeeded',
    cardBrand: null,
    cardLast4: null,
    failureCode: null,
    refundedCents: 0,
    assigneeId: null,
    assigneeName: null,
    paidAt: null,
    startedAt: null,
    readyAt: null,
    fulfilledAt: null,
    canceledAt: null,
    noteCount: 0,
    attachmentCount: 0,
    rev: 0,
    updatedById: null,
    updatedByName: null,
    ...patch,
  };
}

const author = { id: 'u1', name: 'Ana' };
const claim = (rev: number): OrderChange => ({
  patch: {
    rev: rev + 1,
    updatedById: 'u1',
    updatedByName: 'Ana',
    assigneeId: 'u1',
    assigneeName: 'Ana',
  },
  activity: { kind: 'claimed', data: { action: 'claim' } },
});

async function newOrder(): Promise<OrderDocument> {
  const orderId = ID.unique();
  const { order } = await commitNewOrder(
    serverClient(),
    { orderId, data: orderData(), permissions: [] },
    { kind: 'created', data: {} },
    author,
    Date.now(),
  );
  return order;
}

describe('order-writes: an order and its activity record in one transaction', () => {
  it('creates an order with its first record, and commits a change with its record', async () => {
    const order = await newOrder();
    expect((await activityOf(order.$id)).map((record) => record.$id)).toEqual([`${order.$id}.r0`]);
    const committed = await commitOrderChange(serverClient(), order, claim(0), author, Date.now());
    expect(committed).toMatchObject({ order: { $id: order.$id, rev: 1, assigneeName: 'Ana' } });
    const records = await activityOf(order.$id);
    expect(records.map((record) => [record.$id, record.kind, record.actorName])).toEqual([
      [`${order.$id}.r0`, 'created', 'Ana'],
      [`${order.$id}.r1`, 'claimed', 'Ana'],
    ]);
  });

  it('writes nothing when the order changed after it was read, before or after the staging', async () => {
    const order = await newOrder();
    await new Databases(serverClient()).updateDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: order.$id,
      data: { noteCount: 1 },
    });
    expect(await commitOrderChange(serverClient(), order, claim(0), author, Date.now())).toBe(
      'conflict',
    );
    expect(await readOrderDocument(order.$id)).toMatchObject({ rev: 0, assigneeId: null });
    expect(await activityOf(order.$id)).toHaveLength(1);

    // Two changes decided on the same read: one commits, the other writes nothing.
    const fresh = await readOrderDocument(order.$id);
    const outcomes = await Promise.all(
      [0, 1].map(() => commitOrderChange(serverClient(), fresh, claim(0), author, Date.now())),
    );
    expect(outcomes.filter((outcome) => outcome === 'conflict')).toHaveLength(1);
    expect((await readOrderDocument(order.$id)).rev).toBe(1);
    expect(await activityOf(order.$id)).toHaveLength(2);
  });

  it('changes nothing when the activity record cannot be written (its id is taken)', async () => {
    const order = await newOrder();
    await new Databases(serverClient()).createDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.activity,
      documentId: `${order.$id}.r1`,
      data: { orderId: order.$id, kind: 'note', at: new Date().toISOString() },
    });
    expect(await commitOrderChange(serverClient(), order, claim(0), author, Date.now())).toBe(
      'conflict',
    );
    expect(await readOrderDocument(order.$id)).toMatchObject({ rev: 0, assigneeId: null });
  });

  it('creates nothing when the order id or number is taken', async () => {
    const order = await newOrder();
    const again = (data: OrderDocumentData, orderId: string) =>
      commitNewOrder(
        serverClient(),
        { orderId, data, permissions: [] },
        { kind: 'created', data: {} },
        author,
        Date.now(),
      );
    await expect(again(orderData(), order.$id)).rejects.toMatchObject({ code: 409 });
    const otherId = ID.unique();
    await expect(again(orderData({ number: order.number }), otherId)).rejects.toMatchObject({
      code: 409,
    });
    await expect(readOrderDocument(otherId)).rejects.toMatchObject({ code: 404 });
    expect(await activityOf(otherId)).toEqual([]);
  });

  it('writes the records a change is about in the same transaction, or none of them', async () => {
    const order = await newOrder();
    const noteWrite = (documentId: string) => ({
      action: 'create' as const,
      collectionId: COLLECTIONS.notes,
      documentId,
      data: { orderId: order.$id, authorId: 'u1', authorName: 'Ana', body: 'Hi' },
    });
    const noted: OrderChange = {
      patch: { rev: 1, updatedById: 'u1', updatedByName: 'Ana', noteCount: 1 },
      activity: { kind: 'note', data: {} },
    };
    const first = ID.unique();
    const committed = await commitOrderChange(serverClient(), order, noted, author, Date.now(), [
      noteWrite(first),
    ]);
    expect(committed).toMatchObject({ order: { rev: 1, noteCount: 1 } });
    const databases = new Databases(serverClient());
    expect(
      await databases.getDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.notes,
        documentId: first,
      }),
    ).toMatchObject({ orderId: order.$id });
    // A record whose id is taken: nothing at all is written.
    const read = await readOrderDocument(order.$id);
    const again: OrderChange = { ...noted, patch: { ...noted.patch, rev: 2, noteCount: 2 } };
    expect(
      await commitOrderChange(serverClient(), read, again, author, Date.now(), [noteWrite(first)]),
    ).toBe('conflict');
    expect(await readOrderDocument(order.$id)).toMatchObject({ rev: 1, noteCount: 1 });
    expect(await activityOf(order.$id)).toHaveLength(2);
  });

  it('commitUntilLanded lands every one of 12 concurrent changes, deciding each on a fresh read', async () => {
    const order = await newOrder();
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        commitUntilLanded(serverClient(), order.$id, (read) => ({
          change: {
            patch: {
              rev: read.rev + 1,
              updatedById: 'u1',
              updatedByName: 'Ana',
              attachmentCount: read.attachmentCount + 1,
            },
            activity: { kind: 'attachment', data: {} },
          },
          author,
        })),
      ),
    );
    expect(new Set(results.map((result) => result.order.rev)).size).toBe(12);
    expect(await readOrderDocument(order.$id)).toMatchObject({ rev: 12, attachmentCount: 12 });
    expect(await activityOf(order.$id)).toHaveLength(13);
  });

  it('commitUntilLanded gives up only at its time limit, with a clear refusal and nothing written', async () => {
    const order = await newOrder();
    // A decision that is always stale: the order changes between every read and commit.
    const databases = new Databases(serverClient());
    const refused = commitUntilLanded(
      serverClient(),
      order.$id,
      async (read) => {
        await databases.updateDocument({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.orders,
          documentId: order.$id,
          data: { customerName: `Tia ${Math.random()}` },
        });
        return { change: claim(read.rev), author };
      },
      1_500,
    );
    await expect(refused).rejects.toMatchObject({
      code: 'ORDER_CONFLICT',
      message: expect.stringMatching(/kept changing .* nothing was saved/),
    });
    expect(await readOrderDocument(order.$id)).toMatchObject({ rev: 0, assigneeId: null });
    expect(await activityOf(order.$id)).toHaveLength(1);
  });

  it('commitHeldOrderChange writes what commitOrderChange writes, without reading the order', async () => {
    const [read, held] = [await newOrder(), await newOrder()];
    const at = Date.now();
    const noteWrite = (orderId: string) => ({
      action: 'create' as const,
      collectionId: COLLECTIONS.notes,
      documentId: ID.unique(),
      data: { orderId, authorId: 'u1', authorName: 'Ana', body: 'Hi' },
    });
    const noted: OrderChange = {
      patch: { rev: 1, updatedById: 'u1', updatedByName: 'Ana', noteCount: 1 },
      activity: { kind: 'note', data: { action: 'added' } },
    };
    await commitOrderChange(serverClient(), read, noted, author, at, [noteWrite(read.$id)]);
    expect(
      await commitHeldOrderChange(serverClient(), held.$id, noted, author, at, [
        noteWrite(held.$id),
      ]),
    ).toBe('committed');
    const [a, b] = [await readOrderDocument(read.$id), await readOrderDocument(held.$id)];
    const attributes = ({
      $id: _i,
      $createdAt: _c,
      $updatedAt: _u,
      $sequence: _s,
      number: _n,
      ...rest
    }: OrderDocument) => rest;
    expect(attributes(b)).toEqual(attributes(a));
    const records = async (orderId: string) =>
      ((await activityOf(orderId)) as unknown as Record<string, unknown>[]).map((record) => ({
        id: String(record.$id).replace(orderId, ''),
        ...Object.fromEntries(
          ['orderId', 'kind', 'actorId', 'actorName', 'data', 'at'].map((key) => [
            key,
            key === 'orderId' ? record[key] === orderId : record[key],
          ]),
        ),
      }));
    // The change's record (the first ones, `.r0`, were made apart).
    expect((await records(held.$id)).slice(1)).toEqual((await records(read.$id)).slice(1));
  });

  it('commitHeldOrderChange writes nothing when the order moved on since it was held', async () => {
    const held = await newOrder();
    // Someone else changes it as every writer does: the order and the record of its revision.
    await commitOrderChange(serverClient(), held, claim(0), { id: 'u2', name: 'Ben' }, Date.now());
    const stale = { ...claim(0), patch: { ...claim(0).patch, assigneeName: 'Stale' } };
    expect(await commitHeldOrderChange(serverClient(), held.$id, stale, author, Date.now())).toBe(
      'conflict',
    );
    expect(await readOrderDocument(held.$id)).toMatchObject({ rev: 1, assigneeName: 'Ana' });
    expect((await activityOf(held.$id)).map((record) => record.actorName)).toEqual(['Ana', 'Ben']);
    // Decided again on the order as it is now, it lands.
    expect(
      await commitHeldOrderChange(serverClient(), held.$id, claim(1), author, Date.now()),
    ).toBe('committed');
    expect(await readOrderDocument(held.$id)).toMatchObject({ rev: 2 });
  });

  it('writeNewOrder creates the order with its first record, or nothing when the id is taken', async () => {
    const orderId = ID.unique();
    const write = (data: OrderDocumentData) =>
      writeNewOrder(
        serverClient(),
        { orderId, data, permissions: [] },
        { kind: 'created', data: {} },
        author,
        Date.now(),
      );
    await write(orderData());
    expect(await readOrderDocument(orderId)).toMatchObject({ rev: 0, status: 'paid' });
    expect((await activityOf(orderId)).map((record) => record.$id)).toEqual([`${orderId}.r0`]);
    await expect(write(orderData())).rejects.toMatchObject({ code: 409 });
    expect(await activityOf(orderId)).toHaveLength(1);
  });
});
