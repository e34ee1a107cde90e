import { ErrorState, LoadingState } from '../../components/states.tsx';
import { formatOrderNumber, type Order } from '../../../domain/order.ts';
import { useTrackedOrder } from '../../../store/index.ts';
import { formatClock, formatPrice } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { Link } from '../../lib/router.tsx';
import { TRACK_STEPS, trackView } from './track-steps.ts';

/**
 * `/track/:orderId`: the customer's own order, live (its document channel): the steps from
 * paid to picked up, refunds, the items. Only the customer's session (and the desk) may read
 * it: anyone else gets "Order not found".
 */
export function TrackPage({ orderId }: { orderId: string }) {
  const tracked = useTrackedOrder(orderId);
  return (
    <div className="shop">
      <header className="shop__header">
        <Link to={paths.shop} className="shop__brand">
          Livedesk
        </Link>
        <span className="muted">Your order, live</span>
      </header>
      <main className="shop__main shop__main--narrow">
        {tracked.status === 'ready' && tracked.order ? (
          <OrderStatus order={tracked.order} />
        ) : tracked.status === 'missing' ? (
          <>
            <ErrorState
              title="Order not found"
              message="We can’t find this order for this browser: an order can be followed only in the browser it was placed in, and the link must be complete."
            />
            <p className="track__back">
              <Link to={paths.shop}>Order something from the shop</Link>
            </p>
          </>
        ) : tracked.status === 'error' ? (
          <ErrorState title="Your order didn’t load" message={tracked.error?.message ?? ''} />
        ) : (
          <LoadingState label="Loading your order…" />
        )}
      </main>
    </div>
  );
}

function OrderStatus({ order }: { order: Order }) {
  const view = trackView(order);
  return (
    <section className="track" aria-labelledby="track-title">
      <h1 id="track-title" className="shop__title">
        Order {formatOrderNumber(order.number)}
      </h1>
      <p
        className={`track__headline track__headline--${view.tone}`}
        role="status"
        data-testid="track-status"
      >
        {view.headline}
      </p>
      <ol className="track__steps" aria-label="Progress">
        {TRACK_STEPS.map((step, index) => (
          <li
            key={step.status}
            className={`track__step${index <= view.step ? ' is-done' : ''}${index === view.step ? ' is-current' : ''}`}
            aria-current={index === view.step ? 'step' : undefined}
          >
            {step.label}
          </li>
        ))}
      </ol>
      {order.refundedCents > 0 && (
        <p className="alert alert--info" data-testid="track-refund">
          Refunded {formatPrice(order.refundedCents, order.currency)} of{' '}
          {formatPrice(order.totalCents, order.currency)} to your card.
        </p>
      )}
      <table className="items" aria-label="Items">
        <tbody>
          {order.items.map((item, index) => (
            <tr key={`${item.productId}-${index}`}>
              <td className="qty">{item.qty}×</td>
              <td>{item.name}</td>
              <td>{formatPrice(item.unitPriceCents * item.qty, order.currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td />
            <td>Total</td>
            <td>{formatPrice(order.totalCents, order.currency)}</td>
          </tr>
        </tfoot>
      </table>
      <p className="muted">
        {order.customerName} · {order.customerEmail}
        {order.cardBrand ? ` · ${order.cardBrand.toUpperCase()} •••• ${order.cardLast4 ?? ''}` : ''}
        {order.paidAt ? ` · paid at ${formatClock(order.paidAt)}` : ''}
      </p>
      {order.status === 'payment_failed' && <Link to={paths.shop}>Back to the shop</Link>}
    </section>
  );
}
