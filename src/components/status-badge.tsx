import { STATUS_LABELS as LABEL, type OrderStatus } from '../../domain/order.ts';

/** The human label of a status. */
export function statusLabel(status: OrderStatus): string {
  return LABEL[status];
}

/** A colored status pill. */
export function StatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`badge badge--${status}`}>{LABEL[status]}</span>;
}
