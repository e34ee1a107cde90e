/** What the header shows about the realtime connection (docs/product.md §5.3). */
export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting' | 'resyncing' | 'offline';

/**
 * The connection as the store knows it. `status` is derived from the parts: whether the
 * browser is online, whether the subscription is active, and which sync pass is running.
 */
export interface ConnectionState {
  status: ConnectionStatus;
  /** `connecting` until the subscription is first active; `closed` while the SDK retries. */
  socket: 'connecting' | 'open' | 'closed';
  /** `initial` until the first snapshot is in; `resyncing` during a delta pass. */
  sync: 'initial' | 'idle' | 'resyncing';
  online: boolean;
  /** When the SDK's next reconnect attempt is due (epoch ms), while reconnecting. */
  nextRetryAt: number | null;
  /** When the last realtime event was applied (epoch ms), for "last event N s ago". */
  lastEventAt: number | null;
  /** When `status` last changed (epoch ms). */
  since: number;
}

/** What happens to the connection. */
export type ConnectionEvent =
  /** The subscription is active; `resync`: a delta pass starts now to cover a gap. */
  | { type: 'open'; at: number; resync: boolean }
  /** The subscription dropped; the SDK retries after `retryDelayMs`. */
  | { type: 'close'; at: number; retryDelayMs: number }
  /** The orders of a persisted snapshot are shown: resyncing until the first catch-up ends. */
  | { type: 'restored'; at: number }
  /** A delta pass starts (also after a failed one). */
  | { type: 'resync'; at: number }
  /** The initial snapshot or a delta pass finished. */
  | { type: 'synced'; at: number }
  | { type: 'online'; at: number }
  | { type: 'offline'; at: number }
  /** Realtime events were applied. */
  | { type: 'events'; at: number };

/** The state before anything happened. */
export function initialConnection(at: number): ConnectionState {
  return {
    status: 'connecting',
    socket: 'connecting',
    sync: 'initial',
    online: true,
    nextRetryAt: null,
    lastEventAt: null,
    since: at,
  };
}

/** The status the parts add up to. */
export function deriveStatus(
  state: Pick<ConnectionState, 'socket' | 'sync' | 'online'>,
): ConnectionStatus {
  if (!state.online) return 'offline';
  if (state.socket === 'closed') return 'reconnecting';
  if (state.sync === 'initial') return 'connecting';
  // Shown from a persisted snapshot: catching up, not live (before the socket opens too).
  if (state.sync === 'resyncing') return 'resyncing';
  if (state.socket === 'connecting') return 'connecting';
  return 'live';
}

/**
 * The connection state machine: `connecting → live → reconnecting(nextRetryAt) → resyncing →
 * live`, `offline` while the browser is. Pure; returns the same object when nothing changed.
 */
export function nextConnection(state: ConnectionState, event: ConnectionEvent): ConnectionState {
  let next: ConnectionState;
  switch (event.type) {
    case 'open':
      next = {
        ...state,
        socket: 'open',
        nextRetryAt: null,
        sync: event.resync && state.sync !== 'initial' ? 'resyncing' : state.sync,
      };
      break;
    case 'close':
      next = { ...state, socket: 'closed', nextRetryAt: event.at + event.retryDelayMs };
      break;
    case 'resync':
      next = state.sync === 'initial' ? state : { ...state, sync: 'resyncing' };
      break;
    case 'restored':
      next = state.sync === 'initial' ? { ...state, sync: 'resyncing' } : state;
      break;
    case 'synced':
      next = { ...state, sync: 'idle' };
      break;
    case 'online':
      next = { ...state, online: true };
      break;
    case 'offline':
      next = { ...state, online: false };
      break;
    case 'events':
      return state.lastEventAt === event.at ? state : { ...state, lastEventAt: event.at };
  }
  const status = deriveStatus(next);
  if (
    status === state.status &&
    next.socket === state.socket &&
    next.sync === state.sync &&
    next.online === state.online &&
    next.nextRetryAt === state.nextRetryAt
  )
    return state;
  return { ...next, status, since: status === state.status ? state.since : event.at };
}

/** Whole seconds until the next reconnect attempt (for "Reconnecting in Ns"), or null. */
export function secondsUntilRetry(state: ConnectionState, now: number): number | null {
  if (state.status !== 'reconnecting' || state.nextRetryAt === null) return null;
  return Math.max(0, Math.ceil((state.nextRetryAt - now) / 1000));
}

/** Age of the last event in whole seconds at `now`, or null before the first. */
export function lastEventAgeSeconds(state: ConnectionState, now: number): number | null {
  return state.lastEventAt === null
    ? null
    : Math.max(0, Math.floor((now - state.lastEventAt) / 1000));
}
