import type { CartLine } from '../../domain/cart.ts';
import type { KeyValueStorage } from './transport.ts';

/** The sessionStorage key of the shop's cart and pending checkout. */
export const SHOP_STORAGE_KEY = 'livedesk.shop';

/** The cart as the customer fills it, and who is paying. */
export interface CartDraft {
  /** Product id → quantity, in the order the products were added. */
  lines: readonly CartLine[];
  customerName: string;
  customerEmail: string;
}

/**
 * A checkout made (or being made) for one cart: the order id is chosen before `checkout` is
 * called and kept, so a reload or a second click resumes the same order and PaymentIntent
 * (the function answers the same for the same id) instead of making another.
 */
export interface PendingCheckout {
  orderId: string;
  /** {@link cartKey} of the cart it was made for: another cart needs another order. */
  cartKey: string;
  /** `checkout`'s answer, once it came. */
  clientSecret: string | null;
  number: number | null;
  amountCents: number | null;
  currency: string | null;
}

/** What the shop keeps across reloads of the tab. */
export interface SavedShop {
  cart: CartDraft;
  pending: PendingCheckout | null;
}

/**
 * A canonical text of what a checkout is made of (lines sorted by product, quantities, the
 * name and email as sent, trimmed): equal carts give equal keys.
 */
export function cartKey(cart: CartDraft): string {
  const lines = [...cart.lines]
    .filter((line) => line.qty > 0)
    .map((line) => [line.productId, line.qty] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return JSON.stringify([lines, cart.customerName.trim(), cart.customerEmail.trim()]);
}

const EMPTY: SavedShop = {
  cart: { lines: [], customerName: '', customerEmail: '' },
  pending: null,
};

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/**
 * Reads what {@link saveShop} kept; anything unreadable (another version, edited by hand) is
 * dropped field by field rather than trusted.
 */
export function loadShop(storage: KeyValueStorage | null): SavedShop {
  let raw: unknown;
  try {
    raw = JSON.parse(storage?.getItem(SHOP_STORAGE_KEY) ?? 'null');
  } catch {
    return EMPTY;
  }
  if (typeof raw !== 'object' || raw === null) return EMPTY;
  const saved = raw as Record<string, unknown>;
  const cart = (typeof saved.cart === 'object' && saved.cart !== null ? saved.cart : {}) as Record<
    string,
    unknown
  >;
  const lines = Array.isArray(cart.lines)
    ? cart.lines.flatMap((line: unknown) => {
        const l = (typeof line === 'object' && line !== null ? line : {}) as Record<
          string,
          unknown
        >;
        const productId = str(l.productId);
        const qty = int(l.qty);
        return productId && qty !== null && qty > 0 ? [{ productId, qty }] : [];
      })
    : [];
  const p = (
    typeof saved.pending === 'object' && saved.pending !== null ? saved.pending : null
  ) as Record<string, unknown> | null;
  const orderId = p ? str(p.orderId) : null;
  const key = p ? str(p.cartKey) : null;
  const pending: PendingCheckout | null =
    p && orderId && key
      ? {
          orderId,
          cartKey: key,
          clientSecret: str(p.clientSecret),
          number: int(p.number),
          amountCents: int(p.amountCents),
          currency: str(p.currency),
        }
      : null;
  return {
    cart: {
      lines,
      customerName: str(cart.customerName) ?? '',
      customerEmail: str(cart.customerEmail) ?? '',
    },
    pending,
  };
}

/** Keeps the cart and the pending checkout for the tab's next load. */
export function saveShop(storage: KeyValueStorage | null, saved: SavedShop): void {
  try {
    storage?.setItem(SHOP_STORAGE_KEY, JSON.stringify(saved));
  } catch {
    // Storage full or refused (private mode): the shop works, only without resuming.
  }
}
