import { memo, useEffect, useRef, type CSSProperties } from 'react';
import { Avatar } from '../../components/avatar.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatOrderNumber, type Order } from '../../../domain/order.ts';
import { formatAge, formatDateTime, formatPrice } from '../../lib/format.ts';

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

function flash(highlight: HTMLElement): Animation | null {
  const { keyframes, options } = reducedMotion?.matches ? STILL_FLASH : FLASH;
  return highlight.animate?.(keyframes, options) ?? null;
}

/** The cells of a row but its age: rendered again only when its order changes. */
const OrderCells = memo(function OrderCells({ order }: { order: Order }) {
  return (
    <>
      <div className="td td--num" role="cell">
        {formatOrderNumber(order.number)}
      </div>
      <div className="td td--muted col--created" role="cell">
        {formatDateTime(order.createdAt)}
      </div>
      <div className="td" role="cell">
        <StatusBadge status={order.status} />
      </div>
      <div className="td" role="cell">
        {order.customerName}
      </div>
      <div className="td td--muted col--email" role="cell">
        {order.customerEmail}
      </div>
      <div className="td" role="cell" title={order.itemsSummary}>
        {order.itemsSummary}
      </div>
      <div className="td td--right" role="cell">
        {formatPrice(order.totalCents, order.currency)}
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
    </>
  );
});

/**
 * What a row shows: the flash layer and the cells. Memoized apart from the row's position, so a
 * row moved by an order arriving above it re-renders only its positioned shell; flashes when its
 * order changes while on screen (not when its slot is given another order, see `row-slots.ts`).
 * Its age is given as text: the clock's tick re-renders only the rows whose age reads otherwise,
 * and only that cell.
 */
const RowContent = memo(function RowContent({ order, age }: { order: Order; age: string }) {
  const seen = useRef({ id: order.id, updatedAt: order.updatedAt });
  const highlight = useRef<HTMLDivElement>(null);
  const flashing = useRef<Animation | null>(null);
  // Flashed with the Web Animations API: no re-render, and the row's cells stay as they are. A
  // slot given another order stops its flash (the one it started: asking the element for its
  // animations would bring the page's style up to date in the middle of a commit).
  useEffect(() => {
    const last = seen.current;
    if (order.id === last.id && order.updatedAt === last.updatedAt) return;
    seen.current = { id: order.id, updatedAt: order.updatedAt };
    if (!highlight.current) return;
    flashing.current?.cancel();
    flashing.current = order.id === last.id ? flash(highlight.current) : null;
  }, [order.id, order.updatedAt]);
  return (
    <>
      <div ref={highlight} className="trow__flash" aria-hidden="true" />
      <OrderCells order={order} />
      <div className="td td--right td--muted" role="cell">
        {age}
      </div>
    </>
  );
});

/**
 * One table row, positioned by the list. Takes its order from the table (one store subscription
 * for all rows): a row re-renders only when its order, place, selection or the clock changes.
 */
export const OrderRow = memo(function OrderRow({
  order,
  index,
  rowId,
  style,
  active,
  now,
  onOpen,
}: {
  order: Order | undefined;
  index: number;
  /** The row element's id (for the list's `aria-owns`). */
  rowId?: string;
  style: CSSProperties;
  active: boolean;
  now: number;
  onOpen: (id: string, index: number) => void;
}) {
  if (!order)
    return <div id={rowId} style={style} className="trow" role="row" aria-rowindex={index + 2} />;
  return (
    <div
      id={rowId}
      style={style}
      className={`trow${active ? ' is-active' : ''}`}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      data-testid="order-row"
      data-order-number={order.number}
      onClick={() => onOpen(order.id, index)}
    >
      <RowContent order={order} age={formatAge(order.updatedAt, now)} />
    </div>
  );
});
