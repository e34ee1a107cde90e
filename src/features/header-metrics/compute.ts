import type { Order } from '../../domain/order.ts';

/** The header's numbers for today (local day). */
export interface DeskMetrics {
  revenueCents: number;
  currency: string;
  ordersToday: number;
  inProgress: number;
  /** Median time from paid to ready, for orders that became ready today (null: none yet). */
  medianPaidToReadyMs: number | null;
  /** Orders paid per minute over the last 60 minutes, oldest first (60 values). */
  perMinute: number[];
}

/** Start of the local day containing `now`. */
export function startOfDay(now: number): number {
  const date = new Date(now);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** Computes {@link DeskMetrics} over every order in one pass. */
export function computeMetrics(
  orders: Iterable<Order>,
  now: number,
  currency = 'eur',
): DeskMetrics {
  const today = startOfDay(now);
  const hourAgo = now - 60 * 60_000;
  const perMinute = new Array<number>(60).fill(0);
  const readyTimes: number[] = [];
  let revenueCents = 0;
  let ordersToday = 0;
  let inProgress = 0;
  let seenCurrency: string | null = null;
  for (const order of orders) {
    const status = order.status;
    if (status === 'paid' || status === 'preparing' || status === 'ready') inProgress++;
    const paidAt = order.paidAt;
    if (paidAt !== null && paidAt >= today) {
      ordersToday++;
      revenueCents += order.totalCents - order.refundedCents;
      seenCurrency ??= order.currency;
    }
    if (paidAt !== null && paidAt > hourAgo && paidAt <= now) {
      const bucket = 59 - Math.floor((now - paidAt) / 60_000);
      if (bucket >= 0) perMinute[bucket]!++;
    }
    if (order.readyAt !== null && order.readyAt >= today && paidAt !== null)
      readyTimes.push(order.readyAt - paidAt);
  }
  return {
    revenueCents,
    currency: seenCurrency ?? currency,
    ordersToday,
    inProgress,
    medianPaidToReadyMs: median(readyTimes),
    perMinute,
  };
}
