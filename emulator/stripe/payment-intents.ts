import type Stripe from 'stripe';
import {
  AUTHENTICATION_FAILURE,
  cardForNumber,
  cardForTestPaymentMethod,
  type CardOutcome,
  type Decline,
} from './cards.ts';
import { invalidParam, missingParam, noSuch, StripeApiError, unexpectedState } from './errors.ts';
import type { Caller, EventLog } from './events.ts';
import {
  cardError,
  formatAmount,
  newCharge,
  newId,
  newPaymentIntent,
  newPaymentMethod,
  nowSeconds,
} from './objects.ts';
import {
  allowOnly,
  applyMetadata,
  optionalBoolean,
  optionalInteger,
  optionalObject,
  optionalString,
  requiredString,
  stringList,
  type Params,
} from './params.ts';
import type { StripeStore } from './store.ts';

/** What the double keeps about a PaymentIntent besides its public JSON. */
interface IntentInternal {
  /** While `requires_action`: what happens once 3-D Secure is completed. */
  afterAuthentication?: CardOutcome;
  /** While `processing`: when it settles (epoch ms). */
  settleAt?: number;
}

const CANCELABLE: readonly Stripe.PaymentIntent.Status[] = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
];
const CONFIRMABLE: readonly Stripe.PaymentIntent.Status[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
];
const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'];

/**
 * PaymentIntents (`/v1/payment_intents`) and their status machine: confirmation with test cards
 * (success, declines, 3-D Secure, the double's processing card), cancel, update, expand.
 */
export class PaymentIntents {
  private readonly store: StripeStore;
  private readonly events: EventLog;
  private readonly processingMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(store: StripeStore, events: EventLog, processingMs: number) {
    this.store = store;
    this.events = events;
    this.processingMs = processingMs;
    for (const intent of this.store.scan<Stripe.PaymentIntent, IntentInternal>(
      'payment_intent',
      (internal) => internal.settleAt !== undefined,
    ))
      this.scheduleSettlement(intent.data.id, intent.internal.settleAt!);
  }

  create(params: Params, caller: Caller): Stripe.PaymentIntent {
    allowOnly(params, [
      'amount',
      'currency',
      'metadata',
      'description',
      'receipt_email',
      'automatic_payment_methods',
      'payment_method_types',
      'capture_method',
      'confirm',
      'payment_method',
      'payment_method_data',
      'return_url',
      'expand',
    ]);
    const amount = optionalInteger(params, 'amount');
    if (amount === undefined) missingParam('amount');
    const currency = requiredString(params, 'currency').toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) invalidParam('currency', `Invalid currency: ${currency}.`);
    this.checkAmount(amount, currency);
    const capture = optionalString(params, 'capture_method') ?? 'automatic';
    if (capture !== 'automatic' && capture !== 'automatic_async')
      invalidParam('capture_method', `The Stripe doubles only support capture_method=automatic.`);
    const automatic = optionalObject(params, 'automatic_payment_methods');
    const types = stringList(params, 'payment_method_types');
    if (types.some((type) => type !== 'card'))
      invalidParam('payment_method_types', 'The Stripe doubles only support card payments.');
    const intent = newPaymentIntent({
      amount,
      currency,
      metadata: applyMetadata({}, params),
      description: optionalString(params, 'description') ?? null,
      receiptEmail: optionalString(params, 'receipt_email') ?? null,
      automaticPaymentMethods: automatic?.enabled === 'true' || types.length === 0,
      paymentMethodTypes: ['card'],
    });
    const confirm = optionalBoolean(params, 'confirm') ?? false;
    this.events.write(() => {
      this.store.insert(intent, {});
      this.events.emit('payment_intent.created', intent, caller);
    });
    if (!confirm) return this.expandIntent(intent, params);
    const { payment_method, payment_method_data, return_url, expand } = params;
    return this.confirm(
      intent.id,
      { payment_method, payment_method_data, return_url, expand },
      caller,
    );
  }

  retrieve(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
    allowOnly(params, ['expand', 'client_secret', 'key']);
    const intent = this.intent(id, params, caller);
    return this.expandIntent(intent.data, params);
  }

  update(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
    allowOnly(params, ['amount', 'currency', 'metadata', 'description', 'receipt_email', 'expand']);
    const stored = this.intent(id, params, caller);
    const intent = { ...stored.data };
    const amount = optionalInteger(params, 'amount');
    const currency = optionalString(params, 'currency')?.toLowerCase();
    if ((amount !== undefined || currency !== undefined) && !CONFIRMABLE.includes(intent.status))
      unexpectedState(
        'payment_intent_unexpected_state',
        `This PaymentIntent's amount could not be updated because it has a status of ${intent.status}. You may only update the amount of a PaymentIntent with one of the following statuses: requires_payment_method, requires_confirmation, requires_action.`,
        { payment_intent: intent },
      );
    if (currency !== undefined) {
      if (!/^[a-z]{3}$/.test(currency)) invalidParam('currency', `Invalid currency: ${currency}.`);
      intent.currency = currency;
    }
    if (amount !== undefined) {
      this.checkAmount(amount, intent.currency);
      intent.amount = amount;
    }
    intent.metadata = applyMetadata(intent.metadata, params);
    const description = optionalString(params, 'description');
    if (description !== undefined) intent.description = description || null;
    const email = optionalString(params, 'receipt_email');
    if (email !== undefined) intent.receipt_email = email || null;
    this.store.update(intent);
    return this.expandIntent(intent, params);
  }

  /**
   * Confirms with a card: a `pm_card_…` test PaymentMethod, a PaymentMethod made earlier, or
   * `payment_method_data[card]` (the browser double's card form). The outcome comes from the
   * test card; a decline answers 402 with the PaymentIntent back in `requires_payment_method`.
   */
  confirm(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
    allowOnly(params, [
      'payment_method',
      'payment_method_data',
      'return_url',
      'expand',
      'client_secret',
      'key',
      'receipt_email',
      'use_stripe_sdk',
    ]);
    const stored = this.intent(id, params, caller);
    const intent = { ...stored.data };
    if (!CONFIRMABLE.includes(intent.status)) {
      const message =
        intent.status === 'succeeded'
          ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
          : `You cannot confirm this PaymentIntent because it has a status of ${intent.status}.`;
      unexpectedState('payment_intent_unexpected_state', message, { payment_intent: intent });
    }
    const method = this.paymentMethodFor(params, intent);
    const card = method.internal;
    intent.payment_method = method.data.id;
    intent.last_payment_error = null;
    intent.next_action = null;
    const email = optionalString(params, 'receipt_email');
    if (email !== undefined) intent.receipt_email = email || null;
    return this.settle(intent, method.data, card.outcome, false, caller, params);
  }

  cancel(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
    allowOnly(params, ['cancellation_reason', 'expand']);
    const stored = this.intent(id, params, caller);
    const intent = { ...stored.data };
    if (!CANCELABLE.includes(intent.status))
      unexpectedState(
        'payment_intent_unexpected_state',
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
        { payment_intent: intent },
      );
    const reason = optionalString(params, 'cancellation_reason');
    if (reason !== undefined && !CANCELLATION_REASONS.includes(reason))
      invalidParam(
        'cancellation_reason',
        `Invalid cancellation_reason: must be one of ${CANCELLATION_REASONS.join(', ')}`,
      );
    intent.status = 'canceled';
    intent.canceled_at = nowSeconds();
    intent.cancellation_reason = (reason ?? null) as Stripe.PaymentIntent.CancellationReason | null;
    intent.next_action = null;
    intent.processing = null;
    this.events.write(() => {
      this.store.update(intent, {});
      this.events.emit('payment_intent.canceled', intent, caller, { status: stored.data.status });
    });
    return this.expandIntent(intent, params);
  }

  /**
   * Completes (`approve`) or fails (`fail`) the 3-D Secure challenge of a PaymentIntent in
   * `requires_action` — what the customer does in Stripe's challenge window.
   */
  completeAuthentication(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
    allowOnly(params, ['client_secret', 'key', 'result', 'expand']);
    const stored = this.intent(id, params, caller);
    const result = requiredString(params, 'result');
    if (result !== 'approve' && result !== 'fail')
      invalidParam('result', 'result must be approve or fail');
    const intent = { ...stored.data };
    if (intent.status !== 'requires_action' || !stored.internal.afterAuthentication)
      unexpectedState(
        'payment_intent_unexpected_state',
        `This PaymentIntent has no authentication in progress (status ${intent.status}).`,
        { payment_intent: intent },
      );
    const method = this.store.get<Stripe.PaymentMethod>(
      'payment_method',
      String(intent.payment_method),
    )!.data;
    intent.next_action = null;
    if (result === 'fail') {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        type: 'invalid_request_error',
        code: AUTHENTICATION_FAILURE.code,
        doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
        message: AUTHENTICATION_FAILURE.message,
        payment_method: method,
      };
      intent.payment_method = null;
      this.events.write(() => {
        this.store.update(intent, {});
        this.events.emit('payment_intent.payment_failed', intent, caller, {
          status: 'requires_action',
        });
      });
      return this.expandIntent(intent, params);
    }
    return this.settle(intent, method, stored.internal.afterAuthentication, true, caller, params);
  }

  private checkAmount(amount: number, currency: string): void {
    if (amount < 50)
      unexpectedState('amount_too_small', `Amount must be at least ${formatAmount(50, currency)}`, {
        param: 'amount',
      });
    if (amount > 99_999_999)
      invalidParam(
        'amount',
        `Amount must be no more than ${formatAmount(99_999_999, currency)}`,
        'amount_too_large',
      );
  }

  /**
   * The PaymentIntent `id`; a publishable-key caller must name its `client_secret` (as Stripe.js
   * does), and sees it only then.
   */
  private intent(id: string, params: Params, caller: Caller) {
    const stored =
      this.store.get<Stripe.PaymentIntent, IntentInternal>('payment_intent', id) ??
      noSuch('payment_intent', id);
    if (caller.key === 'publishable') {
      const secret = optionalString(params, 'client_secret');
      if (secret === undefined) missingParam('client_secret');
      if (secret !== stored.data.client_secret)
        invalidParam(
          'client_secret',
          'The client_secret provided does not match any associated PaymentIntent on this account.',
        );
    }
    delete params.client_secret;
    delete params.key;
    return stored;
  }

  /** The PaymentMethod a confirmation names (made now from test-card data or a `pm_card_…`). */
  private paymentMethodFor(
    params: Params,
    intent: Stripe.PaymentIntent,
  ): { data: Stripe.PaymentMethod; internal: { outcome: CardOutcome } } {
    const methodId = optionalString(params, 'payment_method');
    const data = optionalObject(params, 'payment_method_data');
    if (methodId !== undefined && data !== undefined)
      invalidParam(
        'payment_method_data',
        'You cannot pass both payment_method and payment_method_data.',
        'parameters_exclusive',
      );
    const year = new Date().getUTCFullYear();
    if (methodId !== undefined) {
      const testCard = cardForTestPaymentMethod(methodId);
      if (testCard) {
        const method = newPaymentMethod({ card: testCard, expMonth: 12, expYear: year + 3 });
        const internal = { outcome: testCard.outcome };
        this.store.insert(method, internal);
        return { data: method, internal };
      }
      const stored = this.store.get<Stripe.PaymentMethod, { outcome: CardOutcome }>(
        'payment_method',
        methodId,
      );
      if (!stored) noSuch('PaymentMethod', methodId, 'payment_method');
      return stored;
    }
    if (data === undefined) {
      if (typeof intent.payment_method === 'string') {
        const stored = this.store.get<Stripe.PaymentMethod, { outcome: CardOutcome }>(
          'payment_method',
          intent.payment_method,
        );
        if (stored) return stored;
      }
      invalidParam(
        'payment_method',
        'You cannot confirm this PaymentIntent because it’s missing a payment method. To confirm the PaymentIntent with cus_xxx, specify a payment method attached to this customer along with the customer ID.',
        'payment_intent_unexpected_state',
      );
    }
    if (data.type !== 'card')
      invalidParam('payment_method_data[type]', 'The Stripe doubles only support card payments.');
    const cardData = optionalObject(data, 'card') ?? missingParam('payment_method_data[card]');
    const number = requiredString(cardData, 'number');
    const expMonth =
      optionalInteger(cardData, 'exp_month') ??
      missingParam('payment_method_data[card][exp_month]');
    const expYear =
      optionalInteger(cardData, 'exp_year') ?? missingParam('payment_method_data[card][exp_year]');
    const testCard = cardForNumber(number);
    const fullYear = expYear < 100 ? 2000 + expYear : expYear;
    const now = new Date();
    let outcome = testCard.outcome;
    if (expMonth < 1 || expMonth > 12)
      outcome = {
        kind: 'decline',
        decline: {
          code: 'invalid_expiry_month',
          message: "Your card's expiration month is invalid.",
          param: 'exp_month',
        },
      };
    else if (
      fullYear < now.getUTCFullYear() ||
      (fullYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1)
    )
      outcome = {
        kind: 'decline',
        decline: {
          code: 'invalid_expiry_year',
          message: "Your card's expiration year is invalid.",
          param: 'exp_year',
        },
      };
    const method = newPaymentMethod({ card: testCard, expMonth, expYear: fullYear });
    const internal = { outcome };
    this.store.insert(method, internal);
    return { data: method, internal };
  }

  /** Applies a card outcome to a PaymentIntent being confirmed (or authenticated). */
  private settle(
    intent: Stripe.PaymentIntent,
    method: Stripe.PaymentMethod,
    outcome: CardOutcome,
    authenticated: boolean,
    caller: Caller,
    params: Params,
  ): Stripe.PaymentIntent {
    const previousStatus = intent.status;
    switch (outcome.kind) {
      case 'three_d_secure': {
        intent.status = 'requires_action';
        intent.next_action = {
          type: 'use_stripe_sdk',
          use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: '', source: newId('src') },
        };
        this.events.write(() => {
          this.store.update(intent, {
            afterAuthentication: outcome.after,
          } satisfies IntentInternal);
          this.events.emit('payment_intent.requires_action', intent, caller, {
            status: previousStatus,
          });
        });
        return this.expandIntent(intent, params);
      }
      case 'processing': {
        intent.status = 'processing';
        intent.processing = { type: 'card', card: {} };
        const settleAt = Date.now() + this.processingMs;
        this.events.write(() => {
          this.store.update(intent, { settleAt } satisfies IntentInternal);
          this.events.emit('payment_intent.processing', intent, caller, { status: previousStatus });
        });
        this.scheduleSettlement(intent.id, settleAt);
        return this.expandIntent(intent, params);
      }
      case 'succeed': {
        const charge = newCharge(intent, method, { authenticated });
        intent.status = 'succeeded';
        intent.amount_received = intent.amount;
        intent.latest_charge = charge.id;
        intent.processing = null;
        this.events.write(() => {
          this.store.insert(charge, {}, intent.id);
          this.store.update(intent, {});
          this.events.emit('payment_intent.succeeded', intent, caller, { status: previousStatus });
        });
        return this.expandIntent(intent, params);
      }
      case 'decline':
        this.decline(intent, method, outcome.decline, authenticated, caller, previousStatus);
    }
  }

  private decline(
    intent: Stripe.PaymentIntent,
    method: Stripe.PaymentMethod,
    decline: Decline,
    authenticated: boolean,
    caller: Caller,
    previousStatus: Stripe.PaymentIntent.Status,
  ): never {
    // A number that fails validation never reaches the network: no charge is made for it.
    const charged = !['incorrect_number', 'invalid_expiry_month', 'invalid_expiry_year'].includes(
      decline.code,
    );
    const charge = charged ? newCharge(intent, method, { decline, authenticated }) : null;
    intent.status = 'requires_payment_method';
    intent.payment_method = null;
    intent.last_payment_error = cardError(decline, charge, method);
    if (charge) intent.latest_charge = charge.id;
    this.events.write(() => {
      if (charge) this.store.insert(charge, {}, intent.id);
      this.store.update(intent, {});
      this.events.emit('payment_intent.payment_failed', intent, caller, { status: previousStatus });
    });
    const { payment_method: _method, ...error } = cardError(decline, charge, method);
    throw new StripeApiError(402, {
      ...error,
      type: 'card_error',
      message: decline.message,
      payment_intent: intent,
      payment_method: method,
      request_log_url: `https://dashboard.stripe.com/test/logs/${caller.requestId}`,
    });
  }

  private scheduleSettlement(id: string, at: number): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        const stored = this.store.get<Stripe.PaymentIntent, IntentInternal>('payment_intent', id);
        if (!stored || stored.data.status !== 'processing') return;
        const method = this.store.get<Stripe.PaymentMethod>(
          'payment_method',
          String(stored.data.payment_method),
        );
        if (!method) return;
        this.settle(
          { ...stored.data },
          method.data,
          { kind: 'succeed' },
          false,
          { key: 'secret', requestId: newId('req', 14), idempotencyKey: null },
          {},
        );
      },
      Math.max(0, at - Date.now()),
    );
    this.timers.add(timer);
  }

  /** `expand[]=latest_charge` and `expand[]=payment_method` on a PaymentIntent. */
  private expandIntent(intent: Stripe.PaymentIntent, params: Params): Stripe.PaymentIntent {
    const expand = stringList(params, 'expand');
    const out = { ...intent };
    for (const path of expand) {
      if (path === 'latest_charge' && typeof intent.latest_charge === 'string')
        out.latest_charge = this.store.get<Stripe.Charge>('charge', intent.latest_charge)!.data;
      else if (path === 'payment_method' && typeof intent.payment_method === 'string')
        out.payment_method = this.store.get<Stripe.PaymentMethod>(
          'payment_method',
          intent.payment_method,
        )!.data;
      else if (path !== 'latest_charge' && path !== 'payment_method')
        invalidParam('expand', `This property cannot be expanded (${path}).`);
    }
    return out;
  }

  /** Stops the timers of intents in `processing` (they resume on the next start). */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
