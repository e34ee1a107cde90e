export { ShopPage } from './shop-page.tsx';
export { TrackPage } from './track-page.tsx';
