import type { AppError } from '../../domain/errors.ts';
import type { DeskSlice } from '../state.ts';
import { initialConnection, type ConnectionState } from './connection.ts';
import type { SyncEngine } from './engine.ts';
import type { FirstScreen } from './first-screen.ts';

/** The initial load. */
export interface LoadState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Orders read so far. */
  loaded: number;
  error: AppError | null;
}

/** An order whose whole record, notes, activity and attachments are loaded and kept live. */
export interface OrderDetailState {
  status: 'loading' | 'ready' | 'error';
  error: AppError | null;
  /** The backend has no such order (for us): a wrong link, or older than the desk loads. */
  missing: boolean;
  /** Views showing the detail; at 0 it is dropped. */
  refs: number;
}

/** The id sweep (`sweep.ts`): whether one runs, and what the finished ones did. */
export interface SweepStatus {
  running: boolean;
  /** Sweeps finished since the store was created. */
  done: number;
  /** Orders the last finished sweep removed. */
  removed: number;
}

/**
 * What the sync part owns: the connection, the initial load, the id sweep, the tracked order
 * details.
 */
export interface SyncState {
  connection: ConnectionState;
  load: LoadState;
  sweep: SweepStatus;
  /** Orders whose details are tracked, by id. */
  details: Readonly<Record<string, OrderDetailState>>;
  /**
   * A returning visit's first screens of the orders table (`first-screen.ts`: the default view's
   * and the last shown view's), shown while the persisted snapshot is read and decoded (the load
   * is not ready meanwhile); empty otherwise.
   */
  firstScreens: readonly FirstScreen[];
}

/** The sync part's actions (carried out by the sync engine). */
export interface SyncActions {
  /**
   * Starts syncing: subscribe, snapshot, replay, live, resync on every reconnect. Returns the
   * cleanup. Needs the store to be created with sync ports.
   */
  startSync(): () => void;
  /**
   * Loads an order's whole record, notes, activity and attachments and keeps them live
   * (refcounted); returns the release.
   */
  loadOrderDetail(orderId: string): () => void;
  /** Reads a tracked detail that failed again. */
  retryOrderDetail(orderId: string): void;
  /** Reads one order from the backend again (after a conflict). */
  refreshOrder(orderId: string): Promise<void>;
  /**
   * The orders table shows the view of this key (`orderViewKey`): its first screen is kept with
   * the persisted snapshot. Nothing without sync ports.
   */
  showTableView(key: string): void;
}

/** The sync state of a store that has not synced yet. */
export function initialSync(now: number): SyncState {
  return {
    connection: initialConnection(now),
    load: { status: 'idle', loaded: 0, error: null },
    sweep: { running: false, done: 0, removed: 0 },
    details: {},
    firstScreens: [],
  };
}

/** The details with one more view of `orderId` (a new one starts loading). */
export function trackDetail(details: SyncState['details'], orderId: string): SyncState['details'] {
  const detail = details[orderId];
  return {
    ...details,
    [orderId]: detail
      ? { ...detail, refs: detail.refs + 1 }
      : { status: 'loading', error: null, missing: false, refs: 1 },
  };
}

/** The details with one view of `orderId` fewer; at none it is dropped (`dropped: true`). */
export function untrackDetail(
  details: SyncState['details'],
  orderId: string,
): { details: SyncState['details']; dropped: boolean } {
  const detail = details[orderId];
  if (!detail) return { details, dropped: false };
  if (detail.refs > 1)
    return {
      details: { ...details, [orderId]: { ...detail, refs: detail.refs - 1 } },
      dropped: false,
    };
  const { [orderId]: _dropped, ...rest } = details;
  return { details: rest, dropped: true };
}

/** The details with `orderId`'s status set (unchanged when it is not tracked). */
export function detailStatus(
  details: SyncState['details'],
  orderId: string,
  status: Pick<OrderDetailState, 'status'> & Partial<OrderDetailState>,
): SyncState['details'] {
  const detail = details[orderId];
  if (!detail) return details;
  return { ...details, [orderId]: { ...detail, error: null, ...status } };
}

function needEngine(engine: SyncEngine | null): SyncEngine {
  if (!engine) throw new Error('This desk store was created without sync ports.');
  return engine;
}

/** The sync part: its state, and actions that hand over to the engine. */
export function createSyncSlice(context: {
  now(): number;
  engine(): SyncEngine | null;
}): DeskSlice<SyncState & SyncActions> {
  return () => ({
    ...initialSync(context.now()),
    startSync: () => needEngine(context.engine()).start(),
    loadOrderDetail: (orderId) => needEngine(context.engine()).loadOrderDetail(orderId),
    retryOrderDetail: (orderId) => needEngine(context.engine()).retryOrderDetail(orderId),
    refreshOrder: (orderId) => needEngine(context.engine()).refreshOrder(orderId),
    showTableView: (key) => context.engine()?.showTableView(key),
  });
}
