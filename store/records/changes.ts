import type { Activity, Attachment, ExportJob, Note, Product } from '../../domain/entities.ts';
import type { Order } from '../../domain/order.ts';
import type { EntityTable } from './entity-table.ts';
import {
  reconcileDelete,
  reconcileUpsert,
  tombstoneOf,
  type Stamped,
  type Tombstone,
} from './reconcile.ts';

/** The record type of each collection the store keeps in sync with the backend. */
export interface SyncedEntities {
  orders: Order;
  products: Product;
  notes: Note;
  activity: Activity;
  attachments: Attachment;
  exports: ExportJob;
}

/** A collection the store keeps in sync (ids as in `COLLECTIONS`). */
export type SyncedCollection = keyof SyncedEntities;

/** Every synced collection. */
export const SYNCED_COLLECTIONS: readonly SyncedCollection[] = [
  'orders',
  'products',
  'notes',
  'activity',
  'attachments',
  'exports',
];

/**
 * One change from the backend (a realtime event, a snapshot or resync document): an upsert of
 * the record, or its deletion (the record as it was deleted).
 */
export type RemoteChange = {
  [C in SyncedCollection]: { collection: C; kind: 'upsert' | 'delete'; record: SyncedEntities[C] };
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
 * nothing is resurrected. Pure: returns new tables (or the same ones when nothing changed).
 */
export function reconcileBatch<T extends Stamped>(
  table: EntityTable<T>,
  tombstones: EntityTable<Tombstone>,
  changes: readonly { kind: 'upsert' | 'delete'; record: T }[],
): TableBatch<T> {
  const draft = table.edit();
  const graves = tombstones.edit();
  // Keyed by slot, not id: see IdSlots on string keys. One slot lookup per change.
  const first = new Map<number, T | undefined>();
  for (const { kind, record } of changes) {
    const slot = draft.slotOf(record.id);
    const current = draft.atSlot(slot);
    const grave = graves.get(record.id);
    if (kind === 'upsert') {
      if (reconcileUpsert(record, current, grave) === 'ignore') continue;
      if (!first.has(slot)) first.set(slot, current);
      draft.setAt(slot, record);
      if (grave) graves.delete(record.id);
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

/**
 * Keeps per-order lists (notes, activity, attachments of one order) sorted and up to date from
 * diffs. Returns the same object when no list changed; otherwise a new object in which only the
 * changed orders' arrays are new.
 */
export function regroupByOrder<T extends { id: string; orderId: string }>(
  groups: Readonly<Record<string, readonly T[]>>,
  diffs: readonly RecordDiff<T>[],
  options: { compare: (a: T, b: T) => number; visible: (record: T) => boolean },
): Readonly<Record<string, readonly T[]>> {
  const touched = new Map<string, T[]>();
  const list = (orderId: string): T[] => {
    let items = touched.get(orderId);
    if (!items) {
      items = (groups[orderId] ?? []).slice();
      touched.set(orderId, items);
    }
    return items;
  };
  for (const { before, after } of diffs) {
    if (before !== undefined) {
      const items = list(before.orderId);
      const at = items.findIndex((item) => item.id === before.id);
      if (at !== -1) items.splice(at, 1);
    }
    if (after !== undefined && options.visible(after)) list(after.orderId).push(after);
  }
  if (touched.size === 0) return groups;
  const next: Record<string, readonly T[]> = { ...groups };
  for (const [orderId, items] of touched) next[orderId] = items.sort(options.compare);
  return next;
}
