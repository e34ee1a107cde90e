import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Avatar } from '../../components/avatar.tsx';
import { Button } from '../../components/button.tsx';
import { Drawer } from '../../components/drawer.tsx';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { AppError } from '../../../domain/errors.ts';
import {
  availableActions,
  decideRefund,
  type Actor,
  type OrderAction,
} from '../../../domain/order-machine.ts';
import { formatOrderNumber, PAYMENT_STATUS_LABELS, type Order } from '../../../domain/order.ts';
import { cancelRefundCents } from '../../../domain/payment.ts';
import {
  selectActor,
  useActivity,
  useConnection,
  useDeskActions,
  useDeskStore,
  useFailure,
  useIsPending,
  useMembers,
  useOrderDetail,
  useRunning,
  useViewers,
  useViewOrder,
  type Viewer,
} from '../../../store/index.ts';
import { formatClock, formatDateTime, formatPrice, shortName } from '../../lib/format.ts';
import { navigateBack, useLocation } from '../../lib/router.tsx';
import { useFocusWithin } from '../../lib/use-focus-within.ts';
import { Attachments } from './attachments.tsx';
import {
  ACTION_LABEL,
  ACTION_ORDER,
  describeActivity,
  primaryAction,
  takenOverNotice,
} from './labels.ts';
import { Notes } from './notes.tsx';
import { RefundControl, RefundList } from './refund-panel.tsx';

/** `/orders/:id`: the drawer over the board or table. */
export function OrderDrawer({ orderId }: { orderId: string }) {
  const details = useOrderDetail(orderId);
  const order = details.status === 'ready' ? details.order : null;
  // While the whole order is read, its list copy (what the table and board show) is shown.
  const preview = details.status === 'loading' ? details.listCopy : null;
  const actor = useDeskStore(selectActor);
  const { search } = useLocation();
  useViewOrder(orderId);
  const viewers = useViewers(orderId);

  const close = useCallback(() => {
    const params = new URLSearchParams(search);
    const view = params.get('view');
    params.delete('view');
    const rest = params.toString();
    navigateBack(view === 'board' ? '/' : `/orders${rest ? `?${rest}` : ''}`);
  }, [search]);

  const shown = order ?? preview;
  const title = shown ? (
    <>
      {formatOrderNumber(shown.number)} <StatusBadge status={shown.status} />
    </>
  ) : (
    'Order'
  );

  return (
    <Drawer title={title} onClose={close} actions={<PresenceList viewers={viewers} />}>
      {order && actor ? (
        <OrderDetails key={order.id} order={order} actor={actor} />
      ) : preview ? (
        <OrderPreview order={preview} />
      ) : details.status === 'missing' ? (
        <ErrorState
          title="Order not found"
          message="It may be older than 30 days, or the link is wrong."
        />
      ) : details.status === 'error' ? (
        <ErrorState
          title="This order didn’t load"
          message={details.error.message}
          onRetry={details.retry}
        />
      ) : (
        <LoadingState label="Loading the order…" />
      )}
    </Drawer>
  );
}

/**
 * An order from its list copy, in the whole order's layout, while the whole order is read: the
 * customer, assignee, items and total at once; the actions, payment and line items after.
 */
function OrderPreview({ order }: { order: Order }) {
  return (
    <>
      <section className="section" aria-label="Actions">
        <LoadingState compact label="Loading the order…" />
      </section>
      <CustomerAndPayment order={order} />
      <section className="section" aria-labelledby="items-title">
        <h3 className="section__title" id="items-title">
          Items
        </h3>
        <p>{order.itemsSummary}</p>
        <p>
          Total {formatPrice(order.totalCents, order.currency)}
          {order.refundedCents > 0 &&
            ` · refunded ${formatPrice(order.refundedCents, order.currency)}`}
        </p>
      </section>
    </>
  );
}

/**
 * The customer, the assignee, the payment (`children`, when the whole order is there) and when
 * the order was placed.
 */
function CustomerAndPayment({ order, children }: { order: Order; children?: ReactNode }) {
  return (
    <section className="section" aria-labelledby="customer-title">
      <h3 className="section__title" id="customer-title">
        Customer and payment
      </h3>
      <dl className="kv">
        <dt>Customer</dt>
        <dd>{order.customerName}</dd>
        <dt>Email</dt>
        <dd>{order.customerEmail}</dd>
        <dt>Assignee</dt>
        <dd data-testid="assignee">
          <Assignee order={order} />
        </dd>
        {children !== undefined && (
          <>
            <dt>Payment</dt>
            <dd data-testid="payment">{children}</dd>
          </>
        )}
        <dt>Placed</dt>
        <dd>{formatDateTime(order.createdAt)}</dd>
      </dl>
    </section>
  );
}

/** Who holds the order (avatar and name), or "Unclaimed". */
function Assignee({ order }: { order: Order }) {
  return order.assigneeName ? (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
      <Avatar name={order.assigneeName} id={order.assigneeId ?? undefined} size="sm" />{' '}
      {order.assigneeName}
    </span>
  ) : (
    <span className="muted">Unclaimed</span>
  );
}

function PresenceList({ viewers }: { viewers: readonly Viewer[] }) {
  const team = useMembers();
  if (viewers.length === 0) return null;
  const names = viewers.map((v) => shortName(v.name, team));
  const text =
    names.length === 1
      ? `${names[0]} is viewing`
      : `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are viewing`;
  return (
    <div className="presence" data-testid="presence" aria-live="polite">
      <span className="presence__avatars" aria-hidden="true">
        {viewers.slice(0, 3).map((v) => (
          <Avatar key={v.userId} name={v.name} id={v.userId} size="sm" />
        ))}
      </span>
      {text}
    </div>
  );
}

/** The notice of the order taken from the member while the drawer is open (see `takenOverNotice`). */
function useTakenOver(order: Order, memberId: string): string | null {
  const [notice, setNotice] = useState<string | null>(null);
  const [before, setBefore] = useState(order.assigneeId);
  if (before !== order.assigneeId) {
    setBefore(order.assigneeId);
    setNotice(takenOverNotice({ assigneeId: before }, order, memberId));
  }
  return notice;
}

function OrderDetails({ order, actor }: { order: Order; actor: Actor }) {
  const pending = useIsPending(order.id);
  const offline = useConnection().status === 'offline';
  const activity = useActivity(order.id);
  const { performOrderAction } = useDeskActions();
  const busy = useRunning(`order:${order.id}`) as OrderAction | null;
  const error = useFailure(`order:${order.id}`)?.error ?? null;
  const [confirmCancel, setConfirmCancel] = useState(false);
  const actionsRef = useRef<HTMLElement>(null);
  useFocusWithin(actionsRef);
  const takenOver = useTakenOver(order, actor.id);
  const allowed = availableActions(order, actor);
  // Taking over only makes sense when someone else holds the order; otherwise it is a claim.
  const actions = ACTION_ORDER.filter(
    (a) => allowed.includes(a) && !(a === 'take-over' && order.assigneeId === null),
  );
  const primary = primaryAction(actions);
  // Canceling a card payment refunds what is left of it at Stripe first: the button says so.
  const cancelRefund = cancelRefundCents(order);

  const run = async (action: OrderAction) => {
    if (action === 'cancel' && !confirmCancel) return setConfirmCancel(true);
    setConfirmCancel(false);
    // Never throws: a refusal or failure is kept in the store (shown above the actions).
    await performOrderAction(order.id, action);
  };

  return (
    <>
      <section className="section" aria-label="Actions" ref={actionsRef} tabIndex={-1}>
        {error && (
          <div
            className={`alert ${error.code === 'ORDER_CONFLICT' ? 'alert--info' : 'alert--error'}`}
            role="alert"
            data-testid="action-error"
          >
            {error.message}
            {error.code === 'ORDER_CONFLICT' && ' The order below is up to date.'}
          </div>
        )}
        {takenOver && (
          <div className="alert alert--info" role="status" data-testid="taken-over">
            {takenOver}
          </div>
        )}
        {offline && (
          <p className="muted" style={{ fontSize: 13 }} role="status">
            You’re offline — actions are back when the connection is.
          </p>
        )}
        {confirmCancel ? (
          <div className="alert alert--error" role="alertdialog" aria-label="Confirm cancel">
            <span style={{ flex: 1 }}>
              {cancelRefund > 0
                ? `Cancel this order and refund ${formatPrice(cancelRefund, order.currency)} to the card?`
                : order.paymentStatus === 'succeeded'
                  ? 'Cancel this order? Its payment was not taken through Stripe (demo data), so nothing is refunded.'
                  : 'Cancel this order? Nothing was paid by card, so nothing is refunded.'}
            </span>
            <Button
              size="sm"
              variant="danger"
              busy={busy === 'cancel'}
              onClick={() => void run('cancel')}
            >
              Yes, cancel
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setConfirmCancel(false)}
              data-autofocus
            >
              Keep it
            </Button>
          </div>
        ) : actions.length > 0 ||
          !(decideRefund(order, { expectedRev: order.rev }, actor) instanceof AppError) ? (
          <div className="actions">
            {actions.map((action) => (
              <Button
                key={action}
                variant={
                  action === 'cancel' ? 'danger' : action === primary ? 'primary' : 'secondary'
                }
                busy={busy === action}
                disabled={busy !== null || pending || offline}
                onClick={() => void run(action)}
              >
                {action === 'cancel' && cancelRefund > 0
                  ? 'Cancel with refund'
                  : ACTION_LABEL[action]}
              </Button>
            ))}
            <RefundControl
              order={order}
              actor={actor}
              disabled={busy !== null || pending || offline}
            />
          </div>
        ) : (
          <p className="muted" style={{ fontSize: 13 }}>
            No actions available for this order.
          </p>
        )}
      </section>

      <CustomerAndPayment order={order}>
        {order.cardBrand
          ? `${order.cardBrand.toUpperCase()} •••• ${order.cardLast4 ?? '????'}`
          : 'Card'}{' '}
        · {PAYMENT_STATUS_LABELS[order.paymentStatus]}
        {order.refundedCents > 0 &&
          ` · refunded ${formatPrice(order.refundedCents, order.currency)} of ${formatPrice(order.totalCents, order.currency)}`}
        {activity && !activity.error && <RefundList order={order} activity={activity.items} />}
      </CustomerAndPayment>

      <section className="section" aria-labelledby="items-title">
        <h3 className="section__title" id="items-title">
          Items
        </h3>
        <table className="items">
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
            {order.subtotalCents !== order.totalCents && (
              <tr>
                <td />
                <td>Subtotal</td>
                <td>{formatPrice(order.subtotalCents, order.currency)}</td>
              </tr>
            )}
            <tr>
              <td />
              <td>Total</td>
              <td>{formatPrice(order.totalCents, order.currency)}</td>
            </tr>
          </tfoot>
        </table>
      </section>

      <Attachments orderId={order.id} actor={actor} offline={offline} />

      <Notes orderId={order.id} offline={offline} />

      <section className="section" aria-labelledby="activity-title">
        <h3 className="section__title" id="activity-title">
          Activity
        </h3>
        {activity === null ? (
          <LoadingState compact label="Loading activity…" />
        ) : activity.error ? (
          <ErrorState compact message={activity.error.message} />
        ) : activity.items.length === 0 ? (
          <p className="muted" style={{ fontSize: 13 }}>
            No activity recorded.
          </p>
        ) : (
          <ol className="timeline" data-testid="timeline">
            {activity.items.map((entry) => (
              <li key={entry.id}>
                <span className="timeline__dot" aria-hidden="true" />
                <span>{describeActivity(entry, order.currency)}</span>
                <time className="timeline__time" dateTime={new Date(entry.at).toISOString()}>
                  {formatClock(entry.at)}
                </time>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
