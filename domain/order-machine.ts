import { AppError } from './errors.ts';
import type { Order, OrderStatus } from './order.ts';
import { cancelRefundCents, paidThroughStripe, planRefund } from './payment.ts';
import { hasAtLeast, type DeskRole } from './roles.ts';
import type { ActivityKind } from './entities.ts';

/** Workflow actions a desk member can take on an order (the `order-action` function). */
export const ORDER_ACTIONS = [
  'claim',
  'unclaim',
  'take-over',
  'start',
  'ready',
  'fulfil',
  'cancel',
] as const;

/** One of {@link ORDER_ACTIONS}. */
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** Who is acting: the caller's user id, display name and desk role (null: not a member). */
export interface Actor {
  id: string;
  name: string;
  role: DeskRole | null;
}

/** An action request as the client sends it. */
export interface OrderActionRequest {
  orderId: string;
  action: OrderAction;
  expectedRev: number;
  amountCents?: number;
}

/** The fields an accepted action changes, and the activity record it writes. */
export interface OrderChange {
  patch: Partial<Order> & { rev: number; updatedById: string; updatedByName: string };
  activity: { kind: ActivityKind; data: Record<string, unknown> };
}

/** Pending orders unpaid for this long are canceled by `expire-pending`. */
export const PENDING_PAYMENT_TTL_MS = 30 * 60 * 1000;

const WORKING: readonly OrderStatus[] = ['paid', 'preparing', 'ready'];
const CANCELABLE: readonly OrderStatus[] = [
  'pending_payment',
  'payment_failed',
  'paid',
  'preparing',
  'ready',
];

const NEXT_STATUS: Partial<Record<OrderAction, { from: OrderStatus; to: OrderStatus }>> = {
  start: { from: 'paid', to: 'preparing' },
  ready: { from: 'preparing', to: 'ready' },
  fulfil: { from: 'ready', to: 'fulfilled' },
};

const STATUS_PHRASE: Record<OrderStatus, string> = {
  pending_payment: 'This order is still awaiting payment.',
  payment_failed: 'This order’s payment failed.',
  paid: 'This order has not been started yet.',
  preparing: 'This order is already being prepared.',
  ready: 'This order is already ready.',
  fulfilled: 'This order is already fulfilled.',
  canceled: 'This order was canceled.',
  refunded: 'This order was refunded.',
};

const ACTION_VERB: Record<OrderAction, string> = {
  claim: 'claim orders',
  unclaim: 'release orders',
  'take-over': 'take over orders',
  start: 'start orders',
  ready: 'mark orders ready',
  fulfil: 'fulfil orders',
  cancel: 'cancel orders',
};

/** Whether `value` names an {@link OrderAction}. */
export function isOrderAction(value: unknown): value is OrderAction {
  return typeof value === 'string' && (ORDER_ACTIONS as readonly string[]).includes(value);
}

/** The message shown when an action is refused because of the order's status. */
export function invalidTransitionMessage(status: OrderStatus): string {
  return STATUS_PHRASE[status];
}

function conflict(order: Order, actor: Actor): AppError {
  const holder = order.assigneeId && order.assigneeId !== actor.id ? order.assigneeName : null;
  const who = holder ?? order.updatedByName ?? 'Someone';
  const message = holder
    ? `${who} claimed this order a moment ago.`
    : `${who} changed this order a moment ago.`;
  return new AppError('ORDER_CONFLICT', message, { currentRev: order.rev, by: who });
}

function heldByOther(order: Order, actor: Actor): boolean {
  return order.assigneeId !== null && order.assigneeId !== actor.id;
}

/**
 * Decides whether `actor` may apply `action` to `order` and what it changes. Pure: the
 * `order-action` function writes the result, and the store applies it optimistically.
 * Checks, in order: membership and role, `rev` freshness, the state machine, the holder.
 */
export function decideOrderAction(
  order: Order,
  request: Pick<OrderActionRequest, 'action' | 'expectedRev'>,
  actor: Actor,
  now: number,
): OrderChange | AppError {
  const { action } = request;
  if (actor.role === null) {
    return new AppError('FORBIDDEN', 'You don’t have permission to work on orders.');
  }
  const managerOnly = action === 'take-over' || action === 'cancel';
  if (managerOnly && !hasAtLeast(actor.role, 'manager')) {
    return new AppError('FORBIDDEN', `You don’t have permission to ${ACTION_VERB[action]}.`);
  }
  if (request.expectedRev !== order.rev) return conflict(order, actor);

  const isManager = hasAtLeast(actor.role, 'manager');
  const base = { rev: order.rev + 1, updatedById: actor.id, updatedByName: actor.name };
  const assign = { assigneeId: actor.id, assigneeName: actor.name };

  switch (action) {
    case 'claim':
    case 'take-over': {
      if (!WORKING.includes(order.status)) return invalid(order.status);
      if (order.assigneeId === actor.id) {
        return new AppError('INVALID_TRANSITION', 'You already hold this order.');
      }
      if (action === 'claim' && heldByOther(order, actor)) return conflict(order, actor);
      return {
        patch: { ...base, ...assign },
        activity: {
          kind: 'claimed',
          data: {
            action,
            previousAssigneeId: order.assigneeId,
            previousAssigneeName: order.assigneeName,
          },
        },
      };
    }
    case 'unclaim': {
      if (!WORKING.includes(order.status)) return invalid(order.status);
      if (order.assigneeId === null) {
        return new AppError('INVALID_TRANSITION', 'This order is not claimed.');
      }
      if (heldByOther(order, actor) && !isManager) return conflict(order, actor);
      return {
        patch: { ...base, assigneeId: null, assigneeName: null },
        activity: { kind: 'unclaimed', data: { previousAssigneeId: order.assigneeId } },
      };
    }
    case 'start':
    case 'ready':
    case 'fulfil': {
      const step = NEXT_STATUS[action]!;
      if (order.status !== step.from) return invalid(order.status);
      if (heldByOther(order, actor) && !isManager) return conflict(order, actor);
      const timestamps: Pick<Partial<Order>, 'startedAt' | 'readyAt' | 'fulfilledAt'> = action ===
      'start'
        ? { startedAt: now }
        : action === 'ready'
          ? { readyAt: now }
          : { fulfilledAt: now };
      return {
        patch: {
          ...base,
          ...(order.assigneeId === null ? assign : {}),
          ...timestamps,
          status: step.to,
        },
        activity: { kind: 'status', data: { action, from: order.status, to: step.to } },
      };
    }
    case 'cancel': {
      if (!CANCELABLE.includes(order.status)) return invalid(order.status);
      // A card payment is refunded in full: the function refunds it at Stripe before writing.
      const refundCents = cancelRefundCents(order);
      return {
        patch: {
          ...base,
          status: 'canceled',
          canceledAt: now,
          ...(refundCents > 0 ? { refundedCents: order.refundedCents + refundCents } : {}),
        },
        activity: {
          kind: 'canceled',
          data: { from: order.status, by: 'manager', ...(refundCents > 0 ? { refundCents } : {}) },
        },
      };
    }
  }
}

/** A refund request as the client sends it (`order-action` with `action: 'refund'`). */
export interface RefundRequest {
  orderId: string;
  action: 'refund';
  expectedRev: number;
  /** Cents to refund; all that is left when omitted. */
  amountCents?: number;
}

/**
 * Decides a refund of `request.amountCents` (all that is left when omitted) of `order` by
 * `actor`. Pure, like {@link decideOrderAction}, and checked in the same order: role (managers
 * and owners), `rev` freshness, then the payment (`planRefund`: a card payment that succeeded,
 * on a paid order, a positive amount up to what is left). A full refund makes the order
 * `refunded`; a partial one keeps its status. The `order-action` function refunds the amount at
 * Stripe before it writes the change.
 */
export function decideRefund(
  order: Order,
  request: Pick<RefundRequest, 'expectedRev' | 'amountCents'>,
  actor: Actor,
): OrderChange | AppError {
  if (actor.role === null)
    return new AppError('FORBIDDEN', 'You don’t have permission to work on orders.');
  if (!hasAtLeast(actor.role, 'manager'))
    return new AppError('FORBIDDEN', 'You don’t have permission to refund orders.');
  if (request.expectedRev !== order.rev) return conflict(order, actor);
  const plan = planRefund(order, request.amountCents);
  if (plan instanceof AppError) return plan;
  if (!paidThroughStripe(order))
    return new AppError(
      'INVALID_TRANSITION',
      'This order was not paid by card, so there is nothing to refund.',
    );
  return {
    patch: {
      rev: order.rev + 1,
      updatedById: actor.id,
      updatedByName: actor.name,
      refundedCents: plan.refundedCents,
      status: plan.status,
    },
    activity: {
      kind: 'refund',
      data: {
        amountCents: plan.amountCents,
        refundedCents: plan.refundedCents,
        full: plan.state === 'full',
        by: 'manager',
      },
    },
  };
}

/**
 * The change that records a refund already made at Stripe (the charge's running total refunded,
 * `stripeRefundedCents`) by `action` on `order` as it is now — read again after someone changed
 * it between the decision and the write. The money has moved, so this never refuses: a cancel
 * still possible cancels (with the refund counted); otherwise the refund alone is recorded, a full
 * one making the order `refunded` (a canceled order stays canceled). Null when the order already
 * shows it (the webhook's `charge.refunded`, or the same refund recorded by a retry).
 */
export function recordTakenRefund(
  order: Order,
  action: 'cancel' | 'refund',
  stripeRefundedCents: number,
  actor: Actor,
  now: number,
): OrderChange | null {
  if (action === 'cancel' && order.status !== 'canceled') {
    const cancel = decideOrderAction(order, { action, expectedRev: order.rev }, actor, now);
    if (!(cancel instanceof AppError)) {
      const refundedCents = Math.max(cancel.patch.refundedCents ?? 0, stripeRefundedCents);
      return {
        patch: { ...cancel.patch, refundedCents },
        activity: {
          kind: 'canceled',
          data: { ...cancel.activity.data, refundCents: refundedCents - order.refundedCents },
        },
      };
    }
  }
  if (stripeRefundedCents <= order.refundedCents) return null;
  const refundedCents = Math.min(stripeRefundedCents, order.totalCents);
  const full = refundedCents >= order.totalCents;
  return {
    patch: {
      rev: order.rev + 1,
      updatedById: actor.id,
      updatedByName: actor.name,
      refundedCents,
      status: full && order.status !== 'canceled' ? 'refunded' : order.status,
    },
    activity: {
      kind: 'refund',
      data: {
        amountCents: refundedCents - order.refundedCents,
        refundedCents,
        full,
        by: 'manager',
      },
    },
  };
}

function invalid(status: OrderStatus): AppError {
  return new AppError('INVALID_TRANSITION', invalidTransitionMessage(status), { status });
}

/** Whether `expire-pending` should cancel this order at time `now`. */
export function isExpiredPending(order: Pick<Order, 'status' | 'createdAt'>, now: number): boolean {
  return order.status === 'pending_payment' && now - order.createdAt >= PENDING_PAYMENT_TTL_MS;
}

/** Who the backend's own jobs (`expire-pending`) act as in `updatedBy*` and activity records. */
export const SYSTEM_ACTOR = { id: 'system', name: 'Livedesk' } as const;

/**
 * What `expire-pending` changes on an order at time `now`: an unpaid order past
 * {@link PENDING_PAYMENT_TTL_MS} is canceled; anything else is left alone (null).
 */
export function expirePendingChange(order: Order, now: number): OrderChange | null {
  if (!isExpiredPending(order, now)) return null;
  return {
    patch: {
      rev: order.rev + 1,
      updatedById: SYSTEM_ACTOR.id,
      updatedByName: SYSTEM_ACTOR.name,
      status: 'canceled',
      canceledAt: now,
    },
    activity: {
      kind: 'canceled',
      data: {
        from: order.status,
        reason: 'payment_timeout',
        ttlMinutes: PENDING_PAYMENT_TTL_MS / 60_000,
      },
    },
  };
}

/** The actions the UI should offer `actor` for `order` (those {@link decideOrderAction} accepts). */
export function availableActions(order: Order, actor: Actor, now = Date.now()): OrderAction[] {
  return ORDER_ACTIONS.filter(
    (action) =>
      !(
        decideOrderAction(order, { action, expectedRev: order.rev }, actor, now) instanceof AppError
      ),
  );
}
