import {
  type ChangeKind,
  SYNCED_COLLECTIONS,
  reconcileBatch,
  type RecordDiff,
  type RemoteChange,
  type SyncedCollection,
  type SyncedEntities,
} from './changes.ts';
import { EntityTable } from './entity-table.ts';
import { isNewer, type Tombstone } from './reconcile.ts';

/**
 * The records as the backend has them, one table per synced set, and the tombstones of deleted
 * ones. What this tab is doing itself (optimistic orders, notes being sent) is not here: it is
 * the mutations' state, laid over these by the views.
 */
export type RecordsState = {
  readonly [C in SyncedCollection]: EntityTable<SyncedEntities[C]>;
} & {
  /** Stamps of deleted records per set, so a late copy cannot bring one back. */
  readonly tombstones: Readonly<Record<SyncedCollection, EntityTable<Tombstone>>>;
  /**
   * The sets read whole (members, presences): the time their last whole read is known to cover.
   * A copy of a record the read did not have, stamped before it, is of one deleted since.
   */
  readonly wholeAsOf: Readonly<Record<WholeSet, number>>;
};

/** The sets the backend deletes for good, read whole after a gap. */
export type WholeSet = 'members' | 'presence';

/** The diffs of one update per set: first version before it, last after it. */
export type RecordDiffs = {
  readonly [C in SyncedCollection]?: readonly RecordDiff<SyncedEntities[C]>[];
};

/** What an update changed: the tables that are new, and the diffs of their records. */
export interface RecordsUpdate {
  patch: Partial<RecordsState>;
  diffs: RecordDiffs;
}

/** No records. */
export function emptyRecords(): RecordsState {
  const tables = Object.fromEntries(SYNCED_COLLECTIONS.map((c) => [c, EntityTable.empty()]));
  const tombstones = Object.fromEntries(SYNCED_COLLECTIONS.map((c) => [c, EntityTable.empty()]));
  const wholeAsOf = { members: -Infinity, presence: -Infinity };
  return { ...tables, tombstones, wholeAsOf } as unknown as RecordsState;
}

type Grouped = {
  [C in SyncedCollection]: { kind: ChangeKind; record: SyncedEntities[C] }[];
};

function groupChanges(
  changes: readonly RemoteChange[],
  keep?: (change: RemoteChange) => boolean,
): Partial<Grouped> {
  const grouped: Partial<Record<SyncedCollection, { kind: string; record: unknown }[]>> = {};
  for (const change of changes)
    if (!keep || keep(change)) (grouped[change.collection] ??= []).push(change);
  return grouped as Partial<Grouped>;
}

/**
 * Reconciles remote changes into the tables with the rule of `reconcile.ts` (duplicates, stale
 * copies and reordering change nothing; deletes leave tombstones; nothing is resurrected). Pure:
 * only the tables that changed are in the patch. `keep` turns changes down before they are
 * applied (notes, activity and attachments of orders no view tracks).
 */
export function reconcileRecords(
  records: RecordsState,
  changes: readonly RemoteChange[],
  keep?: (change: RemoteChange) => boolean,
): RecordsUpdate {
  const grouped = groupChanges(changes, keep);
  const patch: { -readonly [K in keyof RecordsState]?: RecordsState[K] } = {};
  const diffs: { -readonly [C in SyncedCollection]?: RecordDiffs[C] } = {};
  let tombstones: Record<SyncedCollection, EntityTable<Tombstone>> | null = null;
  for (const collection of SYNCED_COLLECTIONS) {
    const changes = grouped[collection];
    if (!changes?.length) continue;
    const table = records[collection] as EntityTable<SyncedEntities[typeof collection]>;
    const graves = records.tombstones[collection];
    const list =
      collection === 'members' || collection === 'presence'
        ? changes.filter(
            ({ kind, record }) =>
              kind === 'delete' ||
              record.updatedAt >= records.wholeAsOf[collection] ||
              table.has(record.id) ||
              graves.has(record.id),
          )
        : changes;
    const batch = reconcileBatch(table, graves, list);
    if (batch.tombstones !== graves) {
      tombstones ??= { ...records.tombstones };
      tombstones[collection] = batch.tombstones;
    }
    if (batch.diffs.length === 0) continue;
    (patch as Record<string, unknown>)[collection] = batch.table;
    (diffs as Record<string, unknown>)[collection] = batch.diffs;
  }
  if (tombstones) patch.tombstones = tombstones;
  return { patch, diffs };
}

/** The diffs between two versions of a small table (every id of both). */
function tableDiffs<T extends { id: string }>(
  before: EntityTable<T>,
  after: EntityTable<T>,
): RecordDiff<T>[] {
  const diffs: RecordDiff<T>[] = [];
  before.forEach((record) => {
    const next = after.get(record.id);
    if (next !== record) diffs.push({ before: record, after: next });
  });
  after.forEach((record) => {
    if (!before.has(record.id)) diffs.push({ before: undefined, after: record });
  });
  return diffs;
}

/**
 * Replaces a whole set with a fresh read of it (the members and presences, which the backend
 * deletes for good, are read again whole after a reconnect: a delta read cannot see deletions).
 * A record deleted after the read was taken is not brought back (its tombstone is newer), nor,
 * later, a copy of a record the read did not have that is stamped before `asOf` (a time the read
 * is known to cover).
 */
export function replaceRecords<C extends WholeSet>(
  records: RecordsState,
  collection: C,
  fresh: readonly SyncedEntities[C][],
  asOf = -Infinity,
): RecordsUpdate {
  const graves = records.tombstones[collection];
  const kept = fresh.filter((record) => {
    const grave = graves.get(record.id);
    return grave === undefined || isNewer(record, grave);
  });
  const before = records[collection] as EntityTable<SyncedEntities[C]>;
  const after = EntityTable.from(kept);
  const diffs = tableDiffs(before, after);
  const patch: Partial<RecordsState> =
    asOf > records.wholeAsOf[collection]
      ? { wholeAsOf: { ...records.wholeAsOf, [collection]: asOf } }
      : {};
  if (diffs.length === 0) return { patch, diffs: {} };
  return { patch: { ...patch, [collection]: after }, diffs: { [collection]: diffs } };
}

/** Applies `next` on top of `first` (later tables and diffs win; diffs are concatenated). */
export function mergeUpdates(first: RecordsUpdate, next: RecordsUpdate): RecordsUpdate {
  const diffs: Record<string, readonly unknown[]> = { ...first.diffs };
  for (const [collection, list] of Object.entries(next.diffs))
    diffs[collection] = [...(diffs[collection] ?? []), ...(list as unknown[])];
  return { patch: { ...first.patch, ...next.patch }, diffs: diffs as RecordDiffs };
}

/** The records with an update applied (for a step that builds on the previous one). */
export function withUpdate(records: RecordsState, update: RecordsUpdate): RecordsState {
  return { ...records, ...update.patch };
}

/** The detail sets: loaded per order while a view shows it. */
export const DETAIL_COLLECTIONS = ['notes', 'activity', 'attachments'] as const;

/** Forgets the notes, activity and attachments of an order no view shows any more. */
export function dropOrderDetail(records: RecordsState, orderId: string): RecordsUpdate {
  const patch: Record<string, unknown> = {};
  const diffs: Record<string, RecordDiff<{ id: string }>[]> = {};
  for (const collection of DETAIL_COLLECTIONS) {
    const table = records[collection] as EntityTable<SyncedEntities[typeof collection]>;
    const dropped: RecordDiff<SyncedEntities[typeof collection]>[] = [];
    table.forEach((record) => {
      if (record.orderId === orderId) dropped.push({ before: record, after: undefined });
    });
    if (dropped.length === 0) continue;
    const draft = table.edit();
    for (const { before } of dropped) draft.delete(before!.id);
    // An empty table starts afresh, so the ids of details no longer shown are forgotten.
    patch[collection] = draft.size === 0 ? EntityTable.empty() : draft.commit();
    diffs[collection] = dropped;
  }
  return { patch: patch as Partial<RecordsState>, diffs: diffs as RecordDiffs };
}
