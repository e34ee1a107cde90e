import { castDraft } from 'immer';
import type { Activity, Attachment, ExportJob, Note, Product } from '../domain/entities.ts';
import type { Order } from '../domain/order.ts';
import { MetricsAccumulator, sameMetrics, type DeskMetrics } from './views/metrics.ts';
import type { DataSlice, DeskSlice, DeskState, PresenceEntry, TeamMember } from './state.ts';
import { nextConnection } from './sync/connection.ts';
import {
  reconcileBatch,
  regroupByOrder,
  type RecordDiff,
  type RemoteChange,
  type SyncedEntities,
} from './records/changes.ts';
import { EntityTable } from './records/entity-table.ts';
import {
  DEFAULT_ORDER_VIEW,
  buildOrderIndex,
  normalizeViewSpec,
  orderViewKey,
  type OrderViewSpec,
} from './views/order-views.ts';
import {
  buildBoard,
  reconcileOrders,
  updateOrderDerived,
  viewDefOf,
  visibleOrder,
  type OrderViewEntry,
} from './views/order-derived.ts';
import type { Tombstone } from './records/reconcile.ts';

/** Unreferenced table views kept around (most recently used first) before being dropped. */
const KEEP_UNUSED_VIEWS = 2;

/** What the data slice needs from its surroundings. */
export interface DataContext {
  now(): number;
}

const byCreated = <T extends { id: string; createdAt: number }>(a: T, b: T) =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);
const byActivityTime = (a: Activity, b: Activity) => a.at - b.at || (a.id < b.id ? -1 : 1);
const byUpdated = (a: Attachment, b: Attachment) =>
  a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : 1);
const byProductOrder = (a: Product, b: Product) =>
  a.sortOrder - b.sortOrder || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1);
const byNewest = (a: ExportJob, b: ExportJob) =>
  b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1);
const byMemberName = (a: TeamMember, b: TeamMember) =>
  a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1);

/** The state of an empty desk at `now`. */
export function emptyData(now: number): Omit<DataSlice, keyof DataActions> {
  const orders = EntityTable.empty<Order>();
  const metricsAcc = MetricsAccumulator.build([], now);
  const defaultKey = orderViewKey(DEFAULT_ORDER_VIEW);
  const spec = normalizeViewSpec(DEFAULT_ORDER_VIEW);
  return {
    orders,
    orderTombstones: EntityTable.empty(),
    overlays: {},
    board: buildBoard(orders, metricsAcc.dayStart),
    orderViews: {
      [defaultKey]: {
        key: defaultKey,
        spec,
        index: buildOrderIndex(viewDefOf(spec), orders),
        refs: 1,
        touched: 0,
      },
    },
    metricsAcc,
    metrics: metricsAcc.snapshot(now),
    products: EntityTable.empty(),
    productList: [],
    exports: EntityTable.empty(),
    exportList: [],
    notes: EntityTable.empty(),
    activity: EntityTable.empty(),
    attachments: EntityTable.empty(),
    tombstones: {
      products: EntityTable.empty(),
      notes: EntityTable.empty(),
      activity: EntityTable.empty(),
      attachments: EntityTable.empty(),
      exports: EntityTable.empty(),
    },
    notesByOrder: {},
    activityByOrder: {},
    attachmentsByOrder: {},
    details: {},
    members: EntityTable.empty(),
    memberList: [],
    presence: EntityTable.empty(),
  };
}

type DataActions = Pick<
  DataSlice,
  | 'applyRemote'
  | 'loadSnapshot'
  | 'acquireOrderView'
  | 'tick'
  | 'trackOrderDetail'
  | 'setOrderDetailStatus'
  | 'untrackOrderDetail'
  | 'beginOptimistic'
  | 'settleOptimistic'
  | 'setMembers'
  | 'setPresences'
  | 'applyPresence'
  | 'removePresence'
>;

type Grouped = {
  [C in keyof SyncedEntities]: { kind: 'upsert' | 'delete'; record: SyncedEntities[C] }[];
};

function groupChanges(changes: readonly RemoteChange[]): Grouped {
  const grouped: Grouped = {
    orders: [],
    products: [],
    notes: [],
    activity: [],
    attachments: [],
    exports: [],
  };
  for (const change of changes)
    (grouped[change.collection] as { kind: string; record: unknown }[]).push(change);
  return grouped;
}

/** The published metrics at `now`: the previous object when the numbers are the same. */
function publish(previous: DeskMetrics, acc: MetricsAccumulator, now: number): DeskMetrics {
  const next = acc.snapshot(now);
  return sameMetrics(previous, next) ? previous : next;
}

/**
 * The order part of a state update: reconciled orders and, when they changed, the board,
 * views and metrics (or a day rollover).
 */
function orderUpdate(
  s: DeskState,
  nextRecords: Pick<DeskState, 'orders' | 'orderTombstones' | 'overlays'>,
  diffs: readonly RecordDiff<Order>[],
  now: number,
): Partial<DeskState> {
  const patch: Partial<DeskState> = {};
  if (nextRecords.orders !== s.orders) patch.orders = nextRecords.orders;
  if (nextRecords.orderTombstones !== s.orderTombstones)
    patch.orderTombstones = nextRecords.orderTombstones;
  if (nextRecords.overlays !== s.overlays) patch.overlays = nextRecords.overlays;
  const derived = updateOrderDerived(s, nextRecords.orders, diffs, now);
  if (derived.board !== s.board) patch.board = derived.board;
  if (derived.orderViews !== s.orderViews) patch.orderViews = derived.orderViews;
  if (derived.metricsAcc !== s.metricsAcc) {
    patch.metricsAcc = derived.metricsAcc;
    const metrics = publish(s.metrics, derived.metricsAcc, now);
    if (metrics !== s.metrics) patch.metrics = metrics;
  }
  return patch;
}

/** Reconciles the non-order collections of a batch into a state patch. */
function otherUpdate(s: DeskState, grouped: Grouped, patch: Partial<DeskState>): void {
  let tombstones:
    { -readonly [K in keyof DeskState['tombstones']]: EntityTable<Tombstone> } | null = null;
  const graves = (collection: keyof DeskState['tombstones'], next: EntityTable<Tombstone>) => {
    if (next === s.tombstones[collection]) return;
    tombstones ??= { ...s.tombstones };
    tombstones[collection] = next;
  };
  if (grouped.products.length) {
    const batch = reconcileBatch(s.products, s.tombstones.products, grouped.products);
    graves('products', batch.tombstones);
    if (batch.diffs.length) {
      patch.products = batch.table;
      patch.productList = batch.table.toArray().sort(byProductOrder);
    }
  }
  if (grouped.exports.length) {
    const batch = reconcileBatch(s.exports, s.tombstones.exports, grouped.exports);
    graves('exports', batch.tombstones);
    if (batch.diffs.length) {
      patch.exports = batch.table;
      patch.exportList = batch.table.toArray().sort(byNewest);
    }
  }
  const tracked = <T extends { orderId: string }>(
    list: { kind: 'upsert' | 'delete'; record: T }[],
  ) => list.filter(({ record }) => s.details[record.orderId] !== undefined);
  const notes = tracked(grouped.notes);
  if (notes.length) {
    const batch = reconcileBatch(s.notes, s.tombstones.notes, notes);
    graves('notes', batch.tombstones);
    if (batch.diffs.length) {
      patch.notes = batch.table;
      patch.notesByOrder = regroupByOrder(s.notesByOrder, batch.diffs, {
        compare: byCreated,
        visible: (note: Note) => !note.deleted,
      });
    }
  }
  const activity = tracked(grouped.activity);
  if (activity.length) {
    const batch = reconcileBatch(s.activity, s.tombstones.activity, activity);
    graves('activity', batch.tombstones);
    if (batch.diffs.length) {
      patch.activity = batch.table;
      patch.activityByOrder = regroupByOrder(s.activityByOrder, batch.diffs, {
        compare: byActivityTime,
        visible: () => true,
      });
    }
  }
  const attachments = tracked(grouped.attachments);
  if (attachments.length) {
    const batch = reconcileBatch(s.attachments, s.tombstones.attachments, attachments);
    graves('attachments', batch.tombstones);
    if (batch.diffs.length) {
      patch.attachments = batch.table;
      patch.attachmentsByOrder = regroupByOrder(s.attachmentsByOrder, batch.diffs, {
        compare: byUpdated,
        visible: (attachment: Attachment) => !attachment.deleted,
      });
    }
  }
  if (tombstones) patch.tombstones = tombstones;
}

/** Drops every record of an order's detail from a table and its per-order list. */
function dropDetail<T extends { id: string }>(
  table: EntityTable<T>,
  groups: Readonly<Record<string, readonly T[]>>,
  orderId: string,
  all: readonly T[],
): { table: EntityTable<T>; groups: Readonly<Record<string, readonly T[]>> } {
  const draft = table.edit();
  for (const record of all) draft.delete(record.id);
  const { [orderId]: _dropped, ...rest } = groups;
  // An empty table starts afresh, so ids of details no longer shown are forgotten.
  return { table: draft.size === 0 ? EntityTable.empty() : draft.commit(), groups: rest };
}

/** The entity tables, indexes and metrics, with their actions. */
export function createDataSlice(context: DataContext): DeskSlice<DataSlice> {
  let viewSeq = 0;
  return (set, get) => {
    const releaseView = (key: string) =>
      set((draft) => {
        const entry = draft.orderViews[key];
        if (!entry) return;
        entry.refs = Math.max(0, entry.refs - 1);
        entry.touched = ++viewSeq;
        const unused = Object.values(draft.orderViews)
          .filter((view) => view.refs === 0)
          .sort((a, b) => b.touched - a.touched);
        for (const view of unused.slice(KEEP_UNUSED_VIEWS)) delete draft.orderViews[view.key];
      });

    return {
      ...emptyData(context.now()),

      applyRemote(changes, meta) {
        const s = get();
        const now = context.now();
        const grouped = groupChanges(changes);
        const batch = grouped.orders.length
          ? reconcileOrders(s, grouped.orders)
          : {
              orders: s.orders,
              orderTombstones: s.orderTombstones,
              overlays: s.overlays,
              diffs: [],
            };
        const patch = orderUpdate(s, batch, batch.diffs, now);
        otherUpdate(s, grouped, patch);
        if (meta?.eventsAt !== undefined) {
          const connection = nextConnection(s.connection, { type: 'events', at: meta.eventsAt });
          if (connection !== s.connection) patch.connection = connection;
        }
        if (Object.keys(patch).length === 0) return;
        set((draft) => {
          Object.assign(draft, patch);
        });
      },

      loadSnapshot(records, options) {
        const s = get();
        const now = context.now();
        const changes: RemoteChange[] = [];
        const patch: Partial<DeskState> = {};
        if (records.orders?.length) {
          const bulk =
            (s.orders.size === 0 || options?.replace === true) &&
            s.orderTombstones.size === 0 &&
            Object.keys(s.overlays).length === 0;
          if (bulk) {
            const orders = EntityTable.from(records.orders);
            const metricsAcc = MetricsAccumulator.build(orders.values(), now);
            const orderViews: Record<string, OrderViewEntry> = {};
            for (const [key, entry] of Object.entries(s.orderViews))
              orderViews[key] = { ...entry, index: buildOrderIndex(viewDefOf(entry.spec), orders) };
            Object.assign(patch, {
              orders,
              metricsAcc,
              metrics: publish(s.metrics, metricsAcc, now),
              board: buildBoard(orders, metricsAcc.dayStart),
              orderViews,
            });
          } else
            for (const record of records.orders)
              changes.push({ collection: 'orders', kind: 'upsert', record });
        }
        for (const record of records.products ?? [])
          changes.push({ collection: 'products', kind: 'upsert', record });
        for (const record of records.exports ?? [])
          changes.push({ collection: 'exports', kind: 'upsert', record });
        if (Object.keys(patch).length) set((draft) => void Object.assign(draft, patch));
        if (changes.length) get().applyRemote(changes);
      },

      acquireOrderView(spec: OrderViewSpec) {
        const key = orderViewKey(spec);
        const seq = ++viewSeq;
        const existing = get().orderViews[key];
        const entry: OrderViewEntry | null = existing
          ? null
          : (() => {
              const normalized = normalizeViewSpec(spec);
              return {
                key,
                spec: normalized,
                index: buildOrderIndex(viewDefOf(normalized), get().orders),
                refs: 0,
                touched: seq,
              };
            })();
        set((draft) => {
          if (entry && !draft.orderViews[key]) draft.orderViews[key] = castDraft(entry);
          const view = draft.orderViews[key]!;
          view.refs++;
          view.touched = seq;
        });
        let released = false;
        return {
          key,
          release: () => {
            if (released) return;
            released = true;
            releaseView(key);
          },
        };
      },

      tick(now = context.now()) {
        const s = get();
        const patch = orderUpdate(s, s, [], now);
        const metrics = publish(patch.metrics ?? s.metrics, patch.metricsAcc ?? s.metricsAcc, now);
        if (metrics !== s.metrics) patch.metrics = metrics;
        if (Object.keys(patch).length) set((draft) => void Object.assign(draft, patch));
      },

      trackOrderDetail(orderId) {
        set((draft) => {
          const detail = draft.details[orderId];
          if (detail) detail.refs++;
          else draft.details[orderId] = { status: 'loading', error: null, refs: 1 };
        });
      },

      setOrderDetailStatus(orderId, status, error) {
        set((draft) => {
          const detail = draft.details[orderId];
          if (!detail) return;
          detail.status = status;
          detail.error = error ?? null;
        });
      },

      untrackOrderDetail(orderId) {
        const s = get();
        const detail = s.details[orderId];
        if (!detail) return;
        if (detail.refs > 1) {
          set((draft) => void draft.details[orderId]!.refs--);
          return;
        }
        const notes = dropDetail(
          s.notes,
          s.notesByOrder,
          orderId,
          [...s.notes.values()].filter((note) => note.orderId === orderId),
        );
        const activity = dropDetail(
          s.activity,
          s.activityByOrder,
          orderId,
          [...s.activity.values()].filter((entry) => entry.orderId === orderId),
        );
        const attachments = dropDetail(
          s.attachments,
          s.attachmentsByOrder,
          orderId,
          [...s.attachments.values()].filter((attachment) => attachment.orderId === orderId),
        );
        set((draft) => {
          delete draft.details[orderId];
          draft.notes = notes.table;
          draft.notesByOrder = castDraft(notes.groups);
          draft.activity = activity.table;
          draft.activityByOrder = castDraft(activity.groups);
          draft.attachments = attachments.table;
          draft.attachmentsByOrder = castDraft(attachments.groups);
        });
      },

      beginOptimistic(optimistic, action) {
        const s = get();
        const id = optimistic.id;
        const held = s.overlays[id];
        const base = held ? held.base : s.orders.get(id);
        const overlays = { ...s.overlays, [id]: { base, optimistic } };
        const draft = s.orders.edit();
        const before = s.orders.get(id);
        const visible = visibleOrder(overlays[id]!);
        if (visible) draft.set(visible);
        const orders = draft.commit();
        const after = orders.get(id);
        const diffs = before === after ? [] : [{ before, after }];
        const patch = orderUpdate(
          s,
          { orders, orderTombstones: s.orderTombstones, overlays },
          diffs,
          context.now(),
        );
        set((d) => {
          Object.assign(d, patch);
          d.pendingActions[id] = action;
          delete d.orderErrors[id];
        });
      },

      settleOptimistic(orderId, outcome) {
        const s = get();
        const overlay = s.overlays[orderId];
        const confirmed = 'confirmed' in outcome ? outcome.confirmed : null;
        let records: Pick<DeskState, 'orders' | 'orderTombstones' | 'overlays'> = s;
        const before = s.orders.get(orderId);
        if (overlay) {
          // Without the overlay the table shows the confirmed base; the backend's answer is then
          // reconciled with it like any remote change.
          const { [orderId]: _settled, ...overlays } = s.overlays;
          const draft = s.orders.edit();
          if (overlay.base) draft.set(overlay.base);
          else draft.delete(orderId);
          records = { orders: draft.commit(), orderTombstones: s.orderTombstones, overlays };
        }
        if (confirmed) records = reconcileOrders(records, [{ kind: 'upsert', record: confirmed }]);
        const after = records.orders.get(orderId);
        const diffs = before === after ? [] : [{ before, after }];
        const patch = orderUpdate(s, records, diffs, context.now());
        set((d) => {
          Object.assign(d, patch);
          delete d.pendingActions[orderId];
          if ('error' in outcome) d.orderErrors[orderId] = outcome.error;
        });
      },

      setMembers(members) {
        const table = EntityTable.from(members);
        set((draft) => {
          draft.members = table;
          draft.memberList = [...members].sort(byMemberName);
        });
      },

      setPresences(entries) {
        const table = EntityTable.from(entries);
        set((draft) => void (draft.presence = table));
      },

      applyPresence(entry: PresenceEntry) {
        const current = get().presence.get(entry.id);
        if (current && current.updatedAt > entry.updatedAt) return;
        const draft = get().presence.edit();
        draft.set(entry);
        const table = draft.commit();
        set((d) => void (d.presence = table));
      },

      removePresence(id) {
        const draft = get().presence.edit();
        if (!draft.delete(id)) return;
        const table = draft.commit();
        set((d) => void (d.presence = table));
      },
    };
  };
}
