import { OPEN_STATUSES } from '../../domain/order.ts';

const DAY = 24 * 3600_000;

/** The days of history the desk holds by default (`historyDays`). */
export const HISTORY_DAYS = 30;

/** The recent orders a desk holds at most by default (the newest; `maxOrders`). */
export const MAX_ORDERS = 100_000;

/** The start of the desk's window at `now` (epoch ms): orders created before it are not read. */
export function windowStart(now: number, historyDays: number): number {
  return now - historyDays * DAY;
}

/** The statuses loaded whatever their age. */
export const ALWAYS_LOADED = [...OPEN_STATUSES, 'pending_payment'] as const;
