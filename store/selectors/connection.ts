import type { DeskState } from '../state.ts';
import type { LoadState } from '../sync/sync-state.ts';
import type { ConnectionState } from '../sync/connection.ts';
import type { DeskMetrics } from '../views/metrics.ts';

/** The connection as the header shows it (status, next retry, last event time). */
export function selectConnection(state: DeskState): ConnectionState {
  return state.connection;
}

/** The initial load. */
export function selectLoad(state: DeskState): LoadState {
  return state.load;
}

/** The header's metrics; a new object only when a number changes. */
export function selectMetrics(state: DeskState): DeskMetrics {
  return state.metrics;
}
