import type { StateCreator } from 'zustand/vanilla';
import type { Activity, Attachment, ExportJob, Note, Product } from '../domain/entities.ts';
import type { AppErrorCode } from '../domain/errors.ts';
import type { Actor, OrderAction } from '../domain/order-machine.ts';
import type { Order } from '../domain/order.ts';
import type { DeskRole } from '../domain/roles.ts';
import type { DeskMetrics, MetricsAccumulator } from './views/metrics.ts';
import type { ConnectionEvent, ConnectionState } from './sync/connection.ts';
import type { RemoteChange, SyncedCollection } from './records/changes.ts';
import type { EntityTable } from './records/entity-table.ts';
import type { OrderViewSpec } from './views/order-views.ts';
import type { BoardIndexes, OrderOverlay, OrderViewEntry } from './views/order-derived.ts';
import type { Tombstone } from './records/reconcile.ts';

/** An error as the store keeps it (plain data; `AppError` instances stay out of the state). */
export interface ErrorInfo {
  code: AppErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** A member of the desk team. */
export interface TeamMember {
  /** The user id. */
  id: string;
  name: string;
  email: string;
  role: DeskRole | null;
  membershipId: string;
  confirmed: boolean;
}

/** Someone's presence (Appwrite presences): who, and which order they are looking at. */
export interface PresenceEntry {
  /** The presence id. */
  id: string;
  userId: string;
  name: string;
  orderId: string | null;
  status: string;
  updatedAt: number;
}

/** Whether an order's notes, activity and attachments are loaded and kept live. */
export interface OrderDetailState {
  status: 'loading' | 'ready' | 'error';
  error: ErrorInfo | null;
  /** Views showing the detail; at 0 it is dropped. */
  refs: number;
}

/** The initial load. */
export interface LoadState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Orders read so far. */
  loaded: number;
  error: ErrorInfo | null;
}

/** A refused or failed action, for the drawer to show. */
export interface OrderActionError extends ErrorInfo {
  orderId: string;
  action: OrderAction;
  at: number;
}

/** The outcome of {@link MutationsSlice.performOrderAction}. */
export type OrderActionResult = { ok: true; order: Order } | { ok: false; error: ErrorInfo };

/** A handle on a maintained table view (see {@link DataSlice.acquireOrderView}). */
export interface OrderViewHandle {
  key: string;
  /** Stops maintaining the view for this caller (idempotent). */
  release(): void;
}

/** Records of the snapshot load. */
export interface SnapshotRecords {
  orders?: readonly Order[];
  products?: readonly Product[];
  exports?: readonly ExportJob[];
}

/** Entity tables, their indexes and the metrics. */
export interface DataSlice {
  /** What the desk shows per order: confirmed, or optimistic while our action is pending. */
  orders: EntityTable<Order>;
  orderTombstones: EntityTable<Tombstone>;
  /** Our pending actions' optimistic records and their confirmed bases. */
  overlays: Readonly<Record<string, OrderOverlay>>;
  board: BoardIndexes;
  /** Maintained table views by {@link orderViewKey}; the default view is always there. */
  orderViews: Readonly<Record<string, OrderViewEntry>>;
  metricsAcc: MetricsAccumulator;
  metrics: DeskMetrics;
  products: EntityTable<Product>;
  /** Products by `sortOrder`, then name. */
  productList: readonly Product[];
  exports: EntityTable<ExportJob>;
  /** Export jobs, newest first. */
  exportList: readonly ExportJob[];
  notes: EntityTable<Note>;
  activity: EntityTable<Activity>;
  attachments: EntityTable<Attachment>;
  /** Tombstones of deleted records of the other collections. */
  tombstones: Readonly<Record<Exclude<SyncedCollection, 'orders'>, EntityTable<Tombstone>>>;
  /** Visible notes of tracked orders, oldest first. */
  notesByOrder: Readonly<Record<string, readonly Note[]>>;
  /** Activity of tracked orders, in time order. */
  activityByOrder: Readonly<Record<string, readonly Activity[]>>;
  /** Visible attachments of tracked orders, oldest first. */
  attachmentsByOrder: Readonly<Record<string, readonly Attachment[]>>;
  /** Orders whose notes, activity and attachments are tracked. */
  details: Readonly<Record<string, OrderDetailState>>;
  members: EntityTable<TeamMember>;
  /** Members by name. */
  memberList: readonly TeamMember[];
  presence: EntityTable<PresenceEntry>;

  /**
   * Reconciles a batch of backend changes into every table, index and metric in one `set`.
   * `eventsAt`: the batch carries realtime events received by then (for "last event N s ago").
   */
  applyRemote(changes: readonly RemoteChange[], meta?: { eventsAt?: number }): void;
  /**
   * Loads the initial snapshot: built in one pass into an empty store (or, with `replace`, in
   * place of a partial snapshot shown while loading), else reconciled like any change.
   */
  loadSnapshot(records: SnapshotRecords, options?: { replace?: boolean }): void;
  /** Starts (or shares) maintaining a table view; release it when it is no longer shown. */
  acquireOrderView(spec: OrderViewSpec): OrderViewHandle;
  /** Advances time: republishes the per-minute series and rolls the day over at midnight. */
  tick(now?: number): void;
  /** Starts tracking an order's detail (refcounted); events for it are applied from now on. */
  trackOrderDetail(orderId: string): void;
  /** Marks a tracked detail loaded or failed. */
  setOrderDetailStatus(
    orderId: string,
    status: 'loading' | 'ready' | 'error',
    error?: ErrorInfo,
  ): void;
  /** Stops tracking (refcounted); at 0 its notes, activity and attachments are dropped. */
  untrackOrderDetail(orderId: string): void;
  /** Shows an optimistic record for an order while our `action` on it is in flight. */
  beginOptimistic(optimistic: Order, action: OrderAction): void;
  /**
   * Ends our action on an order: with the backend's record (reconciled like any remote change,
   * so an echo already applied is a duplicate), or with the error (the optimistic record is
   * rolled back to the confirmed one and the error kept for the drawer).
   */
  settleOptimistic(
    orderId: string,
    outcome: { confirmed: Order } | { error: OrderActionError },
  ): void;
  setMembers(members: readonly TeamMember[]): void;
  setPresences(entries: readonly PresenceEntry[]): void;
  applyPresence(entry: PresenceEntry): void;
  removePresence(id: string): void;
}

/** The realtime connection and the initial load. */
export interface SyncSlice {
  connection: ConnectionState;
  load: LoadState;
  /** Feeds the connection state machine. */
  connectionEvent(event: ConnectionEvent): void;
  setLoad(load: Partial<LoadState>): void;
  /**
   * Starts syncing: subscribe, snapshot, replay, live, resync on every reconnect. Returns the
   * cleanup. Needs the store to be created with sync ports.
   */
  startSync(): () => void;
  /** Loads an order's notes, activity and attachments and keeps them live; returns the release. */
  loadOrderDetail(orderId: string): () => void;
  /** Reads one order from the backend again (after a conflict). */
  refreshOrder(orderId: string): Promise<void>;
}

/** Our actions in flight and their errors. */
export interface MutationsSlice {
  /** The action in flight per order. */
  pendingActions: Readonly<Record<string, OrderAction>>;
  /** The last refused or failed action per order. */
  orderErrors: Readonly<Record<string, OrderActionError>>;
  /**
   * Runs a workflow action: decided locally first (a refusal returns at once, no network),
   * applied optimistically, sent through the order-action gateway, then confirmed or rolled
   * back with the error kept in {@link orderErrors}. Never throws.
   */
  performOrderAction(orderId: string, action: OrderAction): Promise<OrderActionResult>;
  dismissOrderError(orderId: string): void;
}

/** Who is using the desk. */
export interface SessionSlice {
  /** The signed-in desk member (null: signed out). */
  actor: Actor | null;
  setActor(actor: Actor | null): void;
}

/** The whole store. */
export type DeskState = DataSlice & SyncSlice & MutationsSlice & SessionSlice;

/** A slice creator of the desk store (immer middleware on the combined store only). */
export type DeskSlice<T> = StateCreator<DeskState, [['zustand/immer', never]], [], T>;
