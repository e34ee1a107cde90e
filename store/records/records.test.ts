import { describe, expect, it } from 'vitest';
import type { PresenceEntry } from './people.ts';
import {
  dropOrderDetail,
  emptyRecords,
  reconcileRecords,
  replaceRecords,
  withUpdate,
} from './records.ts';

const viewer = (id: string, updatedAt: number, orderId: string | null = 'o1'): PresenceEntry => ({
  id,
  updatedAt,
  userId: `u-${id}`,
  name: id,
  orderId,
  status: 'viewing',
});

describe('records', () => {
  it('reconcile only the sets a batch touches, keeping what `keep` turns down out', () => {
    const records = emptyRecords();
    const note = {
      id: 'n1',
      orderId: 'o9',
      createdAt: 1,
      updatedAt: 1,
      authorId: 'a',
      authorName: 'A',
      body: 'x',
      deleted: false,
    };
    const update = reconcileRecords(
      records,
      [
        { collection: 'presence', kind: 'upsert', record: viewer('p1', 1) },
        { collection: 'notes', kind: 'upsert', record: note },
      ],
      (change) => change.collection !== 'notes',
    );
    expect(Object.keys(update.patch)).toEqual(['presence']);
    expect(update.diffs.presence).toEqual([{ before: undefined, after: viewer('p1', 1) }]);
    expect(reconcileRecords(records, []).patch).toEqual({});
  });

  it('replace a set read again whole, without bringing back what was deleted after the read', () => {
    let records = emptyRecords();
    const add = reconcileRecords(records, [
      { collection: 'presence', kind: 'upsert', record: viewer('p1', 1) },
      { collection: 'presence', kind: 'upsert', record: viewer('p2', 1) },
    ]);
    records = withUpdate(records, add);
    // p2 was deleted (event applied) after the fresh read was taken.
    records = withUpdate(
      records,
      reconcileRecords(records, [
        { collection: 'presence', kind: 'delete', record: viewer('p2', 2) },
      ]),
    );
    const fresh = [viewer('p2', 2), viewer('p3', 3)];
    const replaced = replaceRecords(records, 'presence', fresh);
    const after = withUpdate(records, replaced).presence;
    expect(after.toArray().map((p) => p.id)).toEqual(['p3']);
    expect(replaced.diffs.presence).toEqual([
      { before: viewer('p1', 1), after: undefined },
      { before: undefined, after: viewer('p3', 3) },
    ]);
    expect(replaceRecords(withUpdate(records, replaced), 'presence', fresh).patch).toEqual({});
  });

  it('drop the detail of an order no view shows', () => {
    const note = (id: string, orderId: string) => ({
      id,
      orderId,
      createdAt: 1,
      updatedAt: 1,
      authorId: 'a',
      authorName: 'A',
      body: id,
      deleted: false,
    });
    const records = withUpdate(
      emptyRecords(),
      reconcileRecords(emptyRecords(), [
        { collection: 'notes', kind: 'upsert', record: note('n1', 'o1') },
        { collection: 'notes', kind: 'upsert', record: note('n2', 'o2') },
      ]),
    );
    const dropped = dropOrderDetail(records, 'o1');
    expect(
      withUpdate(records, dropped)
        .notes.toArray()
        .map((n) => n.id),
    ).toEqual(['n2']);
    expect(dropped.diffs.notes).toEqual([{ before: note('n1', 'o1'), after: undefined }]);
    expect(dropOrderDetail(records, 'o3').patch).toEqual({});
  });
});
