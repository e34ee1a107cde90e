import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { LOCAL_KEYS, StripeDouble, type StripeDoubleOptions } from '../../emulator/stripe/index.ts';

/** A Stripe double of the test's own (fresh state in a throwaway folder) and an SDK client for it. */
export interface DoubleUnderTest {
  double: StripeDouble;
  stripe: Stripe;
  dataDir: string;
  /** Calls the double's own test controls (`/_double/…`) with the secret key. */
  control(method: 'GET' | 'POST', path: string, params?: Record<string, string>): Promise<unknown>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The `stripe` Node SDK pointed at `double` with its own host/port/protocol options. */
export function stripeClient(double: StripeDouble, key: string = LOCAL_KEYS.secretKey): Stripe {
  return new Stripe(key, {
    host: '127.0.0.1',
    port: double.port,
    protocol: 'http',
    maxNetworkRetries: 0,
  });
}

/** Starts a Stripe double on a free port with its state in a new folder (or `dataDir`). */
export async function startDouble(
  options: Partial<StripeDoubleOptions> = {},
): Promise<DoubleUnderTest> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'livedesk-stripe-'));
  const double = await StripeDouble.start({ ...options, dataDir, port: 0 });
  return {
    double,
    stripe: stripeClient(double),
    dataDir,
    async control(method, path, params = {}) {
      const body = new URLSearchParams(params).toString();
      const response = await fetch(`${double.url}/_double${path}`, {
        method,
        headers: {
          authorization: `Bearer ${LOCAL_KEYS.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: method === 'POST' ? body : undefined,
      });
      const json: unknown = await response.json();
      if (!response.ok) throw new Error(`${method} /_double${path}: ${JSON.stringify(json)}`);
      return json;
    },
    async [Symbol.asyncDispose]() {
      await double.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A request a {@link WebhookReceiver} got: the raw body exactly as sent, and its headers. */
export interface ReceivedWebhook {
  rawBody: string;
  headers: IncomingHttpHeaders;
  at: number;
}

/**
 * An HTTP endpoint for webhook deliveries that records every request and answers each with the
 * next status of `statuses` (the last one repeats; 200 by default).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly server: Server;
  private statuses: number[];
  private readonly waiters = new Set<() => void>();

  private constructor(statuses: number[]) {
    this.statuses = statuses;
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({
          rawBody: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
          at: Date.now(),
        });
        const status =
          this.statuses.length > 1 ? this.statuses.shift()! : (this.statuses[0] ?? 200);
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
        for (const wake of [...this.waiters]) wake();
      });
    });
  }

  static async start(statuses: number[] = [200]): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(statuses);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhook`;
  }

  /** The event types received so far, in arrival order. */
  types(): string[] {
    return this.received.map((r) => (JSON.parse(r.rawBody) as { type: string }).type);
  }

  /** Waits until `count` requests have arrived (fails after `timeoutMs`, a bound for hangs). */
  waitFor(count: number, timeoutMs = 15_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.received.length < count) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`got ${this.received.length} of ${count} deliveries: ${this.types()}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** For each field of `T`: whether `T` requires it. */
export type KeyTable<T> = { [K in keyof T]-?: object extends Pick<T, K> ? 'optional' : 'required' };

/**
 * Problems of a JSON body against a {@link KeyTable}: fields the type does not have, and
 * required fields missing.
 */
export function shapeProblems(
  body: Record<string, unknown>,
  table: Record<string, string>,
): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(body))
    if (!(key in table)) problems.push(`unexpected field ${key}`);
  for (const [key, kind] of Object.entries(table))
    if (kind === 'required' && !(key in body)) problems.push(`missing field ${key}`);
  return problems;
}
/** Every field of `Stripe.PaymentIntent`, and whether the type requires it. */
export const PAYMENT_INTENT_KEYS = {
  id: 'required',
  object: 'required',
  allowed_payment_method_types: 'required',
  amount: 'required',
  amount_capturable: 'required',
  amount_details: 'optional',
  amount_received: 'required',
  application: 'required',
  application_fee_amount: 'required',
  automatic_payment_methods: 'required',
  canceled_at: 'required',
  cancellation_reason: 'required',
  capture_method: 'required',
  client_secret: 'required',
  confirmation_method: 'required',
  created: 'required',
  currency: 'required',
  customer: 'required',
  customer_account: 'required',
  description: 'required',
  excluded_payment_method_types: 'required',
  hooks: 'optional',
  last_payment_error: 'required',
  latest_charge: 'required',
  livemode: 'required',
  managed_payments: 'required',
  metadata: 'required',
  next_action: 'required',
  on_behalf_of: 'required',
  payment_details: 'optional',
  payment_method: 'required',
  payment_method_configuration_details: 'required',
  payment_method_options: 'required',
  payment_method_types: 'required',
  payment_record: 'required',
  presentment_details: 'optional',
  processing: 'required',
  receipt_email: 'required',
  review: 'required',
  setup_future_usage: 'required',
  shipping: 'required',
  source: 'required',
  statement_descriptor: 'required',
  statement_descriptor_suffix: 'required',
  status: 'required',
  transfer_data: 'optional',
  transfer_group: 'required',
} as const satisfies KeyTable<Stripe.PaymentIntent>;

/** Every field of `Stripe.Charge`, and whether the type requires it. */
export const CHARGE_KEYS = {
  id: 'required',
  object: 'required',
  amount: 'required',
  amount_captured: 'required',
  amount_refunded: 'required',
  application: 'required',
  application_fee: 'required',
  application_fee_amount: 'required',
  authorization_code: 'optional',
  balance_transaction: 'required',
  billing_details: 'required',
  calculated_statement_descriptor: 'required',
  captured: 'required',
  created: 'required',
  currency: 'required',
  customer: 'required',
  description: 'required',
  disputed: 'required',
  failure_balance_transaction: 'required',
  failure_code: 'required',
  failure_message: 'required',
  fraud_details: 'required',
  level3: 'optional',
  livemode: 'required',
  metadata: 'required',
  on_behalf_of: 'required',
  outcome: 'required',
  paid: 'required',
  payment_intent: 'required',
  payment_method: 'required',
  payment_method_details: 'required',
  presentment_details: 'optional',
  radar_options: 'optional',
  receipt_email: 'required',
  receipt_number: 'required',
  receipt_url: 'required',
  refunded: 'required',
  refunds: 'optional',
  review: 'required',
  shipping: 'required',
  source: 'required',
  source_transfer: 'required',
  statement_descriptor: 'required',
  statement_descriptor_suffix: 'required',
  status: 'required',
  transfer: 'optional',
  transfer_data: 'required',
  transfer_group: 'required',
} as const satisfies KeyTable<Stripe.Charge>;

/** Every field of `Stripe.Refund`, and whether the type requires it. */
export const REFUND_KEYS = {
  id: 'required',
  object: 'required',
  amount: 'required',
  balance_transaction: 'required',
  charge: 'required',
  created: 'required',
  currency: 'required',
  customer: 'required',
  customer_account: 'required',
  description: 'optional',
  destination_details: 'optional',
  failure_balance_transaction: 'optional',
  failure_reason: 'optional',
  instructions_email: 'optional',
  metadata: 'required',
  next_action: 'optional',
  payment_intent: 'required',
  payment_method: 'required',
  pending_reason: 'optional',
  presentment_details: 'optional',
  reason: 'required',
  receipt_number: 'required',
  source_transfer_reversal: 'required',
  status: 'required',
  transfer_reversal: 'required',
} as const satisfies KeyTable<Stripe.Refund>;

/** Every field of `Omit<Stripe.PaymentIntentSucceededEvent, 'data'> & { data: unknown }`, and whether the type requires it. */
export const EVENT_KEYS = {
  id: 'required',
  object: 'required',
  account: 'optional',
  api_version: 'required',
  context: 'optional',
  created: 'required',
  data: 'required',
  livemode: 'required',
  pending_webhooks: 'required',
  request: 'required',
  type: 'required',
} as const satisfies KeyTable<Omit<Stripe.PaymentIntentSucceededEvent, 'data'> & { data: unknown }>;
