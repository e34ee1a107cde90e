import { memo } from 'react';
import { Avatar } from '../../components/avatar.tsx';
import { formatOrderNumber } from '../../../domain/order.ts';
import { formatAge, formatPrice, shortName } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { Link } from '../../lib/router.tsx';
import { useIsPending, useMembers, useOrder } from '../../../store/index.ts';

const LATE_MS = 15 * 60_000;

/**
 * A board card: number, age, items, total, assignee. Subscribes to its own order. `tabbable`: the
 * column's card in the Tab order (the others are reached with the arrow keys).
 */
export const OrderCard = memo(function OrderCard({
  id,
  now,
  tabbable,
}: {
  id: string;
  now: number;
  tabbable: boolean;
}) {
  const order = useOrder(id);
  const pending = useIsPending(id);
  const team = useMembers();
  if (!order) return null;
  const since =
    order.status === 'fulfilled'
      ? (order.fulfilledAt ?? order.updatedAt)
      : (order.paidAt ?? order.createdAt);
  const late = order.status !== 'fulfilled' && now - since > LATE_MS;
  return (
    <Link
      to={`${paths.order(order.id)}?view=board`}
      className={`card${pending ? ' is-pending' : ''}`}
      data-testid="order-card"
      tabIndex={tabbable ? 0 : -1}
      data-order-number={order.number}
      aria-label={`Order ${formatOrderNumber(order.number)}, ${formatPrice(order.totalCents, order.currency)}${order.assigneeName ? `, claimed by ${order.assigneeName}` : ', unclaimed'}`}
    >
      <div className="card__top">
        <span className="card__number">{formatOrderNumber(order.number)}</span>
        <span className="card__customer" title={order.customerName}>
          {order.customerName}
        </span>
        <span
          className={`card__age${late ? ' card__age--late' : ''}`}
          title={order.status === 'fulfilled' ? 'Time since handed over' : 'Time since paid'}
        >
          {formatAge(since, now)}
        </span>
      </div>
      <div className="card__items">{order.itemsSummary}</div>
      <div className="card__bottom">
        <span className="card__total">{formatPrice(order.totalCents, order.currency)}</span>
        {order.assigneeName ? (
          <span className="card__assignee">
            <Avatar name={order.assigneeName} id={order.assigneeId ?? undefined} size="sm" />
            {shortName(order.assigneeName, team)}
          </span>
        ) : (
          <span className="card__unassigned">Unclaimed</span>
        )}
      </div>
    </Link>
  );
});
