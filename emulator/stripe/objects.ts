import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { Decline, TestCard } from './cards.ts';

/** The API version the doubles speak (that of `stripe` 23.1.0 and Stripe.js `endive`). */
export const API_VERSION = '2026-10-28.endive';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-like id: `prefix_` and 24 random letters and digits. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${id}`;
}

/** Seconds since the epoch, as Stripe's timestamps are. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

const NO_ADDRESS = null;

const CURRENCY_SYMBOL: Record<string, string> = { usd: '$', eur: '€', gbp: '£' };

/** An amount as Stripe writes it in messages, e.g. `€15.01 eur`. */
export function formatAmount(amount: number, currency: string): string {
  return `${CURRENCY_SYMBOL[currency] ?? ''}${(amount / 100).toFixed(2)} ${currency}`;
}

/** A PaymentIntent in `requires_payment_method`, as `POST /v1/payment_intents` creates it. */
export function newPaymentIntent(params: {
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  description: string | null;
  receiptEmail: string | null;
  automaticPaymentMethods: boolean;
  paymentMethodTypes: string[];
}): Stripe.PaymentIntent {
  const id = newId('pi');
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: params.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: params.automaticPaymentMethods
      ? { allow_redirects: 'always', enabled: true }
      : null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${newId('x').slice(2)}`,
    confirmation_method: 'automatic',
    created: nowSeconds(),
    currency: params.currency,
    customer: null,
    customer_account: null,
    description: params.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: params.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: {
        installments: null,
        mandate_options: null,
        network: null,
        request_three_d_secure: 'automatic',
      },
    },
    payment_method_types: params.paymentMethodTypes,
    payment_record: null,
    processing: null,
    receipt_email: params.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
}

/** The card details of a PaymentMethod made from a test card. */
export interface CardDetails {
  card: TestCard;
  expMonth: number;
  expYear: number;
}

/** A card PaymentMethod (last four digits, brand, expiry; never the number). */
export function newPaymentMethod(details: CardDetails): Stripe.PaymentMethod {
  const { card } = details;
  return {
    id: newId('pm'),
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: { address: NO_ADDRESS, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: details.expMonth,
      exp_year: details.expYear,
      fingerprint: card.number.slice(-8),
      funding: card.funding,
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: nowSeconds(),
    customer: null,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
}

/** A charge for `intent` paid with `method`: succeeded, or failed with `decline`. */
export function newCharge(
  intent: Stripe.PaymentIntent,
  method: Stripe.PaymentMethod,
  outcome: { decline?: Decline; authenticated: boolean },
): Stripe.Charge {
  const card = method.card!;
  const failed = outcome.decline !== undefined;
  return {
    id: newId('ch'),
    object: 'charge',
    amount: intent.amount,
    amount_captured: failed ? 0 : intent.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: failed ? null : newId('txn'),
    billing_details: method.billing_details,
    calculated_statement_descriptor: 'LIVEDESK',
    captured: !failed,
    created: nowSeconds(),
    currency: intent.currency,
    customer: null,
    description: intent.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: outcome.decline?.code ?? null,
    failure_message: outcome.decline?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: intent.metadata,
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: failed ? 'declined_by_network' : 'approved_by_network',
      reason: outcome.decline?.declineCode ?? null,
      risk_level: 'normal',
      seller_message: failed
        ? 'The bank did not return any further details with this decline.'
        : 'Payment complete.',
      type: failed ? 'issuer_declined' : 'authorized',
    },
    paid: !failed,
    payment_intent: intent.id,
    payment_method: method.id,
    payment_method_details: {
      card: {
        amount_authorized: failed ? null : intent.amount,
        authorization_code: failed ? null : String(100000 + (intent.amount % 900000)),
        brand: card.brand,
        checks: card.checks,
        country: card.country,
        exp_month: card.exp_month,
        exp_year: card.exp_year,
        extended_authorization: { status: 'disabled' },
        fingerprint: card.fingerprint ?? null,
        funding: card.funding,
        incremental_authorization: { status: 'unavailable' },
        installments: null,
        last4: card.last4,
        mandate: null,
        multicapture: { status: 'unavailable' },
        network: card.brand,
        network_token: { used: false },
        network_transaction_id: failed ? null : newId('ntx', 15).slice(4),
        overcapture: { maximum_amount_capturable: intent.amount, status: 'unavailable' },
        regulated_status: 'unregulated',
        three_d_secure: outcome.authenticated
          ? {
              authentication_flow: 'challenge',
              electronic_commerce_indicator: '05',
              exemption_indicator: null,
              result: 'authenticated',
              result_reason: null,
              transaction_id: newId('3ds'),
              version: '2.2.0',
            }
          : null,
        wallet: null,
        electronic_commerce_indicator: null,
        transaction_link_id: null,
      },
      type: 'card',
    },
    radar_options: {},
    receipt_email: intent.receipt_email,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: failed ? 'failed' : 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
}

/** A refund of `amount` of `charge`, succeeded at once (card refunds in test mode do). */
export function newRefund(
  charge: Stripe.Charge,
  amount: number,
  reason: Stripe.Refund.Reason | null,
  metadata: Record<string, string>,
): Stripe.Refund {
  return {
    id: newId('re'),
    object: 'refund',
    amount,
    balance_transaction: newId('txn'),
    charge: charge.id,
    created: nowSeconds(),
    currency: charge.currency,
    customer: null,
    customer_account: null,
    destination_details: {
      card: {
        reference_status: 'pending',
        reference_type: 'acquirer_reference_number',
        type: 'refund',
      },
      type: 'card',
    },
    metadata,
    payment_intent: typeof charge.payment_intent === 'string' ? charge.payment_intent : null,
    payment_method: charge.payment_method,
    reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

/** The `last_payment_error` (and `card_error` body) of a declined confirmation. */
export function cardError(
  decline: Decline,
  charge: Stripe.Charge | null,
  method: Stripe.PaymentMethod,
): Stripe.PaymentIntent.LastPaymentError {
  const slug = decline.code.replace(/_/g, '-');
  return {
    type: 'card_error',
    code: decline.code,
    ...(decline.declineCode ? { decline_code: decline.declineCode } : {}),
    ...(charge ? { charge: charge.id } : {}),
    doc_url: `https://stripe.com/docs/error-codes/${slug}`,
    message: decline.message,
    ...(decline.param ? { param: decline.param } : {}),
    payment_method: method,
  };
}

/** An event about `object`, as `GET /v1/events/:id` returns it. */
export function newEvent(
  type: Stripe.Event.Type,
  object: { id: string; object: string },
  request: { id: string | null; idempotencyKey: string | null },
  previousAttributes?: Record<string, unknown>,
): Stripe.Event {
  return {
    id: newId('evt'),
    object: 'event',
    api_version: API_VERSION,
    created: nowSeconds(),
    data: {
      object: object as unknown as Stripe.PaymentIntent,
      ...(previousAttributes ? { previous_attributes: previousAttributes } : {}),
    },
    livemode: false,
    pending_webhooks: 0,
    request: { id: request.id, idempotency_key: request.idempotencyKey },
    type,
  } as Stripe.Event;
}
