import type Stripe from 'stripe';
import {
  AUTHENTICATION_FAILURE,
  cardForNumber,
  cardForTestPaymentMethod,
  type CardOutcome,
  type Decline,
} from './cards.ts';
import { invalidParam, missingParam, noSuch, StripeApiError, unexpectedState } from './errors.ts';
import {
  cardError,
  newCharge,
  newEvent,
  newId,
  newPaymentIntent,
  newPaymentMethod,
  newRefund,
  nowSeconds,
} from './objects.ts';
import {
  allowOnly,
  applyMetadata,
  listLimit,
  optionalBoolean,
  optionalInteger,
  optionalObject,
  optionalString,
  requiredString,
  stringList,
  type Params,
} from './params.ts';
import type { StripeStore } from './store.ts';
import {
  DEFAULT_SWITCHES,
  WebhookDeliverer,
  type DeliveryAttempt,
  type WebhookSwitches,
  type WebhookTarget,
} from './webhooks.ts';

/** Who sent a request and how: which key, its request id and idempotency key. */
export interface Caller {
  key: 'secret' | 'publishable';
  requestId: string;
  idempotencyKey: string | null;
}

/** What the double keeps about a PaymentIntent besides its public JSON. */
interface IntentInternal {
  /** While `requires_action`: what happens once 3-D Secure is completed. */
  afterAuthentication?: CardOutcome;
  /** While `processing`: when it settles (epoch ms). */
  settleAt?: number;
}

interface EndpointInternal {
  secret: string;
  switches: WebhookSwitches;
}

/** Settings of the engine. */
export interface EngineOptions {
  /** How long a PaymentIntent paid with the double's processing card stays `processing`. */
  processingMs: number;
}

/** The event types the doubles send. */
export const EVENT_TYPES = [
  'payment_intent.created',
  'payment_intent.requires_action',
  'payment_intent.processing',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.refunded',
] as const satisfies readonly Stripe.Event.Type[];

const CURRENCY_SYMBOL: Record<string, string> = { usd: '$', eur: '€', gbp: '£' };
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

function formatAmount(amount: number, currency: string): string {
  const symbol = CURRENCY_SYMBOL[currency] ?? '';
  return `${symbol}${(amount / 100).toFixed(2)} ${currency}`;
}

/** A Stripe list response. */
export function listOf<T>(url: string, data: T[], hasMore: boolean): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

/**
 * The Stripe doubles' behaviour: PaymentIntents and their status machine, test cards, charges,
 * refunds, events and webhook endpoints, over a {@link StripeStore}. Every method takes parsed
 * request parameters and returns the JSON body to answer, or throws a {@link StripeApiError}.
 */
export class StripeEngine {
  private readonly store: StripeStore;
  private readonly options: EngineOptions;
  readonly deliverer: WebhookDeliverer;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly delivered = new Set<string>();
  /** Deliveries of the events recorded by the write under way, started once it commits. */
  private pendingDeliveries: (() => void)[] = [];

  constructor(store: StripeStore, options: EngineOptions) {
    this.store = store;
    this.options = options;
    this.deliverer = new WebhookDeliverer((event, endpointId) =>
      this.markDelivered(event, endpointId),
    );
    for (const intent of this.store.scan<Stripe.PaymentIntent, IntentInternal>(
      'payment_intent',
      (internal) => internal.settleAt !== undefined,
    ))
      this.scheduleSettlement(intent.data.id, intent.internal.settleAt!);
  }

  // ── PaymentIntents ─────────────────────────────────────────────────────────────────────

  createPaymentIntent(params: Params, caller: Caller): Stripe.PaymentIntent {
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
    this.write(() => {
      this.store.insert(intent, {});
      this.emit('payment_intent.created', intent, caller);
    });
    if (!confirm) return this.expandIntent(intent, params);
    const { payment_method, payment_method_data, return_url, expand } = params;
    return this.confirmPaymentIntent(
      intent.id,
      { payment_method, payment_method_data, return_url, expand },
      caller,
    );
  }

  retrievePaymentIntent(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
    allowOnly(params, ['expand', 'client_secret', 'key']);
    const intent = this.intent(id, params, caller);
    return this.expandIntent(intent.data, params);
  }

  updatePaymentIntent(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
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
  confirmPaymentIntent(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
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

  cancelPaymentIntent(id: string, params: Params, caller: Caller): Stripe.PaymentIntent {
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
    this.write(() => {
      this.store.update(intent, {});
      this.emit('payment_intent.canceled', intent, caller, { status: stored.data.status });
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
      this.write(() => {
        this.store.update(intent, {});
        this.emit('payment_intent.payment_failed', intent, caller, { status: 'requires_action' });
      });
      return this.expandIntent(intent, params);
    }
    return this.settle(intent, method, stored.internal.afterAuthentication, true, caller, params);
  }

  // ── Charges and refunds ────────────────────────────────────────────────────────────────

  retrieveCharge(id: string, params: Params): Stripe.Charge {
    allowOnly(params, ['expand']);
    const charge = this.store.get<Stripe.Charge>('charge', id) ?? noSuch('charge', id);
    return charge.data;
  }

  createRefund(params: Params, caller: Caller): Stripe.Refund {
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
    this.write(() => {
      this.store.insert(refund, {}, charge.payment_intent as string | null);
      this.store.update(charge);
      this.emit('charge.refunded', charge, caller, previous);
    });
    return refund;
  }

  retrieveRefund(id: string, params: Params): Stripe.Refund {
    allowOnly(params, ['expand']);
    return (this.store.get<Stripe.Refund>('refund', id) ?? noSuch('refund', id)).data;
  }

  listRefunds(params: Params): Stripe.ApiList<Stripe.Refund> {
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

  // ── Events and webhook endpoints ───────────────────────────────────────────────────────

  retrieveEvent(id: string, params: Params): Stripe.Event {
    allowOnly(params, ['expand']);
    return (this.store.get<Stripe.Event>('event', id) ?? noSuch('event', id)).data;
  }

  listEvents(params: Params): Stripe.ApiList<Stripe.Event> {
    allowOnly(params, [
      'type',
      'types',
      'limit',
      'starting_after',
      'ending_before',
      'expand',
      'delivery_success',
    ]);
    const type = optionalString(params, 'type');
    const types = stringList(params, 'types');
    const matches = (eventType: string) => {
      if (type !== undefined) {
        if (type.endsWith('*')) return eventType.startsWith(type.slice(0, -1));
        return eventType === type;
      }
      return types.length === 0 || types.includes(eventType);
    };
    const { data, hasMore } = this.store.list<Stripe.Event>('event', {
      limit: listLimit(params),
      startingAfter: optionalString(params, 'starting_after'),
      endingBefore: optionalString(params, 'ending_before'),
      where: (event) => matches(event.type),
    });
    return listOf('/v1/events', data, hasMore);
  }

  createWebhookEndpoint(params: Params, secret?: string, id?: string): Stripe.WebhookEndpoint {
    allowOnly(params, [
      'url',
      'enabled_events',
      'description',
      'metadata',
      'api_version',
      'expand',
    ]);
    const url = requiredString(params, 'url');
    if (!/^https?:\/\/\S+$/.test(url)) invalidParam('url', `Invalid URL: ${url}`, 'url_invalid');
    const enabled = stringList(params, 'enabled_events');
    if (enabled.length === 0) missingParam('enabled_events');
    const endpoint: Stripe.WebhookEndpoint = {
      id: id ?? newId('we'),
      object: 'webhook_endpoint',
      api_version: optionalString(params, 'api_version') ?? null,
      application: null,
      created: nowSeconds(),
      description: optionalString(params, 'description') ?? null,
      enabled_events: enabled,
      livemode: false,
      metadata: applyMetadata({}, params),
      status: 'enabled',
      url,
    };
    const internal: EndpointInternal = {
      secret: secret ?? newId('whsec', 32),
      switches: { ...DEFAULT_SWITCHES },
    };
    this.store.insert(endpoint, internal);
    return { ...endpoint, secret: internal.secret };
  }

  /** Creates or replaces the endpoint with a fixed id (the configured webhook URL). */
  ensureWebhookEndpoint(id: string, url: string, secret: string): void {
    const existing = this.store.get<Stripe.WebhookEndpoint, EndpointInternal>(
      'webhook_endpoint',
      id,
    );
    if (existing) {
      this.store.update(
        { ...existing.data, url, status: 'enabled' },
        { ...existing.internal, secret },
      );
      return;
    }
    this.createWebhookEndpoint({ url, enabled_events: ['*'] }, secret, id);
  }

  retrieveWebhookEndpoint(id: string): Stripe.WebhookEndpoint {
    return this.endpoint(id).data;
  }

  listWebhookEndpoints(params: Params): Stripe.ApiList<Stripe.WebhookEndpoint> {
    allowOnly(params, ['limit', 'starting_after', 'ending_before', 'expand']);
    const { data, hasMore } = this.store.list<Stripe.WebhookEndpoint>('webhook_endpoint', {
      limit: listLimit(params),
      startingAfter: optionalString(params, 'starting_after'),
      endingBefore: optionalString(params, 'ending_before'),
      where: (endpoint) => endpoint.status !== 'deleted',
    });
    return listOf('/v1/webhook_endpoints', data, hasMore);
  }

  deleteWebhookEndpoint(id: string): Stripe.DeletedWebhookEndpoint {
    const stored = this.endpoint(id);
    this.store.update({ ...stored.data, status: 'deleted' });
    return { id, object: 'webhook_endpoint', deleted: true };
  }

  /** Changes an endpoint's test switches (only the fields given) and returns them all. */
  setSwitches(id: string, params: Params): WebhookSwitches {
    const stored = this.endpoint(id);
    const switches = { ...stored.internal.switches };
    const integer = (name: keyof WebhookSwitches, min: number, max: number) => {
      const value = optionalInteger(params, name);
      if (value === undefined) return;
      if (value < min || value > max)
        invalidParam(name, `${name} must be between ${min} and ${max}`);
      (switches as unknown as Record<string, number>)[name] = value;
    };
    allowOnly(params, Object.keys(DEFAULT_SWITCHES));
    integer('duplicates', 1, 10);
    integer('delayMs', 0, 600_000);
    integer('seed', 0, 2 ** 31 - 1);
    integer('retryBaseMs', 1, 3_600_000);
    integer('maxAttempts', 1, 20);
    const hold = optionalBoolean(params, 'hold');
    if (hold !== undefined) switches.hold = hold;
    const order = optionalString(params, 'order');
    if (order !== undefined) {
      if (order !== 'created' && order !== 'reverse' && order !== 'shuffle')
        invalidParam('order', 'order must be created, reverse or shuffle');
      switches.order = order;
    }
    this.store.update(stored.data, { ...stored.internal, switches });
    return switches;
  }

  /** Sends the deliveries held for an endpoint; returns how many. */
  flush(id: string): number {
    return this.deliverer.flush(id, this.endpoint(id).internal.switches);
  }

  /** The delivery attempts made to an endpoint and how many are held. */
  deliveries(id: string): { held: number; attempts: DeliveryAttempt[] } {
    this.endpoint(id);
    return { held: this.deliverer.heldCount(id), attempts: this.deliverer.attempts(id) };
  }

  /** Stops timers and pending deliveries. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.deliverer.close();
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────

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

  private endpoint(id: string) {
    const stored = this.store.get<Stripe.WebhookEndpoint, EndpointInternal>('webhook_endpoint', id);
    if (!stored || stored.data.status === 'deleted') noSuch('webhook_endpoint', id);
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
        this.write(() => {
          this.store.update(intent, {
            afterAuthentication: outcome.after,
          } satisfies IntentInternal);
          this.emit('payment_intent.requires_action', intent, caller, { status: previousStatus });
        });
        return this.expandIntent(intent, params);
      }
      case 'processing': {
        intent.status = 'processing';
        intent.processing = { type: 'card', card: {} };
        const settleAt = Date.now() + this.options.processingMs;
        this.write(() => {
          this.store.update(intent, { settleAt } satisfies IntentInternal);
          this.emit('payment_intent.processing', intent, caller, { status: previousStatus });
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
        this.write(() => {
          this.store.insert(charge, {}, intent.id);
          this.store.update(intent, {});
          this.emit('payment_intent.succeeded', intent, caller, { status: previousStatus });
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
    this.write(() => {
      if (charge) this.store.insert(charge, {}, intent.id);
      this.store.update(intent, {});
      this.emit('payment_intent.payment_failed', intent, caller, { status: previousStatus });
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

  /** Records an event and queues it for every enabled endpoint that wants it. */
  private emit(
    type: Stripe.Event.Type,
    object: { id: string; object: string },
    caller: Caller,
    previousAttributes?: Record<string, unknown>,
  ): void {
    const event = newEvent(
      type,
      object,
      { id: caller.requestId, idempotencyKey: caller.idempotencyKey },
      previousAttributes,
    );
    const targets: WebhookTarget[] = this.store
      .scan<Stripe.WebhookEndpoint, EndpointInternal>('webhook_endpoint', () => true)
      .filter(
        ({ data }) =>
          data.status === 'enabled' &&
          (data.enabled_events.includes('*') || data.enabled_events.includes(type)),
      )
      .map(({ data, internal }) => ({
        id: data.id,
        url: data.url,
        secret: internal.secret,
        enabledEvents: data.enabled_events,
        switches: internal.switches,
      }));
    event.pending_webhooks = targets.length;
    this.store.insert(event, {}, object.id);
    for (const target of targets)
      this.pendingDeliveries.push(() => this.deliverer.enqueue(target, event));
  }

  /** Runs `work` in one transaction; the events it recorded are delivered once it commits. */
  private write(work: () => void): void {
    this.pendingDeliveries = [];
    try {
      this.store.transaction(work);
    } catch (error) {
      this.pendingDeliveries = [];
      throw error;
    }
    const deliveries = this.pendingDeliveries;
    this.pendingDeliveries = [];
    for (const deliver of deliveries) deliver();
  }

  private markDelivered(event: Stripe.Event, endpointId: string): void {
    const key = `${event.id}:${endpointId}`;
    if (this.delivered.has(key)) return;
    this.delivered.add(key);
    const stored = this.store.get<Stripe.Event>('event', event.id);
    if (!stored) return;
    this.store.update({
      ...stored.data,
      pending_webhooks: Math.max(0, stored.data.pending_webhooks - 1),
    });
  }
}
