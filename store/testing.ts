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
