/**
 * The desk store's public surface: everything outside store/ imports from here (tests and
 * benchmarks may also use `store/testing.ts`). Lint enforces it.
 */
export { createDeskStore, type DeskStore, type DeskStoreOptions } from './create-store.ts';
export type { DeskState, RemoteActions } from './state.ts';

// Parts of the state.
export type { RecordsState } from './records/records.ts';
export type { TeamMember, PresenceEntry } from './records/people.ts';
export type { RemoteChange, SyncedCollection, SyncedEntities } from './records/changes.ts';
export type { EntityTable } from './records/entity-table.ts';
export type { ViewsState, ViewsActions, OrderViewHandle, PendingView } from './views/views.ts';
export { browserIdleSlices, browserSlices, SLICE_MS, type SliceScheduler } from './views/sliced.ts';
export type { SortedIndex } from './views/sorted-index.ts';
export type {
  SyncState,
  SyncActions,
  LoadState,
  OrderDetailState,
  SweepStatus,
} from './sync/sync-state.ts';
export type {
  MutationsState,
  MutationsActions,
  MutationTarget,
  MutationFailure,
  MutationResult,
  OrderActionResult,
  ProductDraft,
} from './mutations/mutations.ts';
export type { DeskTransport } from './mutations/transport.ts';
export type { FilesActions } from './mutations/files.ts';
export type { UploadState, UploadPurpose } from './mutations/upload-state.ts';
export {
  UploadCanceled,
  type FilesTransport,
  type FileUpload,
  type FileView,
  type UploadedFile,
  type AttachmentWrite,
} from './mutations/files-transport.ts';
export type { SessionState } from './session.ts';

// Views: table specs, board columns, metrics.
export {
  DEFAULT_ORDER_VIEW,
  ORDER_SORT_KEYS,
  BOARD_COLUMNS,
  orderViewKey,
  orderViewPredicate,
  type OrderViewSpec,
  type OrderSortKey,
  type BoardColumn,
} from './views/order-views.ts';
export { MetricsAccumulator, RATE_WINDOW_MINUTES, type DeskMetrics } from './views/metrics.ts';

// Selectors.
export * from './selectors/orders.ts';
export * from './selectors/details.ts';
export * from './selectors/connection.ts';
export * from './selectors/people.ts';
export * from './selectors/mutations.ts';

// Sync: the engine's ports and the connection.
export type { SyncOptions } from './sync/engine.ts';
export type {
  RealtimePort,
  SnapshotPort,
  FrameScheduler,
  Timers,
  NetworkPort,
  RealtimeEvent,
} from './sync/ports.ts';
export { defaultFrameScheduler } from './sync/ports.ts';
export { inputFirstFrameScheduler } from './sync/input-first.ts';
export {
  lastEventAgeSeconds,
  secondsUntilRetry,
  type ConnectionState,
  type ConnectionStatus,
} from './sync/connection.ts';
export { ORDER_LIST_FIELDS, ORDER_LIST_SELECT } from './sync/documents.ts';
export type { FirstScreen } from './sync/first-screen.ts';

// The Appwrite SDK boundary: ports, the write transport, the one error conversion.
export { appwriteSyncPorts } from './appwrite/sync-ports.ts';
export { agedOut } from './sync/window-trim.ts';
export { HISTORY_DAYS, windowStart } from './sync/desk-window.ts';
export { listDocumentsViaBlob } from './appwrite/document-pages.ts';
export { downloadServerSnapshot } from './appwrite/server-snapshot.ts';
export { idbSnapshots, clearSnapshots, lastSnapshotKey } from './appwrite/idb-snapshots.ts';
export {
  SNAPSHOT_VERSION,
  snapshotKey,
  memorySnapshots,
  prefetchSnapshot,
  readPersisted,
  type PersistOptions,
  type PrefetchedSnapshot,
  type RestoredSnapshot,
  type SnapshotHeader,
  type SnapshotStorage,
  type StoredSnapshot,
} from './sync/persist.ts';
export { createAppwriteTransport, parseExecution } from './appwrite/transport.ts';
export { createAppwriteFiles, type FilesSdk } from './appwrite/files-transport.ts';
export { toAppError, newReference } from './appwrite/errors.ts';

// The React binding.
export * from './react/hooks.ts';
export * from './react/file-hooks.ts';

// The shop (customers): its own small store, transport and React binding.
export {
  createShopStore,
  fieldMessages,
  type ShopStore,
  type ShopState,
  type ShopCatalog,
  type ShopCheckout,
  type TrackedOrder,
  type ShopStoreOptions,
} from './shop/shop-store.ts';
export type { ShopTransport, CheckoutAnswer, KeyValueStorage } from './shop/transport.ts';
export { cartKey, type CartDraft, type PendingCheckout } from './shop/pending.ts';
export { createAppwriteShopTransport, type ShopSdk } from './appwrite/shop-transport.ts';
export * from './react/shop-hooks.ts';
