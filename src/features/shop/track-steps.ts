import type { Order, OrderStatus } from '../../../domain/order.ts';

/** The steps a paid order goes through, as the customer reads them. */
export const TRACK_STEPS = [
  { status: 'paid', label: 'Paid' },
  { status: 'preparing', label: 'Being prepared' },
  { status: 'ready', label: 'Ready for pickup' },
  { status: 'fulfilled', label: 'Picked up' },
] as const satisfies readonly { status: OrderStatus; label: string }[];

/** What the track page says about an order: a headline, and how far along the steps it is. */
export interface TrackView {
  headline: string;
  /** Index in {@link TRACK_STEPS} reached (-1: none yet, e.g. awaiting payment). */
  step: number;
  tone: 'wait' | 'ok' | 'bad';
}

/**
 * The customer's view of their order's status (docs/product.md §5.1): awaiting or failed
 * payment, the four steps, or the end of it (canceled, refunded).
 */
export function trackView(order: Pick<Order, 'status'>): TrackView {
  switch (order.status) {
    case 'pending_payment':
      return { headline: 'Waiting for your payment', step: -1, tone: 'wait' };
    case 'payment_failed':
      return {
        headline: 'Your payment didn’t go through. Go back to the shop to try again.',
        step: -1,
        tone: 'bad',
      };
    case 'paid':
      return { headline: 'Paid — the team will start on it shortly', step: 0, tone: 'ok' };
    case 'preparing':
      return { headline: 'Your order is being prepared', step: 1, tone: 'ok' };
    case 'ready':
      return { headline: 'Your order is ready for pickup', step: 2, tone: 'ok' };
    case 'fulfilled':
      return { headline: 'Picked up — enjoy!', step: 3, tone: 'ok' };
    case 'canceled':
      return { headline: 'This order was canceled', step: -1, tone: 'bad' };
    case 'refunded':
      return { headline: 'This order was refunded', step: -1, tone: 'bad' };
  }
}
