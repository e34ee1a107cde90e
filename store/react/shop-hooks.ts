import {
  createContext,
  createElement,
  useContext,
  useEffect,
  useMemo,
  type ReactNode,
} from 'react';
import { useStore } from 'zustand';
import { summarizeCart, type CartSummary } from '../../domain/cart.ts';
import type { ShopState, ShopStore, TrackedOrder } from '../shop/shop-store.ts';

const ShopStoreContext = createContext<ShopStore | null>(null);

/** Provides the shop store to the hooks below it. */
export function ShopStoreProvider(props: { store: ShopStore; children?: ReactNode }) {
  return createElement(ShopStoreContext.Provider, { value: props.store }, props.children);
}

/** The shop store of the nearest {@link ShopStoreProvider}. */
export function useShopStoreApi(): ShopStore {
  const store = useContext(ShopStoreContext);
  if (!store) throw new Error('useShopStoreApi() outside <ShopStoreProvider>');
  return store;
}

/** A slice of the shop's state; re-renders when it changes. */
export function useShop<T>(selector: (state: ShopState) => T): T {
  return useStore(useShopStoreApi(), selector);
}

/**
 * The cart's item count and total at the menu's prices (the same object while nothing changes);
 * `priced` is false until the menu is read (just after a reload: the total is not known yet).
 */
export function useCartSummary(): CartSummary & { priced: boolean } {
  const lines = useShop((s) => s.cart.lines);
  const products = useShop((s) => s.catalog.products);
  const priced = useShop((s) => s.catalog.status === 'ready');
  return useMemo(() => ({ ...summarizeCart(lines, products), priced }), [lines, products, priced]);
}

/** The shop's actions (stable). */
export function useShopActions(): Pick<
  ShopState,
  | 'loadCatalog'
  | 'followCatalog'
  | 'setQty'
  | 'setCustomer'
  | 'startCheckout'
  | 'closeCheckout'
  | 'paymentSucceeded'
  | 'productImageUrl'
> {
  return useShopStoreApi().getState();
}

/** Follows `orderId` while the component is mounted: the order, live, or why it is not shown. */
export function useTrackedOrder(orderId: string): TrackedOrder {
  const store = useShopStoreApi();
  useEffect(() => store.getState().trackOrder(orderId), [store, orderId]);
  const tracked = useStore(store, (state) => state.tracked);
  return tracked.orderId === orderId
    ? tracked
    : { orderId, status: 'loading', order: null, error: null };
}
