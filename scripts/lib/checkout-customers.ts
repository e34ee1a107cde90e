import { performance } from 'node:perf_hooks';
import { Account, Client, Databases, Functions, ID, Query } from 'node-appwrite';
import { MIN_TOTAL_CENTS, type CartLine } from '../../domain/cart.ts';
import { productFromDocument, type Product } from '../../domain/entities.ts';
import { appErrorFromBody, AppError } from '../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { stripeBrowserSettings } from '../../domain/stripe-config.ts';
import { FIRST_NAMES, LAST_NAMES } from './demo-data.ts';
import type { Random } from './random.ts';

/** Where the customers' scripts reach Appwrite (an API key, to open anonymous sessions). */
export interface ShopConnection {
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/** What `checkout` answers. */
export interface CheckoutAnswer {
  orderId: string;
  number: number;
  clientSecret: string;
  amountCents: number;
  currency: string;
  status: OrderDocument['status'];
}

/** One customer: an anonymous session (its secret) and a client carrying it. */
export interface Customer {
  userId: string;
  secret: string;
  client: Client;
}

/** A PaymentIntent as Stripe answers a confirmation (the fields the customers read). */
interface ConfirmedIntent {
  id: string;
  status: string;
  last_payment_error?: { code?: string; decline_code?: string; message?: string } | null;
}

/** The outcome of a confirmation: the intent, or Stripe's card error. */
export type Confirmation =
  | { ok: true; intent: ConfirmedIntent }
  | { ok: false; code: string; declineCode: string | null; message: string };

/** A customer's order, placed and paid, with how long each step took (ms). */
export interface PaidCheckout {
  customer: Customer;
  answer: CheckoutAnswer;
  /** The checkout function's round trip (request → answer). */
  checkoutMs: number;
  /** The confirmation's round trip at Stripe. */
  confirmMs: number;
  /** When the payment was confirmed (`performance.now()`). */
  confirmedAt: number;
  /** Declined attempts before the good card. */
  declines: number;
}

/** Test cards as Stripe's `pm_card_…` PaymentMethods (docs/stripe-doubles.md). */
export const TEST_CARDS = {
  visa: 'pm_card_visa',
  declined: 'pm_card_visa_chargeDeclined',
  insufficientFunds: 'pm_card_visa_chargeDeclinedInsufficientFunds',
} as const;

/**
 * Customers of the shop, scripted: each opens an anonymous session, checks out a cart through the
 * `checkout` function, and confirms the PaymentIntent the way Stripe.js does in the browser
 * (`POST /v1/payment_intents/:id/confirm` with the publishable key and the client secret) — at
 * the local Stripe double in local mode, at Stripe with `VITE_STRIPE_PUBLISHABLE_KEY`. Orders then
 * become paid when the webhook lands, exactly as for a person at `/shop`.
 */
export class CheckoutCustomers {
  private readonly connection: ShopConnection;
  private readonly admin: Client;
  private readonly publishableKey: string;
  /** The base of Stripe's API as the browser reaches it (`…/v1/…` below it). */
  private readonly stripeBase: string;
  private catalog: Product[] = [];

  constructor(
    connection: ShopConnection,
    env: Readonly<Record<string, string | undefined>> = process.env,
  ) {
    this.connection = connection;
    this.admin = new Client()
      .setEndpoint(connection.endpoint)
      .setProject(connection.projectId)
      .setKey(connection.apiKey);
    const browser = stripeBrowserSettings({
      VITE_STRIPE_PUBLISHABLE_KEY: env.VITE_STRIPE_PUBLISHABLE_KEY,
      VITE_APPWRITE_ENDPOINT: connection.endpoint,
    });
    this.publishableKey = browser.publishableKey;
    this.stripeBase = browser.doubleScriptUrl
      ? browser.doubleScriptUrl.replace(/\/stripe\.js$/, '')
      : 'https://api.stripe.com';
  }

  /** Reads the active catalog (what `/shop` shows). */
  async prepare(): Promise<Product[]> {
    const { documents } = await new Databases(this.admin).listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.products,
      queries: [Query.equal('active', [true]), Query.orderAsc('sortOrder'), Query.limit(100)],
    });
    this.catalog = documents.map((doc) =>
      productFromDocument(doc as unknown as Parameters<typeof productFromDocument>[0]),
    );
    if (this.catalog.length === 0)
      throw new Error('the catalog has no active product to sell (npm run seed adds some)');
    return this.catalog;
  }

  /** A new customer with an anonymous session. */
  async arrive(): Promise<Customer> {
    const session = await new Account(this.admin).createAnonymousSession();
    const client = new Client()
      .setEndpoint(this.connection.endpoint)
      .setProject(this.connection.projectId)
      .setSession(session.secret);
    return { userId: session.userId, secret: session.secret, client };
  }

  /** A cart of 1–4 catalog products, 1–3 of each, with the prices the shop shows. */
  cart(random: Random): CartLine[] {
    // Products priced at least the smallest total, so that every cart can be paid by card (a
    // shared backend's catalog may hold a test's 1-cent product).
    const payable = this.catalog.filter((product) => product.priceCents >= MIN_TOTAL_CENTS);
    const catalog = payable.length > 0 ? payable : this.catalog;
    const lines = random.int(1, Math.min(4, catalog.length));
    const picked = new Set<Product>();
    while (picked.size < lines) picked.add(random.pick(catalog));
    return [...picked].map((product) => ({
      productId: product.id,
      qty: random.int(1, 3),
      unitPriceCents: product.priceCents,
    }));
  }

  /** Calls `checkout` as `customer`; a refusal throws its {@link AppError}. */
  async checkout(customer: Customer, body: Record<string, unknown>): Promise<CheckoutAnswer> {
    const execution = await new Functions(customer.client).createExecution({
      functionId: FUNCTIONS.checkout,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    const parsed: unknown = execution.responseBody ? JSON.parse(execution.responseBody) : {};
    if (execution.responseStatusCode !== 200)
      throw (
        appErrorFromBody(parsed) ??
        new AppError(
          'SERVER_ERROR',
          `checkout answered ${execution.responseStatusCode} (execution ${execution.$id})`,
        )
      );
    return parsed as CheckoutAnswer;
  }

  /** Confirms a PaymentIntent with a test card, as Stripe.js does in the browser. */
  async confirm(clientSecret: string, paymentMethod: string): Promise<Confirmation> {
    const intentId = clientSecret.split('_secret_')[0]!;
    const response = await fetch(`${this.stripeBase}/v1/payment_intents/${intentId}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        key: this.publishableKey,
        client_secret: clientSecret,
        payment_method: paymentMethod,
        // Stripe asks for one when the PaymentIntent accepts redirect-based methods too.
        return_url: 'https://livedesk.example/track',
      }),
    });
    const body = (await response.json()) as ConfirmedIntent & {
      error?: { code?: string; decline_code?: string; message?: string };
    };
    if (response.ok) return { ok: true, intent: body };
    if (!body.error) throw new Error(`Stripe answered ${response.status} without an error`);
    return {
      ok: false,
      code: body.error.code ?? 'unknown',
      declineCode: body.error.decline_code ?? null,
      message: body.error.message ?? '',
    };
  }

  /**
   * One whole customer: arrives, checks out a random cart (with the order id kept for the
   * checkout, as the shop does), and pays — after `declines` declined cards when asked to, then
   * with 4242. Resolves once Stripe has taken the payment; the webhook then marks the order paid.
   */
  async placeAndPay(random: Random, declines = 0): Promise<PaidCheckout> {
    const customer = await this.arrive();
    const body = {
      orderId: ID.unique(),
      items: this.cart(random),
      ...customerNamed(random),
    };
    let started = performance.now();
    const answer = await this.checkout(customer, body);
    const checkoutMs = performance.now() - started;
    for (let i = 0; i < declines; i++) {
      const declined = await this.confirm(answer.clientSecret, TEST_CARDS.declined);
      if (declined.ok) throw new Error(`a declined card paid order ${answer.orderId}`);
    }
    started = performance.now();
    const paid = await this.confirm(answer.clientSecret, TEST_CARDS.visa);
    const confirmedAt = performance.now();
    if (!paid.ok || paid.intent.status !== 'succeeded')
      throw new Error(`payment of order ${answer.orderId} failed: ${JSON.stringify(paid)}`);
    return {
      customer,
      answer,
      checkoutMs,
      confirmMs: confirmedAt - started,
      confirmedAt,
      declines,
    };
  }

  /** Reads the order as its customer, until `done` holds (bounded by `timeoutMs`). */
  async waitForOrder(
    customer: Customer,
    orderId: string,
    done: (order: OrderDocument) => boolean,
    timeoutMs = 30_000,
  ): Promise<OrderDocument> {
    const databases = new Databases(customer.client);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const order = (await databases.getDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId: orderId,
      })) as unknown as OrderDocument;
      if (done(order)) return order;
      if (Date.now() > deadline)
        throw new Error(`order ${orderId} still ${order.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

/** A customer's name and email as the demo data has them (`Ana Silva`, `ana.silva42@example.test`). */
function customerNamed(random: Random): { customerName: string; customerEmail: string } {
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  return {
    customerName: `${first} ${last}`,
    customerEmail: `${first}.${last}${random.int(1, 999)}@example.test`.toLowerCase(),
  };
}
