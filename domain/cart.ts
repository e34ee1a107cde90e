import { AppError } from './errors.ts';
import type { Product } from './entities.ts';
import { formatMoney } from './money.ts';
import type { OrderItem } from './order.ts';
import { LIMITS, validateEmail, validateName, type FieldError } from './validation.ts';

/** The smallest total a card payment can have (Stripe's minimum charge, 0.50 in the currency). */
export const MIN_TOTAL_CENTS = 50;

/** A cart line as the shop sends it; `unitPriceCents` is the price the customer saw, if sent. */
export interface CartLine {
  productId: string;
  qty: number;
  unitPriceCents?: number;
}

/** A checked cart: lines priced from the catalog, totals in integer cents. */
export interface PricedCart {
  items: OrderItem[];
  subtotalCents: number;
  totalCents: number;
  currency: string;
}

/** A cart at a glance, as the shop shows it: how many items, their total and its currency. */
export interface CartSummary {
  itemCount: number;
  totalCents: number;
  currency: string;
}

/** What a cart line says of a product taken off the menu (here and by `checkout`). */
export function noLongerAvailable(name: string): string {
  return `${name} is no longer available.`;
}

/**
 * Counts and totals a cart's lines at the catalog's prices (a line whose product left the
 * catalog or the menu — inactive — counts as an item at no price); the currency of the first
 * product on the menu, else `fallback`.
 */
export function summarizeCart(
  lines: readonly CartLine[],
  catalog: readonly Product[],
  fallback = 'eur',
): CartSummary {
  const byId = new Map(catalog.map((product) => [product.id, product]));
  let itemCount = 0;
  let totalCents = 0;
  let currency: string | null = null;
  for (const line of lines) {
    const product = byId.get(line.productId);
    itemCount += line.qty;
    if (!product?.active) continue;
    totalCents += product.priceCents * line.qty;
    currency ??= product.currency;
  }
  return { itemCount, totalCents, currency: currency ?? fallback };
}

/** What `checkout` receives: the cart and who is paying. */
export interface CheckoutRequest {
  items: CartLine[];
  customerName: string;
  customerEmail: string;
}

function lineField(index: number, name: string): string {
  return `items[${index}].${name}`;
}

/**
 * Checks a cart against the catalog (docs/product.md §4): 1–50 lines, each an active catalog product
 * once, quantities 1–99; prices come from the catalog, never from the client — a line that names
 * a different price is refused (the catalog changed, or the client is lying). Returns the priced
 * cart, or a `CART_INVALID` error whose `details.fields` says what is wrong with which field.
 */
export function priceCart(lines: unknown, catalog: readonly Product[]): PricedCart | AppError {
  const errors: FieldError[] = [];
  if (!Array.isArray(lines) || lines.length === 0) {
    errors.push({ field: 'items', message: 'Add at least one item to the cart.' });
    return cartInvalid(errors);
  }
  if (lines.length > LIMITS.cartLinesMax) {
    errors.push({
      field: 'items',
      message: `A cart holds at most ${LIMITS.cartLinesMax} different items.`,
    });
    return cartInvalid(errors);
  }
  const byId = new Map(catalog.map((product) => [product.id, product]));
  const seen = new Set<string>();
  const items: OrderItem[] = [];
  const currencies = new Set<string>();
  lines.forEach((raw: unknown, index) => {
    const line = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const { productId, qty, unitPriceCents } = line;
    if (typeof productId !== 'string' || productId === '') {
      errors.push({ field: lineField(index, 'productId'), message: 'Choose a product.' });
      return;
    }
    const product = byId.get(productId);
    if (!product) {
      errors.push({
        field: lineField(index, 'productId'),
        message: 'This product is not in the catalog.',
      });
      return;
    }
    if (!product.active) {
      errors.push({
        field: lineField(index, 'productId'),
        message: noLongerAvailable(product.name),
      });
      return;
    }
    if (seen.has(productId)) {
      errors.push({
        field: lineField(index, 'productId'),
        message: `${product.name} is in the cart twice.`,
      });
      return;
    }
    seen.add(productId);
    if (typeof qty !== 'number' || !Number.isInteger(qty) || qty < 1 || qty > LIMITS.qtyMax) {
      errors.push({
        field: lineField(index, 'qty'),
        message: `Choose a quantity from 1 to ${LIMITS.qtyMax}.`,
      });
      return;
    }
    if (unitPriceCents !== undefined && unitPriceCents !== product.priceCents) {
      errors.push({
        field: lineField(index, 'unitPriceCents'),
        message: `The price of ${product.name} is now ${formatMoney(product.priceCents, product.currency)}.`,
      });
      return;
    }
    currencies.add(product.currency);
    items.push({ productId, name: product.name, unitPriceCents: product.priceCents, qty });
  });
  if (errors.length) return cartInvalid(errors);
  if (currencies.size > 1)
    return cartInvalid([
      { field: 'items', message: 'Items in different currencies cannot be paid together.' },
    ]);
  const currency = [...currencies][0]!;
  const subtotalCents = items.reduce((sum, item) => sum + item.unitPriceCents * item.qty, 0);
  if (subtotalCents < MIN_TOTAL_CENTS)
    return cartInvalid([
      {
        field: 'items',
        message: `The total must be at least ${formatMoney(MIN_TOTAL_CENTS, currency)}.`,
      },
    ]);
  return { items, subtotalCents, totalCents: subtotalCents, currency };
}

/**
 * Checks a whole checkout request: the cart ({@link priceCart}) and the customer's name and
 * email. Any problem makes a `CART_INVALID` error listing every field at fault.
 */
export function checkCheckout(
  request: unknown,
  catalog: readonly Product[],
): { cart: PricedCart; customerName: string; customerEmail: string } | AppError {
  const body = (typeof request === 'object' && request !== null ? request : {}) as Record<
    string,
    unknown
  >;
  const fields: FieldError[] = [];
  const name = typeof body.customerName === 'string' ? body.customerName : '';
  const email = typeof body.customerEmail === 'string' ? body.customerEmail : '';
  const nameError = validateName(name, 'customerName');
  const emailError = validateEmail(email, 'customerEmail');
  if (nameError) fields.push(nameError);
  if (emailError) fields.push(emailError);
  const cart = priceCart(body.items, catalog);
  if (cart instanceof AppError) fields.unshift(...(cart.details!.fields as FieldError[]));
  if (fields.length || cart instanceof AppError) return cartInvalid(fields);
  return { cart, customerName: name, customerEmail: email };
}

function cartInvalid(fields: FieldError[]): AppError {
  return new AppError('CART_INVALID', fields[0]!.message, { fields });
}
