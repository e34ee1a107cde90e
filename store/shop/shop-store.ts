import { createStore, type StoreApi } from 'zustand/vanilla';
import { checkCheckout, type CartLine } from '../../domain/cart.ts';
import type { Product } from '../../domain/entities.ts';
import { AppError } from '../../domain/errors.ts';
import { LIMITS } from '../../domain/validation.ts';
import type { Order } from '../../domain/order.ts';
import { toAppError } from '../appwrite/errors.ts';
import { cartKey, loadShop, saveShop, type CartDraft, type PendingCheckout } from './pending.ts';
import type { KeyValueStorage, ShopTransport } from './transport.ts';
import { withProduct } from './catalog.ts';

/** The catalog as the shop shows it. */
export interface ShopCatalog {
  status: 'idle' | 'loading' | 'ready' | 'error';
  products: readonly Product[];
  error: AppError | null;
}

/**
 * Where the checkout is: `idle` (filling the cart), `starting` (`checkout` called; the button
 * is disabled), `open` (the order and its PaymentIntent exist: the card form shows), `paid` (the
 * payment went through: on to the order's page).
 */
export interface ShopCheckout {
  status: 'idle' | 'starting' | 'open' | 'paid';
  pending: PendingCheckout | null;
  /** Why the last checkout failed (not the field messages). */
  error: AppError | null;
  /** The order paid last (for the page to go to). */
  paidOrderId: string | null;
}

/** The order a customer follows on `/track/:orderId`. */
export interface TrackedOrder {
  orderId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'missing' | 'error';
  order: Order | null;
  error: AppError | null;
}

/** The shop's state and actions. */
export interface ShopState {
  catalog: ShopCatalog;
  cart: CartDraft;
  /** Messages by field (`customerName`, `customerEmail`, `items`, `items.<productId>`). */
  fieldErrors: Readonly<Record<string, string>>;
  checkout: ShopCheckout;
  tracked: TrackedOrder;

  loadCatalog(): Promise<void>;
  /**
   * Keeps the catalog live while the shop is open: follows the products' changes, then loads it
   * (a change between the two is not missed); returns the end of it. Without realtime the
   * catalog still loads, as {@link loadCatalog}.
   */
  followCatalog(): () => void;
  /** Sets a line's quantity (0 removes it; capped at 99). */
  setQty(productId: string, qty: number): void;
  setCustomer(patch: Partial<Pick<CartDraft, 'customerName' | 'customerEmail'>>): void;
  /**
   * Checks the cart here, then makes (or resumes) the order and its PaymentIntent with
   * `checkout`. A second call while one runs does nothing; the same cart reuses its order id.
   */
  startCheckout(): Promise<void>;
  /** Back to the cart (the order made stays pending and is resumed if the cart is the same). */
  closeCheckout(): void;
  /** The card payment went through: the cart and the pending checkout are done with. */
  paymentSucceeded(): void;
  /** A preview URL of a product's image ('' without one). */
  productImageUrl(product: Product, size: number): string;
  /** Follows `orderId` live; returns the end of it. */
  trackOrder(orderId: string): () => void;
}

/** The shop store: a zustand store (vanilla API) of {@link ShopState}. */
export type ShopStore = StoreApi<ShopState>;

/** What the shop store is made with. */
export interface ShopStoreOptions {
  transport: ShopTransport;
  /** Where the cart and pending checkout survive a reload (sessionStorage); null: nowhere. */
  storage: KeyValueStorage | null;
}

/** Field messages from a `CART_INVALID` error, the cart's lines named by product id. */
export function fieldMessages(error: AppError, lines: readonly CartLine[]): Record<string, string> {
  const out: Record<string, string> = {};
  const fields = Array.isArray(error.details?.fields)
    ? (error.details.fields as { field: string; message: string }[])
    : [];
  for (const { field, message } of fields) {
    const line = /^items\[(\d+)\]/.exec(field);
    const key = line ? `items.${lines[Number(line[1])]?.productId ?? ''}` : field;
    out[key] ??= message;
  }
  if (fields.length === 0) out.form = error.message;
  return out;
}

/** Creates the shop's store: the catalog, the cart, the checkout, and a followed order. */
export function createShopStore({ transport, storage }: ShopStoreOptions): ShopStore {
  const saved = loadShop(storage);
  return createStore<ShopState>()((set, get) => {
    /** The catalog's latest read (settled once the catalog is `ready` or `error`). */
    let catalogRead: Promise<void> = Promise.resolve();
    const persist = () => saveShop(storage, { cart: get().cart, pending: get().checkout.pending });
    const setPending = (pending: PendingCheckout | null, patch: Partial<ShopCheckout> = {}) => {
      set((s) => ({ checkout: { ...s.checkout, ...patch, pending } }));
      persist();
    };

    return {
      catalog: { status: 'idle', products: [], error: null },
      cart: saved.cart,
      fieldErrors: {},
      checkout: { status: 'idle', pending: saved.pending, error: null, paidOrderId: null },
      tracked: { orderId: null, status: 'idle', order: null, error: null },

      loadCatalog() {
        catalogRead = (async () => {
          set((s) => ({ catalog: { ...s.catalog, status: 'loading', error: null } }));
          try {
            const products = await transport.listProducts();
            set({ catalog: { status: 'ready', products, error: null } });
          } catch (thrown) {
            set((s) => ({ catalog: { ...s.catalog, status: 'error', error: toAppError(thrown) } }));
          }
        })();
        return catalogRead;
      },

      followCatalog() {
        let closed = false;
        let stop: (() => void) | null = null;
        let early: Product[] | null = [];
        const take = (product: Product) => {
          if (closed) return;
          if (early) return void early.push(product);
          set((s) => ({
            catalog: { ...s.catalog, products: withProduct(s.catalog.products, product) },
          }));
        };
        void (async () => {
          try {
            const unfollow = await transport.followProducts(take);
            if (closed) return unfollow();
            stop = unfollow;
          } catch {
            // Live changes are a courtesy: the catalog is read all the same.
          }
          await get().loadCatalog();
          const held = early ?? [];
          early = null;
          for (const product of held) take(product);
        })();
        return () => {
          closed = true;
          stop?.();
        };
      },

      setQty(productId, qty) {
        if (get().checkout.status === 'starting') return;
        const q = Math.max(0, Math.min(LIMITS.qtyMax, Math.floor(qty)));
        const lines = get().cart.lines;
        const at = lines.findIndex((line) => line.productId === productId);
        const next =
          q === 0
            ? lines.filter((line) => line.productId !== productId)
            : at < 0
              ? [...lines, { productId, qty: q }]
              : lines.map((line, i) => (i === at ? { productId, qty: q } : line));
        const { [`items.${productId}`]: _gone, items: _items, ...fieldErrors } = get().fieldErrors;
        set((s) => ({ cart: { ...s.cart, lines: next }, fieldErrors }));
        persist();
      },

      setCustomer(patch) {
        if (get().checkout.status === 'starting') return;
        const fieldErrors = { ...get().fieldErrors };
        for (const key of Object.keys(patch)) delete fieldErrors[key];
        set((s) => ({ cart: { ...s.cart, ...patch }, fieldErrors }));
        persist();
      },

      async startCheckout() {
        if (get().checkout.status === 'starting') return;
        if (get().catalog.status !== 'ready') {
          // Asked before the menu is read (just after a reload): the cart is checked against
          // the menu once it is, never against an empty one; the menu says when it cannot load.
          set((s) => ({ checkout: { ...s.checkout, status: 'starting', error: null } }));
          await (get().catalog.status === 'loading' ? catalogRead : get().loadCatalog());
          set((s) => ({ checkout: { ...s.checkout, status: 'idle' } }));
          if (get().catalog.status !== 'ready') return;
        }
        const s = get();
        const { cart } = s;
        const request = {
          items: cart.lines.map((line) => {
            const product = s.catalog.products.find((p) => p.id === line.productId);
            return product ? { ...line, unitPriceCents: product.priceCents } : line;
          }),
          customerName: cart.customerName,
          customerEmail: cart.customerEmail,
        };
        const checked = checkCheckout(request, s.catalog.products);
        if (checked instanceof AppError) {
          set({ fieldErrors: fieldMessages(checked, cart.lines) });
          return;
        }
        const key = cartKey(cart);
        const reuse = s.checkout.pending?.cartKey === key ? s.checkout.pending : null;
        // The id is kept before the call: a reload in the middle resumes this same order.
        const pending: PendingCheckout = reuse ?? {
          orderId: transport.newId(),
          cartKey: key,
          clientSecret: null,
          number: null,
          amountCents: null,
          currency: null,
        };
        set({ fieldErrors: {} });
        setPending(pending, { status: 'starting', error: null });
        try {
          await transport.ensureSession();
          const answer = await transport.checkout({ orderId: pending.orderId, ...request });
          const done: PendingCheckout = {
            ...pending,
            clientSecret: answer.clientSecret,
            number: answer.number,
            amountCents: answer.amountCents,
            currency: answer.currency,
          };
          if (answer.status === 'pending_payment' || answer.status === 'payment_failed')
            setPending(done, { status: 'open' });
          else {
            // Paid already (a reload after paying): the order's page shows where it is.
            setPending(done, { status: 'idle' });
            get().paymentSucceeded();
          }
        } catch (thrown) {
          const error = toAppError(thrown);
          // A canceled or foreign order cannot be resumed: the next try makes a new one.
          const drop = error.code === 'INVALID_TRANSITION' || error.code === 'FORBIDDEN';
          if (error.code === 'CART_INVALID') set({ fieldErrors: fieldMessages(error, cart.lines) });
          setPending(drop ? null : get().checkout.pending, {
            status: 'idle',
            error: error.code === 'CART_INVALID' ? null : error,
          });
          if (error.code === 'CART_INVALID') void get().loadCatalog();
        }
      },

      closeCheckout() {
        if (get().checkout.status !== 'open') return;
        set((s) => ({ checkout: { ...s.checkout, status: 'idle', error: null } }));
      },

      paymentSucceeded() {
        const orderId = get().checkout.pending?.orderId ?? null;
        set((s) => ({
          cart: { ...s.cart, lines: [] },
          checkout: { status: 'paid', pending: null, error: null, paidOrderId: orderId },
        }));
        persist();
      },

      productImageUrl(product, size) {
        return product.imageFileId ? transport.productImageUrl(product.imageFileId, size) : '';
      },

      trackOrder(orderId) {
        let closed = false;
        let stop: (() => void) | null = null;
        const take = (order: Order) => {
          if (closed) return;
          const held = get().tracked.order;
          if (held && held.id === order.id && held.rev > order.rev) return;
          set({ tracked: { orderId, status: 'ready', order, error: null } });
        };
        set({ tracked: { orderId, status: 'loading', order: null, error: null } });
        void (async () => {
          try {
            await transport.ensureSession();
            if (closed) return;
            // Follow first (the subscription made), then read: a change between the two is not
            // missed.
            const unfollow = await transport.followOrder(orderId, take);
            if (closed) return unfollow();
            stop = unfollow;
            take(await transport.readOrder(orderId));
          } catch (thrown) {
            if (closed) return;
            const error = toAppError(thrown);
            set({
              tracked: {
                orderId,
                status: error.code === 'NOT_FOUND' ? 'missing' : 'error',
                order: null,
                error,
              },
            });
          }
        })();
        return () => {
          closed = true;
          stop?.();
        };
      },
    };
  });
}
