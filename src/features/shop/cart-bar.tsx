import { useEffect, useState, type RefObject } from 'react';
import { Button } from '../../components/button.tsx';
import { useCartSummary, useShop } from '../../../store/index.ts';
import { formatPrice } from '../../lib/format.ts';

/** Whether the element is on screen (true until it is measured, and where nothing can tell). */
function useOnScreen(target: RefObject<HTMLElement | null>): boolean {
  const [onScreen, setOnScreen] = useState(true);
  useEffect(() => {
    const element = target.current;
    if (!element || typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver(([entry]) =>
      setOnScreen(entry?.isIntersecting ?? true),
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [target]);
  return onScreen;
}

/**
 * The order at a glance, fixed at the bottom of the screen while the cart is out of sight (on a
 * narrow screen, where the cart comes after the menu; on a wide one it stays beside it): the items
 * and their total, and a button that brings the cart into view.
 */
export function CartBar({ cart }: { cart: RefObject<HTMLElement | null> }) {
  const paying = useShop((s) => s.checkout.status === 'open');
  const summary = useCartSummary();
  const cartOnScreen = useOnScreen(cart);
  if (summary.itemCount === 0 || cartOnScreen) return null;
  const review = () => {
    cart.current?.scrollIntoView({ block: 'start' });
    cart.current?.querySelector<HTMLElement>('#cart-title')?.focus({ preventScroll: true });
  };
  return (
    <div className="cart-bar" role="region" aria-label="Your order at a glance">
      <span className="cart-bar__summary" data-testid="cart-bar-summary">
        {summary.itemCount} {summary.itemCount === 1 ? 'item' : 'items'}
        {summary.priced && ` · ${formatPrice(summary.totalCents, summary.currency)}`}
      </span>
      <Button variant="primary" onClick={review}>
        {paying ? 'Pay' : 'Review order'}
      </Button>
    </div>
  );
}
