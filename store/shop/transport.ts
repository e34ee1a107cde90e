import type { Product } from '../../domain/entities.ts';
import type { CheckoutRequest } from '../../domain/cart.ts';
import type { Order } from '../../domain/order.ts';

/** What `checkout` answers (functions/README.md, "checkout wire contract"). */
export interface CheckoutAnswer {
  orderId: string;
  number: number;
  clientSecret: string;
  amountCents: number;
  currency: string;
  /** The order's status: `pending_payment` for a new one; a resumed one may be further along. */
  status: string;
}

/**
 * Where the shop's reads and writes go (store/appwrite/shop-transport.ts on the SDK): the
 * customer's session, the catalog, the `checkout` function, and their own order, live. Rejects
 * with an `AppError` (docs/product.md §8).
 */
export interface ShopTransport {
  /** A new unique id (the order id a checkout is made with). */
  newId(): string;
  /** The signed-in user's id, or an anonymous session's, made when there is none. */
  ensureSession(): Promise<string>;
  /** The active products, in the catalog's order. */
  listProducts(): Promise<Product[]>;
  /** A preview URL of a product image (empty when there is none). */
  productImageUrl(fileId: string, size: number): string;
  /** Runs `checkout`. */
  checkout(request: CheckoutRequest & { orderId: string }): Promise<CheckoutAnswer>;
  /** Reads one order the session may read (404 → `NOT_FOUND`). */
  readOrder(orderId: string): Promise<Order>;
  /**
   * Follows one order's changes on realtime; resolves, with the end of it, once the subscription
   * is made (a read after that misses no change).
   */
  followOrder(orderId: string, onOrder: (order: Order) => void): Promise<() => void>;
  /**
   * Follows the catalog's changes on realtime (every product: added, changed, taken off the
   * menu); resolves, with the end of it, once the subscription is made.
   */
  followProducts(onProduct: (product: Product) => void): Promise<() => void>;
}

/** Where a pending checkout is kept across reloads (sessionStorage in the browser). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
