import type { MutationsState } from './mutations/mutations.ts';
import type { RemoteChange } from './records/changes.ts';
import { EntityTable } from './records/entity-table.ts';
import type { PresenceEntry, TeamMember } from './records/people.ts';
import {
  DETAIL_COLLECTIONS,
  dropOrderDetail,
  mergeUpdates,
  reconcileRecords,
  replaceRecords,
  withUpdate,
  type RecordsState,
  type RecordsUpdate,
  type WholeSet,
} from './records/records.ts';
import type { DeskState } from './state.ts';
import type { SnapshotRecords } from './sync/load-plan.ts';
import type { SyncState } from './sync/sync-state.ts';
import { rebuildOrderViews, updateViews } from './views/views.ts';

/**
 * A change that spans the store's parts, applied in one `set`. Each part computes its own new
 * state (the mutations their optimistic orders and failures, the sync engine its connection and
 * details); the records and the views follow from the backend records given here.
 */
export interface DeskChange {
  /** Backend records to reconcile: realtime events, reads, the answers of our writes. */
  remote?: readonly RemoteChange[];
  /**
   * Sets read again whole, replacing what is held (applied before `remote`); `asOf`: a time the
   * read is known to cover (see `replaceRecords`).
   */
  replace?: readonly (
    | { collection: 'members'; records: readonly TeamMember[]; asOf?: number }
    | { collection: 'presence'; records: readonly PresenceEntry[]; asOf?: number }
  )[];
  /** An order whose notes, activity and attachments no view shows any more. */
  dropDetail?: string;
  /** The mutations part's new state. */
  mutations?: Partial<MutationsState>;
  /** The sync part's new state. */
  sync?: Partial<SyncState>;
}

const DETAIL = new Set<string>(DETAIL_COLLECTIONS);

/** How a snapshot is loaded (see {@link loadSnapshot}). */
export interface SnapshotOptions {
  /** In place of the partial snapshot shown while the rest loaded. */
  replace?: boolean;
  /** Per set read whole: a time the read is known to cover (see `replaceRecords`). */
  asOf?: Partial<Record<WholeSet, number>>;
}

/**
 * The store's one write path across parts: `commit(change)` reconciles the records, brings the
 * views up to date and writes every part's new state in one `set`; nothing is written when
 * nothing changed.
 */
export function createCommit(
  get: () => DeskState,
  set: (patch: Partial<DeskState>) => void,
  now: () => number,
): (change: DeskChange) => void {
  return (change) => {
    const s = get();
    const details = change.sync?.details ?? s.details;
    let update: RecordsUpdate | null = null;
    // Most commits are one step (a realtime batch): no merging, no copy of the state for it.
    const current = (): RecordsState => (update === null ? s : withUpdate(s, update));
    const step = (next: RecordsUpdate) => {
      update = update === null ? next : mergeUpdates(update, next);
    };
    if (change.dropDetail !== undefined) step(dropOrderDetail(s, change.dropDetail));
    for (const whole of change.replace ?? [])
      step(
        whole.collection === 'members'
          ? replaceRecords(current(), 'members', whole.records, whole.asOf)
          : replaceRecords(current(), 'presence', whole.records, whole.asOf),
      );
    if (change.remote?.length)
      step(
        reconcileRecords(
          current(),
          change.remote,
          // Notes, activity and attachments only of orders a view tracks.
          (c) =>
            !DETAIL.has(c.collection) ||
            details[(c.record as { orderId: string }).orderId] !== undefined,
        ),
      );
    const done: RecordsUpdate = update ?? { patch: {}, diffs: {} };
    const optimistic = change.mutations?.optimistic ?? s.optimistic;
    const changed = Object.keys(done.patch).length > 0 || optimistic !== s.optimistic;
    const p = done.patch;
    const views = changed
      ? updateViews(s, {
          tables: {
            orders: p.orders ?? s.orders,
            products: p.products ?? s.products,
            exports: p.exports ?? s.exports,
            members: p.members ?? s.members,
          },
          changed: p,
          diffs: done.diffs,
          optimistic: { before: s.optimistic, after: optimistic },
          now: now(),
        })
      : {};
    const patch: Partial<DeskState> = {
      ...done.patch,
      ...views,
      ...change.mutations,
      ...change.sync,
    };
    if (Object.keys(patch).length) set(patch);
  };
}

/**
 * Loads a snapshot. Orders go into an empty table in one pass (or, with `replace`, in place of
 * the newest orders shown while the rest loaded), with every view built once; otherwise, and for
 * products and export jobs, they are reconciled like any change. Members and presences replace
 * what is held (the backend deletes them for good). Events buffered meanwhile come after.
 */
export function loadSnapshot(
  get: () => DeskState,
  set: (patch: Partial<DeskState>) => void,
  commit: (change: DeskChange) => void,
  now: () => number,
  snapshot: SnapshotRecords,
  options: SnapshotOptions = {},
): void {
  const s = get();
  const remote: RemoteChange[] = [];
  const given = snapshot.orders;
  if (given !== undefined && (given instanceof EntityTable ? given.size : given.length) > 0) {
    const bulk =
      (s.orders.size === 0 || options.replace === true) &&
      s.tombstones.orders.size === 0 &&
      Object.keys(s.optimistic).length === 0;
    if (bulk) {
      const orders = given instanceof EntityTable ? given : EntityTable.from(given);
      set({ orders, ...rebuildOrderViews(s, orders, now()) });
    } else
      for (const record of given instanceof EntityTable ? given.values() : given)
        remote.push({ collection: 'orders', kind: 'upsert', record });
  }
  for (const record of snapshot.products ?? [])
    remote.push({ collection: 'products', kind: 'upsert', record });
  for (const record of snapshot.exports ?? [])
    remote.push({ collection: 'exports', kind: 'upsert', record });
  const replace: NonNullable<DeskChange['replace']>[number][] = [];
  if (snapshot.members)
    replace.push({
      collection: 'members',
      records: snapshot.members,
      ...(options.asOf?.members === undefined ? {} : { asOf: options.asOf.members }),
    });
  if (snapshot.presence)
    replace.push({
      collection: 'presence',
      records: snapshot.presence,
      ...(options.asOf?.presence === undefined ? {} : { asOf: options.asOf.presence }),
    });
  if (remote.length || replace.length) commit({ remote, replace });
}
