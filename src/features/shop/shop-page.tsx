import { useEffect, useMemo, useRef } from 'react';
import { Button } from '../../components/button.tsx';
import { TextField } from '../../components/field.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/states.tsx';
import type { Product } from '../../../domain/entities.ts';
import { noLongerAvailable } from '../../../domain/cart.ts';
import { LIMITS } from '../../../domain/validation.ts';
import {
  useCartSummary,
  useShop,
  useShopActions,
  type PendingCheckout,
} from '../../../store/index.ts';
import { navigate } from '../../lib/router.tsx';
import { paths } from '../../lib/paths.ts';
import { CartBar } from './cart-bar.tsx';
import { PaymentForm } from './payment-form.tsx';
import { useFocusWithin } from '../../lib/use-focus-within.ts';
import { formatPrice } from '../../lib/format.ts';

/** `/shop`: the catalog, the cart with the customer's name and email, and the card checkout. */
export function ShopPage() {
  const catalog = useShop((s) => s.catalog);
  // The catalog keeps products taken off the menu (a cart may name them): the menu lists the rest.
  const menu = useMemo(() => catalog.products.filter((p) => p.active), [catalog.products]);
  const checkout = useShop((s) => s.checkout);
  const { loadCatalog, followCatalog } = useShopActions();
  const cart = useRef<HTMLElement>(null);

  // The menu stays live: products added, changed or taken off show at once.
  useEffect(() => followCatalog(), [followCatalog]);

  // Paid: on to the order's own page (replacing /shop, so Back does not pay again).
  useEffect(() => {
    if (checkout.status === 'paid' && checkout.paidOrderId)
      navigate(paths.track(checkout.paidOrderId), { replace: true });
  }, [checkout.status, checkout.paidOrderId]);

  return (
    <div className="shop">
      <header className="shop__header">
        <span className="shop__brand">Livedesk</span>
        <span className="muted">Order ahead, pay by card, follow your order live.</span>
      </header>
      <main className="shop__main">
        <section className="shop__catalog" aria-labelledby="catalog-title">
          <h1 id="catalog-title" className="shop__title">
            Menu
          </h1>
          {catalog.status === 'error' ? (
            <ErrorState
              title="The menu didn’t load"
              message={catalog.error?.message ?? ''}
              onRetry={() => void loadCatalog()}
            />
          ) : catalog.status !== 'ready' ? (
            <LoadingState label="Loading the menu…" />
          ) : menu.length === 0 ? (
            <EmptyState title="Nothing on the menu right now" />
          ) : (
            <ul className="shop__grid">
              {menu.map((product) => (
                <ProductCard key={product.id} product={product} />
              ))}
            </ul>
          )}
        </section>
        <aside className="shop__cart" aria-labelledby="cart-title" ref={cart}>
          {checkout.status === 'open' && checkout.pending?.clientSecret ? (
            <Checkout pending={checkout.pending as PendingCheckout & { clientSecret: string }} />
          ) : (
            <Cart />
          )}
        </aside>
      </main>
      <CartBar cart={cart} />
    </div>
  );
}

function ProductCard({ product }: { product: Product }) {
  const qty = useShop((s) => s.cart.lines.find((l) => l.productId === product.id)?.qty ?? 0);
  const problem = useShop((s) => s.fieldErrors[`items.${product.id}`] ?? null);
  const busy = useShop((s) => s.checkout.status !== 'idle');
  const { setQty, productImageUrl } = useShopActions();
  const image = productImageUrl(product, 320);
  // Add becomes the −/+ stepper (and back): the keyboard stays on the card, on + (or Add).
  const body = useRef<HTMLDivElement>(null);
  useFocusWithin(body);
  return (
    <li className="product-card" aria-label={product.name}>
      {image ? (
        <img className="product-card__image" src={image} alt="" width={160} height={160} />
      ) : (
        <span className="product-card__image product-card__image--empty" aria-hidden="true">
          {product.name.slice(0, 1)}
        </span>
      )}
      <div className="product-card__body" ref={body}>
        <h2 className="product-card__name">{product.name}</h2>
        {product.description && <p className="product-card__text">{product.description}</p>}
        <p className="product-card__price">{formatPrice(product.priceCents, product.currency)}</p>
        {qty === 0 ? (
          <Button
            size="sm"
            variant="primary"
            disabled={busy}
            onClick={() => setQty(product.id, 1)}
            aria-label={`Add ${product.name}`}
          >
            Add
          </Button>
        ) : (
          <span className="qty-stepper">
            <Button
              size="sm"
              disabled={busy}
              onClick={() => setQty(product.id, qty - 1)}
              aria-label={`One ${product.name} less`}
            >
              −
            </Button>
            <span aria-live="polite" aria-label={`${qty} ${product.name} in the cart`}>
              {qty}
            </span>
            <Button
              size="sm"
              disabled={busy || qty >= LIMITS.qtyMax}
              onClick={() => setQty(product.id, qty + 1)}
              aria-label={`One ${product.name} more`}
              data-autofocus
            >
              +
            </Button>
          </span>
        )}
        {problem && (
          <p className="field__error" role="alert">
            {problem}
          </p>
        )}
      </div>
    </li>
  );
}

function Cart() {
  const cart = useShop((s) => s.cart);
  const products = useShop((s) => s.catalog.products);
  const fieldErrors = useShop((s) => s.fieldErrors);
  const checkout = useShop((s) => s.checkout);
  const { setCustomer, startCheckout, setQty } = useShopActions();
  const starting = checkout.status === 'starting';

  const lines = useMemo(
    () =>
      cart.lines.map((line) => {
        const product = products.find((p) => p.id === line.productId) ?? null;
        // Taken off the menu while in the cart: said at once, as checkout would say it.
        const gone = product && !product.active ? noLongerAvailable(product.name) : null;
        return { ...line, product, problem: fieldErrors[`items.${line.productId}`] ?? gone };
      }),
    [cart.lines, products, fieldErrors],
  );
  const { totalCents: total, currency, priced } = useCartSummary();

  return (
    <form
      className="cart"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void startCheckout();
      }}
    >
      <h2 id="cart-title" className="shop__title" tabIndex={-1}>
        Your order
      </h2>
      {lines.length === 0 ? (
        <p className="muted">Your cart is empty: add something from the menu.</p>
      ) : (
        <table className="items" aria-label="Cart">
          <tbody>
            {lines.map((line) => (
              <tr key={line.productId}>
                <td className="qty">{line.qty}×</td>
                <td>
                  {line.product?.name ?? (priced ? 'No longer on the menu' : 'Loading…')}
                  {line.problem && (
                    <span className="field__error cart__line-error" role="alert">
                      {line.problem}
                    </span>
                  )}
                </td>
                <td>
                  {line.product?.active
                    ? formatPrice(line.product.priceCents * line.qty, currency)
                    : '—'}
                </td>
                <td>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={starting}
                    onClick={() => setQty(line.productId, 0)}
                    aria-label={`Remove ${line.product?.name ?? 'this item'}`}
                  >
                    ×
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td />
              <td>Total</td>
              <td data-testid="cart-total">{priced ? formatPrice(total, currency) : '—'}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      )}
      {fieldErrors.items && (
        <p className="field__error" role="alert">
          {fieldErrors.items}
        </p>
      )}
      <TextField
        label="Your name"
        autoComplete="name"
        value={cart.customerName}
        maxLength={LIMITS.nameMax + 20}
        error={fieldErrors.customerName}
        disabled={starting}
        onChange={(event) => setCustomer({ customerName: event.target.value })}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={cart.customerEmail}
        error={fieldErrors.customerEmail}
        hint="For your receipt; we follow your order in this browser."
        disabled={starting}
        onChange={(event) => setCustomer({ customerEmail: event.target.value })}
      />
      {(checkout.error || fieldErrors.form) && (
        <div className="alert alert--error" role="alert" data-testid="checkout-error">
          {checkout.error?.message ?? fieldErrors.form}
        </div>
      )}
      <Button type="submit" variant="primary" busy={starting} disabled={lines.length === 0}>
        Check out
      </Button>
    </form>
  );
}

function Checkout({ pending }: { pending: PendingCheckout & { clientSecret: string } }) {
  const { closeCheckout, paymentSucceeded } = useShopActions();
  return (
    <div className="checkout">
      <h2 id="cart-title" className="shop__title" tabIndex={-1}>
        Pay by card
      </h2>
      <PaymentForm key={pending.clientSecret} pending={pending} onPaid={paymentSucceeded} />
      <Button variant="ghost" size="sm" onClick={closeCheckout}>
        Back to the cart
      </Button>
    </div>
  );
}
