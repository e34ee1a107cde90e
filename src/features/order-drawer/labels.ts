import type { Activity } from '../../../domain/entities.ts';
import type { OrderAction } from '../../../domain/order-machine.ts';
import { formatPrice } from '../../lib/format.ts';

/** Button labels of the workflow actions. */
export const ACTION_LABEL: Record<OrderAction, string> = {
  claim: 'Claim',
  unclaim: 'Release',
  'take-over': 'Take over',
  start: 'Start preparing',
  ready: 'Mark ready',
  fulfil: 'Hand over',
  cancel: 'Cancel order',
};

/** The order the drawer lists the actions in: the next step first, cancel last. */
export const ACTION_ORDER: readonly OrderAction[] = [
  'start',
  'ready',
  'fulfil',
  'claim',
  'take-over',
  'unclaim',
  'cancel',
];

/** Actions that move an order on; the first one offered is the drawer's one primary button. */
const FORWARD: ReadonlySet<OrderAction> = new Set(['start', 'ready', 'fulfil', 'claim']);

/**
 * The one action shown as the primary button among those offered (in {@link ACTION_ORDER}), or
 * null: the next step of the work when there is one (`start` on an unclaimed paid order — it
 * claims it too — so Claim is secondary), else Claim.
 */
export function primaryAction(actions: readonly OrderAction[]): OrderAction | null {
  return ACTION_ORDER.find((action) => FORWARD.has(action) && actions.includes(action)) ?? null;
}

const STATUS_WORD: Record<string, string> = {
  preparing: 'started preparing',
  ready: 'marked it ready',
  fulfilled: 'handed it over',
};

/**
 * One line of the activity timeline, e.g. `Ana Silva claimed the order`; refunds name their
 * amount in the order's `currency`.
 */
export function describeActivity(entry: Activity, currency = 'eur'): string {
  const money = (value: unknown) =>
    typeof value === 'number' && value > 0 ? formatPrice(value, currency) : null;
  const who = entry.actorName ?? 'The shop';
  switch (entry.kind) {
    case 'created':
      return 'Order placed';
    case 'paid':
      return 'Payment received';
    case 'payment_failed':
      return 'Payment failed';
    case 'claimed':
      return entry.data.action === 'take-over'
        ? `${who} took the order over`
        : `${who} claimed the order`;
    case 'unclaimed':
      return `${who} released the order`;
    case 'status': {
      const to = typeof entry.data.to === 'string' ? entry.data.to : '';
      return `${who} ${STATUS_WORD[to] ?? `moved it to ${to}`}`;
    }
    case 'note':
      return entry.data.action === 'removed' ? `${who} removed a note` : `${who} added a note`;
    case 'attachment': {
      const name = typeof entry.data.name === 'string' ? entry.data.name : 'a file';
      return entry.data.action === 'removed' ? `${who} removed ${name}` : `${who} attached ${name}`;
    }
    case 'refund': {
      const amount = money(entry.data.amountCents);
      return amount ? `${who} refunded ${amount}` : `${who} refunded the order`;
    }
    case 'canceled': {
      const refunded = money(entry.data.refundCents);
      const text = entry.actorName ? `${entry.actorName} canceled the order` : 'Order canceled';
      return refunded ? `${text} and refunded ${refunded}` : text;
    }
    case 'repaired':
      return entry.data.lost === true
        ? 'A lost change was recorded by Livedesk'
        : 'Livedesk corrected the order’s counts';
  }
}

/**
 * What the drawer tells the member an order was taken from (a manager took it over while they
 * held it): `Marco Rossi took over this order.`; null for any other change of hands.
 */
export function takenOverNotice(
  before: { assigneeId: string | null },
  after: { assigneeId: string | null; assigneeName: string | null },
  memberId: string,
): string | null {
  if (before.assigneeId !== memberId || after.assigneeId === null) return null;
  if (after.assigneeId === memberId) return null;
  return `${after.assigneeName ?? 'Someone else'} took over this order.`;
}
