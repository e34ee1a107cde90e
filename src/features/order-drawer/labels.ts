import type { Activity } from '../../../domain/entities.ts';
import type { OrderAction } from '../../../domain/order-machine.ts';

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

const STATUS_WORD: Record<string, string> = {
  preparing: 'started preparing',
  ready: 'marked it ready',
  fulfilled: 'handed it over',
};

/** One line of the activity timeline, e.g. `Ana Silva claimed the order`. */
export function describeActivity(entry: Activity): string {
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
      return `${who} added a note`;
    case 'attachment':
      return `${who} attached a file`;
    case 'refund':
      return `${who} refunded the order`;
    case 'canceled':
      return entry.actorName ? `${entry.actorName} canceled the order` : 'Order canceled';
  }
}
