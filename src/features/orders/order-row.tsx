import { memo, useEffect, useRef, type CSSProperties } from 'react';
import { Avatar } from '../../components/avatar.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatMoney } from '../../domain/money.ts';
import { formatOrderNumber, itemsSummary, type Order } from '../../domain/order.ts';
import { formatAge, formatDateTime } from '../../lib/format.ts';
import { useDesk } from '../desk-data/context.tsx';

/**
 * How a changed row is highlighted: its highlight layer fades out (or, with reduced motion, stays
 * still for the same time). Only opacity is animated, so the compositor runs the animation: a
 * flashing row is not painted again every frame.
 */
const FLASH: { keyframes: Keyframe[]; options: KeyframeAnimationOptions } = {
  keyframes: [{ opacity: 1 }, { opacity: 0 }],
  options: { duration: 1200, easing: 'ease-out' },
};
const STILL_FLASH: typeof FLASH = {
  keyframes: [{ opacity: 0.5 }, { opacity: 0.5 }],
  options: { duration: 1200 },
};

const reducedMotion =
  typeof window === 'undefined'
    ? undefined
    : window.matchMedia?.('(prefers-reduced-motion: reduce)');

function flash(highlight: HTMLElement): void {
  const { keyframes, options } = reducedMotion?.matches ? STILL_FLASH : FLASH;
  highlight.animate?.(keyframes, options);
}

/**
 * The cells of a row: they change only with the order (or the minute hand), not when the row
 * moves (a new order above it shifts every row on screen by one).
 */
const OrderCells = memo(function OrderCells({ order, now }: { order: Order; now: number }) {
  return (
    <>
      <div className="td td--num" role="cell">
        {formatOrderNumber(order.number)}
      </div>
      <div className="td td--muted" role="cell">
        {formatDateTime(order.createdAt)}
      </div>
      <div className="td" role="cell">
        <StatusBadge status={order.status} />
      </div>
      <div className="td" role="cell">
        {order.customerName}
      </div>
      <div className="td td--muted" role="cell">
        {order.customerEmail}
      </div>
      <div className="td" role="cell" title={itemsSummary(order.items)}>
        {itemsSummary(order.items)}
      </div>
      <div className="td td--right" role="cell">
        {formatMoney(order.totalCents, order.currency)}
      </div>
      <div className="td td--assignee" role="cell">
        {order.assigneeName ? (
          <>
            <Avatar name={order.assigneeName} id={order.assigneeId ?? undefined} size="sm" />
            <span>{order.assigneeName}</span>
          </>
        ) : (
          <span className="muted">—</span>
        )}
      </div>
      <div className="td td--right td--muted" role="cell">
        {formatAge(order.updatedAt, now)}
      </div>
    </>
  );
});

/** One table row; subscribes to its own order, flashes when it changes while on screen. */
export const OrderRow = memo(function OrderRow({
  id,
  index,
  style,
  active,
  now,
  onOpen,
}: {
  id: string;
  index: number;
  style: CSSProperties;
  active: boolean;
  now: number;
  onOpen: (id: string, index: number) => void;
}) {
  const desk = useDesk();
  const order = desk.useOrder(id);
  const updatedAt = order?.updatedAt ?? 0;
  const seen = useRef(updatedAt);
  const highlight = useRef<HTMLDivElement>(null);
  // Flashed with the Web Animations API: no re-render, and the row's cells stay as they are.
  useEffect(() => {
    if (updatedAt === seen.current) return;
    seen.current = updatedAt;
    if (highlight.current) flash(highlight.current);
  }, [updatedAt]);
  if (!order) return <div style={style} className="trow" role="row" aria-rowindex={index + 2} />;
  return (
    <div
      style={style}
      className={`trow${active ? ' is-active' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      data-testid="order-row"
      data-order-number={order.number}
      onClick={() => onOpen(id, index)}
    >
      <div ref={highlight} className="trow__flash" aria-hidden="true" />
      <OrderCells order={order} now={now} />
    </div>
  );
});
