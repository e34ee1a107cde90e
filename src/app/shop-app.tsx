import { useState } from 'react';
import { ShopPage, TrackPage } from '../features/shop/index.ts';
import {
  createAppwriteShopTransport,
  createShopStore,
  ShopStoreProvider,
  type ShopStore,
} from '../../store/index.ts';
import { sdk } from '../lib/appwrite.ts';
import { matchPath } from '../lib/paths.ts';
import { ErrorBoundary } from './error-boundary.tsx';

let store: ShopStore | null = null;

/** The tab's shop store on the app's SDK; the cart and pending checkout live in sessionStorage. */
function shopStore(): ShopStore {
  store ??= createShopStore({
    transport: createAppwriteShopTransport(sdk()),
    storage: typeof sessionStorage === 'undefined' ? null : sessionStorage,
  });
  return store;
}

/** The customers' side: `/shop` and `/track/:orderId`, on an anonymous session. */
export function ShopApp({ pathname }: { pathname: string }) {
  const [shop] = useState(shopStore);
  const track = matchPath('/track/:orderId', pathname);
  return (
    <ErrorBoundary resetKey={pathname}>
      <ShopStoreProvider store={shop}>
        {track ? <TrackPage orderId={track.orderId!} /> : <ShopPage />}
      </ShopStoreProvider>
    </ErrorBoundary>
  );
}
