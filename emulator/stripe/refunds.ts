import type Stripe from 'stripe';
import { invalidParam, noSuch, unexpectedState } from './errors.ts';
import { listOf, type Caller, type EventLog } from './events.ts';
import { formatAmount, newRefund } from './objects.ts';
import {
  allowOnly,
  applyMetadata,
  listLimit,
  optionalInteger,
  optionalString,
  type Params,
} from './params.ts';
import type { StripeStore } from './store.ts';

/** Charges (read only) and refunds (`/v1/charges`, `/v1/refunds`). */
export class Refunds {
  private readonly store: StripeStore;
  private readonly events: EventLog;

  constructor(store: StripeStore, events: EventLog) {
    this.store = store;
    this.events = events;
  }

  retrieveCharge(id: string, params: Params): Stripe.Charge {
    allowOnly(params, ['expand']);
    const charge = this.store.get<Stripe.Charge>('charge', id) ?? noSuch('charge', id);
    return charge.data;
  }

  create(params: Params, caller: Caller): Stripe.Refund {
    allowOnly(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand']);
    const intentId = optionalString(params, 'payment_intent');
    let chargeId = optionalString(params, 'charge');
    if (intentId === undefined && chargeId === undefined)
      invalidParam(
        'payment_intent',
        'One of the following params should be provided for this request: payment_intent or charge.',
        'parameter_missing',
      );
    if (intentId !== undefined) {
      const intent =
        this.store.get<Stripe.PaymentIntent>('payment_intent', intentId) ??
        noSuch('payment_intent', intentId, 'payment_intent');
      if (intent.data.status !== 'succeeded' || typeof intent.data.latest_charge !== 'string')
        unexpectedState(
          'charge_not_refundable',
          `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        );
      chargeId = intent.data.latest_charge;
    }
    const stored =
      this.store.get<Stripe.Charge>('charge', chargeId!) ?? noSuch('charge', chargeId!, 'charge');
    const charge = { ...stored.data };
    const reason = optionalString(params, 'reason');
    if (
      reason !== undefined &&
      !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason)
    )
      invalidParam(
        'reason',
        'Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer',
      );
    const left = charge.amount_captured - charge.amount_refunded;
    if (charge.status !== 'succeeded')
      unexpectedState(
        'charge_not_refundable',
        `Charge ${charge.id} has not succeeded and cannot be refunded.`,
      );
    if (left === 0)
      unexpectedState('charge_already_refunded', `Charge ${charge.id} has already been refunded.`, {
        charge: charge.id,
      });
    const amount = optionalInteger(params, 'amount') ?? left;
    if (amount < 1)
      invalidParam(
        'amount',
        'Refund amount must be a positive integer.',
        'parameter_invalid_integer',
      );
    if (amount > left)
      unexpectedState(
        'amount_too_large',
        `Refund amount (${formatAmount(amount, charge.currency)}) is greater than unrefunded amount on charge (${formatAmount(left, charge.currency)})`,
        { param: 'amount' },
      );
    const refund = newRefund(
      charge,
      amount,
      (reason ?? null) as Stripe.Refund.Reason | null,
      applyMetadata({}, params),
    );
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount_captured;
    this.events.write(() => {
      this.store.insert(refund, {}, charge.payment_intent as string | null);
      this.store.update(charge);
      this.events.emit('charge.refunded', charge, caller, previous);
    });
    return refund;
  }

  retrieve(id: string, params: Params): Stripe.Refund {
    allowOnly(params, ['expand']);
    return (this.store.get<Stripe.Refund>('refund', id) ?? noSuch('refund', id)).data;
  }

  list(params: Params): Stripe.ApiList<Stripe.Refund> {
    allowOnly(params, [
      'payment_intent',
      'charge',
      'limit',
      'starting_after',
      'ending_before',
      'expand',
    ]);
    const charge = optionalString(params, 'charge');
    const { data, hasMore } = this.store.list<Stripe.Refund>('refund', {
      limit: listLimit(params),
      startingAfter: optionalString(params, 'starting_after'),
      endingBefore: optionalString(params, 'ending_before'),
      parent: optionalString(params, 'payment_intent'),
      where: charge === undefined ? undefined : (refund) => refund.charge === charge,
    });
    return listOf('/v1/refunds', data, hasMore);
  }
}
