/** Path parameters of a matched route, e.g. `{id: 'abc'}` for `/orders/:id`. */
export type RouteParams = Record<string, string>;

/** Matches `pathname` against a pattern like `/orders/:id`; returns its params or null. */
export function matchPath(pattern: string, pathname: string): RouteParams | null {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: RouteParams = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    const value = have[i]!;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) return null;
  }
  return params;
}

/** Where a path should send someone after sign-in: only same-app paths, never `/login` itself. */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return '/';
  if (value.startsWith('/login') || value.startsWith('/signup')) return '/';
  return value;
}

/** The app's routes, with builders for links. */
export const paths = {
  board: '/',
  orders: '/orders',
  order: (id: string) => `/orders/${encodeURIComponent(id)}`,
  products: '/products',
  exports: '/exports',
  team: '/team',
  join: '/join',
  login: (redirectTo?: string) =>
    redirectTo && redirectTo !== '/'
      ? `/login?redirectTo=${encodeURIComponent(redirectTo)}`
      : '/login',
  signup: '/signup',
  shop: '/shop',
  track: (orderId: string) => `/track/${encodeURIComponent(orderId)}`,
} as const;

/** Whether `pathname` is one of the customers' pages (no desk session needed). */
export function isCustomerPath(pathname: string): boolean {
  return pathname === '/shop' || matchPath('/track/:orderId', pathname) !== null;
}

/** Whether `pathname` is a sign-in screen (sign in, sign up, join a desk). */
export function isPublicPath(pathname: string): boolean {
  return pathname === '/login' || pathname === '/signup' || pathname === '/join';
}

/** Whether `pathname` opens a desk screen (not the shop, not sign-in). */
export function isDeskScreen(pathname: string): boolean {
  return !isCustomerPath(pathname) && !isPublicPath(pathname);
}
