import type { Order } from '../../domain/order.ts';
import type { Job } from '../views/sliced.ts';
import { ALWAYS_LOADED } from './desk-window.ts';

/**
 * The desk's window as time goes by: the first load reads the orders created in the last
 * `historyDays` plus the open and unpaid ones of any age (`load-plan.ts`). An order held since
 * then grows older; once it is created before the window and neither open nor unpaid, the engine
 * drops it from the desk (not from the server), as a fresh load would not read it. The decisions
 * are here, pure; the engine (`engine.ts`) runs the pass and removes.
 */

/** How often the engine looks for orders that aged out of the window (ms). */
export const TRIM_EVERY_MS = 60_000;

/** Held orders looked at between two yields of the pass. */
export const TRIM_STEP = 1024;

/**
 * Whether `order` is outside the window starting at `since` (`windowStart` of `load-plan.ts`):
 * created before it, and closed.
 */
export function agedOut(order: Order, since: number): boolean {
  return order.createdAt < since && !(ALWAYS_LOADED as readonly string[]).includes(order.status);
}

/**
 * A pass over the held orders (a {@link Job}: yields every {@link TRIM_STEP} orders): the ones
 * outside the window starting at `since` go to `out`, except those `kept` (an order open in a
 * drawer stays while it is shown).
 */
export function* agedOutOrders(
  held: Iterable<Order>,
  since: number,
  kept: (id: string) => boolean,
  out: Order[],
): Job {
  let seen = 0;
  for (const order of held) {
    if (agedOut(order, since) && !kept(order.id)) out.push(order);
    if (++seen % TRIM_STEP === 0) yield;
  }
}
