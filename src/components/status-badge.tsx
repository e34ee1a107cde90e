import type { OrderStatus } from '../../domain/order.ts';

const LABEL: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  payment_failed: 'Payment failed',
  paid: 'Paid',
  preparing: 'Preparing',
  ready: 'Ready',
  fulfilled: 'Done',
  canceled: 'Canceled',
  refunded: 'Refunded',
};

/** The human label of a status. */
export function statusLabel(status: OrderStatus): string {
  return LABEL[status];
}

/** A colored status pill. */
export function StatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`badge badge--${status}`}>{LABEL[status]}</span>;
}
