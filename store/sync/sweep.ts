import { Query } from 'appwrite';
import type { Order } from '../../domain/order.ts';
import type { Job } from '../views/sliced.ts';
import type { LoadPlan, PlannedRead } from './load-plan.ts';

/**
 * The id sweep: what a delta read by `$updatedAt` cannot see. An order deleted on the server
 * while nobody was watching (a returning visit, a long gap) sends no event and has no later
 * `$updatedAt`; a sweep lists the ids of the desk's window, reads the held orders it did not
 * list by id, and removes the ones the server no longer has. The decisions are here, pure; the
 * engine (`engine.ts`) does the reading and removing.
 */

/** A catch-up after a gap at least this long (ms) is followed by a sweep. */
export const SWEEP_AFTER_GAP_MS = 3600_000;

/** Held orders looked at between two yields of the sweep's pass. */
export const SWEEP_STEP = 512;

/** Ids per read by id: Appwrite's limit on the values of one query. */
export const SWEEP_IDS_PER_READ = 100;

/** When a sweep is owed and whether one runs. */
export interface SweepState {
  /** A sweep is wanted once the desk is next caught up and live. */
  owed: boolean;
  /** A sweep runs now. */
  running: boolean;
  /** When the subscription dropped (client clock), while it is down; null while it is up. */
  downSince: number | null;
}

/** What happened, as the sweep sees it. */
export type SweepInput =
  /** The desk started from a persisted snapshot. */
  | { type: 'restored' }
  /** The subscription dropped. */
  | { type: 'close'; at: number }
  /** The subscription is active again. */
  | { type: 'open'; at: number }
  /** A load or catch-up ended and the desk is live. */
  | { type: 'synced' }
  /** The sweep ended; `synced`: the desk is live and nothing is being caught up. */
  | { type: 'done'; synced: boolean }
  | { type: 'stop' };

/** No sweep owed or running (a start, a stop). */
export const INITIAL_SWEEP: SweepState = { owed: false, running: false, downSince: null };

/**
 * One step: the next state, and whether a sweep starts now. A sweep is owed after a start from
 * a persisted snapshot and after a gap of at least {@link SWEEP_AFTER_GAP_MS} (from the drop to
 * the subscription's return); it starts when the desk is next live, one at a time (one owed
 * meanwhile starts when the running one ends, if the desk is live then). Pure.
 */
export function stepSweep(
  state: SweepState,
  input: SweepInput,
  gapMs = SWEEP_AFTER_GAP_MS,
): { state: SweepState; start: boolean } {
  switch (input.type) {
    case 'restored':
      return { state: { ...state, owed: true }, start: false };
    case 'close':
      return {
        state: state.downSince === null ? { ...state, downSince: input.at } : state,
        start: false,
      };
    case 'open': {
      if (state.downSince === null) return { state, start: false };
      const owed = state.owed || input.at - state.downSince >= gapMs;
      return { state: { ...state, owed, downSince: null }, start: false };
    }
    case 'synced':
      if (!state.owed || state.running) return { state, start: false };
      return { state: { ...state, owed: false, running: true }, start: true };
    case 'done':
      if (state.owed && input.synced)
        return { state: { ...state, owed: false, running: true }, start: true };
      return { state: { ...state, running: false }, start: false };
    case 'stop':
      return { state: INITIAL_SWEEP, start: false };
  }
}

/** Whether an Appwrite query string is a `select`. */
function isSelect(query: string): boolean {
  try {
    return (JSON.parse(query) as { method?: unknown }).method === 'select';
  } catch {
    return false;
  }
}

/**
 * The reads that list the ids of the desk's window: the initial load's reads of orders (the
 * recent time slices and the older open orders), selecting `$id` only, in full pages.
 */
export function sweepReads(plan: LoadPlan): PlannedRead[] {
  return plan.reads
    .filter((read) => read.collection === 'orders')
    .map((read) => {
      const list: PlannedRead = {
        ...read,
        queries: [...read.queries.filter((query) => !isSelect(query)), Query.select(['$id'])],
      };
      delete list.firstPageSize;
      return list;
    });
}

/**
 * A pass over the held orders (a {@link Job}: yields every {@link SWEEP_STEP} orders): the ones
 * the listing did not name, and no realtime change touched, are pushed onto `out`.
 */
export function* unlistedOrders(
  held: Iterable<Order>,
  listed: ReadonlySet<string>,
  touched: ReadonlySet<string>,
  out: Order[],
): Job {
  let seen = 0;
  for (const order of held) {
    if (!listed.has(order.id) && !touched.has(order.id)) out.push(order);
    if (++seen % SWEEP_STEP === 0) yield;
  }
}

/** `ids` cut into reads of at most `size` (default {@link SWEEP_IDS_PER_READ}). */
export function idBatches(ids: readonly string[], size = SWEEP_IDS_PER_READ): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/** The queries of one read by id: which of `ids` the server has (their `$id` only). */
export function byIdQueries(ids: readonly string[]): string[] {
  return [Query.equal('$id', [...ids]), Query.select(['$id']), Query.limit(ids.length)];
}

/**
 * What the sweep removes: the unlisted orders the reads by id did not find either, unless a
 * realtime change touched them during the sweep or the held record is no longer the one the
 * pass saw (changed, deleted or created again since).
 */
export function sweepRemovals(
  unlisted: readonly Order[],
  found: ReadonlySet<string>,
  touched: ReadonlySet<string>,
  held: (id: string) => Order | undefined,
): Order[] {
  return unlisted.filter(
    (order) => !found.has(order.id) && !touched.has(order.id) && held(order.id) === order,
  );
}
