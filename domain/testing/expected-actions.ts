import { ORDER_STATUSES } from '../order.ts';
import { ORDER_ACTIONS, type OrderAction } from '../order-machine.ts';

/** `ok` or the refusal code, per state in the order of `ORDER_STATUSES`. */
export type ExpectedOutcomes = Record<OrderAction, string[]>;

// Written out by hand from docs/product.md §5 and §6 (not derived from the code under test), for an
// UNASSIGNED order. Columns follow ORDER_STATUSES:
// pending_payment payment_failed paid preparing ready fulfilled canceled refunded.
const IT = 'INVALID_TRANSITION';
const FB = 'FORBIDDEN';

/** What staff get for every action × state. */
export const EXPECTED_FOR_STAFF: ExpectedOutcomes = {
  claim: [IT, IT, 'ok', 'ok', 'ok', IT, IT, IT],
  unclaim: [IT, IT, IT, IT, IT, IT, IT, IT],
  'take-over': [FB, FB, FB, FB, FB, FB, FB, FB],
  start: [IT, IT, 'ok', IT, IT, IT, IT, IT],
  ready: [IT, IT, IT, 'ok', IT, IT, IT, IT],
  fulfil: [IT, IT, IT, IT, 'ok', IT, IT, IT],
  cancel: [FB, FB, FB, FB, FB, FB, FB, FB],
};

/** What managers (and owners) get for every action × state. */
export const EXPECTED_FOR_MANAGER: ExpectedOutcomes = {
  ...EXPECTED_FOR_STAFF,
  'take-over': [IT, IT, 'ok', 'ok', 'ok', IT, IT, IT],
  cancel: ['ok', 'ok', 'ok', 'ok', 'ok', IT, IT, IT],
};

/** What someone outside the desk team gets: refused everywhere. */
export const EXPECTED_FOR_OUTSIDER = Object.fromEntries(
  ORDER_ACTIONS.map((action) => [action, ORDER_STATUSES.map(() => FB)]),
) as ExpectedOutcomes;
