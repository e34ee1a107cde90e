import { Databases, ID, Query, type Client } from 'node-appwrite';
import Stripe from 'stripe';
import { checkCheckout, type PricedCart } from '../../../domain/cart.ts';
import { productFromDocument, type Product } from '../../../domain/entities.ts';
import { AppError } from '../../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import { itemsSummary, type OrderDocument, type OrderDocumentData } from '../../../domain/order.ts';
import { LIMITS } from '../../../domain/validation.ts';
import {
  answerFailure,
  callerId,
  findDocument,
  functionClient,
  isAppwriteError,
} from '../../_shared/appwrite.ts';
import { nextOrderNumber } from '../../_shared/order-numbers.ts';
import { commitNewOrder } from '../../_shared/order-writes.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';
import { stripeAccess } from '../../_shared/stripe.ts';

const ID_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;
/** Attempts at an order number when others take the ones given out. */
const NUMBER_ATTEMPTS = 5;

/** A checkout request: the cart and the customer, and the order id the shop chose, if any. */
export interface CheckoutBody {
  orderId: string | null;
  body: Record<string, unknown>;
}

/** What `checkout` answers (200). */
export interface CheckoutAnswer {
  orderId: string;
  number: number;
  clientSecret: string;
  amountCents: number;
  currency: string;
  /** `pending_payment` for a new order; a resumed one may be further along. */
  status: OrderDocument['status'];
}

/** Parses the body (a JSON object) and the optional `orderId`. */
export function parseCheckoutBody(bodyText: string): CheckoutBody {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new AppError('VALIDATION', 'The request body must be JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('VALIDATION', 'The request body must be a JSON object.');
  const { orderId } = body as Record<string, unknown>;
  if (orderId !== undefined && (typeof orderId !== 'string' || !ID_PATTERN.test(orderId)))
    throw new AppError(
      'VALIDATION',
      'orderId must be 1–36 letters, digits, ".", "_" or "-", not starting with a symbol.',
      { field: 'orderId' },
    );
  return { orderId: orderId ?? null, body: body as Record<string, unknown> };
}

/** The product ids a cart names (at most one more than a cart may hold, to be refused). */
export function cartProductIds(body: Record<string, unknown>): string[] {
  const items = Array.isArray(body.items) ? (body.items as unknown[]) : [];
  const ids = new Set<string>();
  for (const item of items.slice(0, LIMITS.cartLinesMax + 1)) {
    const id = (item as { productId?: unknown } | null)?.productId;
    if (typeof id === 'string' && ID_PATTERN.test(id)) ids.add(id);
  }
  return [...ids];
}

async function loadCatalog(client: Client, ids: string[]): Promise<Product[]> {
  if (ids.length === 0) return [];
  const { documents } = await new Databases(client).listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.products,
    queries: [Query.equal('$id', ids), Query.limit(ids.length)],
  });
  return documents.map((doc) =>
    productFromDocument(doc as unknown as Parameters<typeof productFromDocument>[0]),
  );
}

function findOrder(client: Client, orderId: string): Promise<OrderDocument | null> {
  return findDocument<OrderDocument>(client, COLLECTIONS.orders, orderId);
}

/** The document of a new `pending_payment` order. */
export function newOrderData(input: {
  number: number;
  cart: PricedCart;
  customerName: string;
  customerEmail: string;
  customerId: string;
  paymentIntentId: string;
}): OrderDocumentData {
  return {
    number: input.number,
    status: 'pending_payment',
    customerName: input.customerName,
    customerEmail: input.customerEmail,
    customerId: input.customerId,
    items: JSON.stringify(input.cart.items),
    itemsSummary: itemsSummary(input.cart.items),
    subtotalCents: input.cart.subtotalCents,
    totalCents: input.cart.totalCents,
    currency: input.cart.currency,
    paymentIntentId: input.paymentIntentId,
    paymentStatus: 'requires_payment_method',
    cardBrand: null,
    cardLast4: null,
    failureCode: null,
    refundedCents: 0,
    assigneeId: null,
    assigneeName: null,
    paidAt: null,
    startedAt: null,
    readyAt: null,
    fulfilledAt: null,
    canceledAt: null,
    noteCount: 0,
    attachmentCount: 0,
    rev: 0,
    updatedById: input.customerId,
    updatedByName: input.customerName,
  };
}

/**
 * The answer for an order that exists already (a double click, a reload, a retry after a
 * decline): only its own customer may resume it, and not once it is canceled; the cart of the
 * request does not change it.
 */
async function resume(
  ctx: FunctionContext,
  order: OrderDocument,
  userId: string,
): Promise<FunctionOutput> {
  if (order.customerId !== userId)
    throw new AppError('FORBIDDEN', 'This checkout belongs to another customer.');
  if (order.status === 'canceled')
    throw new AppError('INVALID_TRANSITION', 'This order was canceled.', { status: 'canceled' });
  if (!order.paymentIntentId) throw new Error(`order ${order.$id} has no PaymentIntent`);
  const intent = await stripeAccess().stripe.paymentIntents.retrieve(order.paymentIntentId);
  return ctx.res.json(answer(order, intent.client_secret ?? ''));
}

function answer(order: OrderDocument, clientSecret: string): CheckoutAnswer {
  return {
    orderId: order.$id,
    number: order.number,
    clientSecret,
    amountCents: order.totalCents,
    currency: order.currency,
    status: order.status,
  };
}

/**
 * `checkout` (a customer's synchronous execution, `execute: users`; the shop signs customers in
 * with an anonymous session): prices the cart from the catalog (`checkCheckout`: never the
 * client's prices; `CART_INVALID` with a message per field), creates the PaymentIntent with the
 * order id as its idempotency key and in its metadata, then the `pending_payment` order, readable
 * by the desk team and by this customer alone, with its `created` activity record. Answers
 * `{orderId, number, clientSecret, amountCents, currency, status}`. The shop sends the order id
 * it keeps for the checkout (`orderId`), so that a double click or a reload resumes the same order
 * and PaymentIntent instead of making a second one (even if the catalog changed since).
 */
export default async function checkout(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const userId = callerId(ctx.req, 'Open the shop again to check out.');
    const { orderId: requestedId, body } = parseCheckoutBody(ctx.req.bodyText);
    const client = functionClient(ctx.req);
    // A checkout already made is resumed as it is, even if the catalog changed since.
    const existing = requestedId ? await findOrder(client, requestedId) : null;
    if (existing) return await resume(ctx, existing, userId);
    const catalog = await loadCatalog(client, cartProductIds(body));
    const checked = checkCheckout(body, catalog);
    if (checked instanceof AppError) throw checked;
    const orderId = requestedId ?? ID.unique();

    const { cart, customerName, customerEmail } = checked;
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripeAccess().stripe.paymentIntents.create(
        {
          amount: cart.totalCents,
          currency: cart.currency,
          metadata: { orderId },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: orderId },
      );
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeIdempotencyError)) throw error;
      // The same order id at the same moment with another cart (two tabs): one of them wins.
      const same = await findOrder(client, orderId);
      if (same) return await resume(ctx, same, userId);
      throw new AppError(
        'VALIDATION',
        'This checkout was started with another cart a moment ago. Start it again.',
        { field: 'orderId' },
      );
    }
    let number = await nextOrderNumber(client);
    for (let attempt = 1; ; attempt++) {
      try {
        const now = Date.now();
        const { order } = await commitNewOrder(
          client,
          {
            orderId,
            data: newOrderData({
              number,
              cart,
              customerName,
              customerEmail,
              customerId: userId,
              paymentIntentId: intent.id,
            }),
            permissions: [`read("user:${userId}")`],
          },
          {
            kind: 'created',
            data: { number, totalCents: cart.totalCents, currency: cart.currency },
          },
          { id: userId, name: customerName },
          now,
        );
        ctx.log(`order ${orderId} #${number} ${cart.totalCents} ${cart.currency} → ${intent.id}`);
        return ctx.res.json(answer(order, intent.client_secret ?? ''));
      } catch (error) {
        if (!isAppwriteError(error, 409)) throw error;
        // The same checkout a moment ago (a double click), or a number someone else took.
        const same = await findOrder(client, orderId);
        if (same) return await resume(ctx, same, userId);
        if (attempt === NUMBER_ATTEMPTS)
          throw new Error(`no free order number after ${attempt} attempts`, { cause: error });
        number = await nextOrderNumber(client, number);
      }
    }
  } catch (error) {
    return answerFailure(ctx, error);
  }
}
