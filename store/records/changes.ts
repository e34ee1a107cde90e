import type { Activity, Attachment, ExportJob, Note, Product } from '../../domain/entities.ts';
import type { Order } from '../../domain/order.ts';
import type { EntityTable } from './entity-table.ts';
import type { PresenceEntry, TeamMember } from './people.ts';
import {
  reconcileDelete,
  reconcileUpsert,
  tombstoneOf,
  type Stamped,
  type Tombstone,
} from './reconcile.ts';

/**
 * The record type of each set the store keeps in sync with the backend: the database
 * collections (ids as in `COLLECTIONS`), the desk team's memberships and the presences.
 */
export interface SyncedEntities {
  orders: Order;
  products: Product;
  notes: Note;
  activity: Activity;
  attachments: Attachment;
  exports: ExportJob;
  members: TeamMember;
  presence: PresenceEntry;
}

/** A set the store keeps in sync (see {@link SyncedEntities}). */
export type SyncedCollection = keyof SyncedEntities;

/** Every synced set. */
export const SYNCED_COLLECTIONS: readonly SyncedCollection[] = [
  'orders',
  'products',
  'notes',
  'activity',
  'attachments',
  'exports',
  'members',
  'presence',
];

/**
 * What a change does: `upsert` the record, `delete` it (the record as it was deleted; a tombstone
 * stops late copies), or `evict` it: the desk lets go of the record it holds, which the backend
 * keeps (an order aged out of the desk's window), so nothing stops a later copy of it.
 */
export type ChangeKind = 'upsert' | 'delete' | 'evict';

/**
 * One change from the backend (a realtime event, a snapshot or resync document), or the desk
 * letting go of a record (see {@link ChangeKind}).
 */
export type RemoteChange = {
  [C in SyncedCollection]: { collection: C; kind: ChangeKind; record: SyncedEntities[C] };
}[SyncedCollection];

/** The change of one record across a batch: absent `before` is a create, absent `after` a removal. */
export interface RecordDiff<T> {
  before: T | undefined;
  after: T | undefined;
}

/** The outcome of reconciling a batch into a table. */
export interface TableBatch<T extends Stamped> {
  table: EntityTable<T>;
  tombstones: EntityTable<Tombstone>;
  /** One diff per record that changed, first version before the batch to last after it. */
  diffs: RecordDiff<T>[];
}

/**
 * Reconciles a batch of upserts and deletes into a table with the rule of `reconcile.ts`:
 * duplicates, stale copies and reordering change nothing, a delete leaves a tombstone, and
 * nothing is resurrected. An eviction removes the record only while it is the one held, and
 * leaves no tombstone. Pure: returns new tables (or the same ones when nothing changed).
 */
export function reconcileBatch<T extends Stamped>(
  table: EntityTable<T>,
  tombstones: EntityTable<Tombstone>,
  changes: readonly { kind: ChangeKind; record: T }[],
): TableBatch<T> {
  const draft = table.edit();
  const graves = tombstones.edit();
  // Keyed by slot, not id: see IdSlots on string keys. One slot lookup per change, and a
  // tombstone lookup only once there are tombstones.
  const first = new Map<number, T | undefined>();
  for (const { kind, record } of changes) {
    const slot = draft.slotOf(record.id);
    const current = draft.atSlot(slot);
    const grave = graves.size > 0 ? graves.get(record.id) : undefined;
    if (kind === 'upsert') {
      if (reconcileUpsert(record, current, grave) === 'ignore') continue;
      if (!first.has(slot)) first.set(slot, current);
      draft.setAt(slot, record);
      if (grave) graves.delete(record.id);
    } else if (kind === 'evict') {
      if (current !== record) continue;
      if (!first.has(slot)) first.set(slot, current);
      draft.setAt(slot, undefined);
    } else {
      if (reconcileDelete(record, current) === 'ignore') continue;
      if (grave === undefined || reconcileUpsert(record, undefined, grave) === 'apply')
        graves.set(tombstoneOf(record));
      if (current === undefined) continue;
      if (!first.has(slot)) first.set(slot, current);
      draft.setAt(slot, undefined);
    }
  }
  const next = draft.commit();
  const diffs: RecordDiff<T>[] = [];
  for (const [slot, before] of first) {
    const after = next.atSlot(slot);
    if (before !== after) diffs.push({ before, after });
  }
  return { table: next, tombstones: graves.commit(), diffs };
}
