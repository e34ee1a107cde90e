/**
 * The store's test kit, for tests and benchmarks outside store/: the model of the backend
 * protocol, the harness that wires a store to it, order fixtures and a seeded PRNG.
 */
export {
  createHarness,
  settle,
  type Harness,
  type HarnessOptions,
} from './sync/testing/harness.ts';
export {
  ModelServer,
  ManualClock,
  ManualScheduler,
  ManualTimers,
  alwaysOnline,
} from './sync/testing/model-server.ts';
export { ModelTransport } from './sync/testing/model-transport.ts';
export { viewProblems } from './sync/testing/consistency.ts';
export { makeOrder, advanceOrder, cancelOrder, orderDocument } from './sync/testing/orders.ts';
export { Prng } from './sync/testing/prng.ts';
// For benchmarks comparing how a table view is made: one full sort (the way before sort columns).
export { buildOrderIndex, orderViewDef } from './views/order-views.ts';
// For the store benchmark's Map peer that keeps the store's own indexes in its sorted structure.
export {
  applyOrderDiffs,
  boardDefs,
  DEFAULT_ORDER_VIEW,
  type OrderDiff,
  type OrderIndexDef,
} from './views/order-views.ts';
export { SortedIndex } from './views/sorted-index.ts';
// Slices run when told (tests), or back to back on a real clock (the store benchmark).
export { ManualSlices } from './views/sliced.ts';
// For the store benchmark's heap figure: orders converted from documents as the snapshot reads them.
export { listOrderFromDocument } from './sync/documents.ts';
