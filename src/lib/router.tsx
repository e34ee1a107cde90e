import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { LocationStore } from './location-store.ts';

/** The longest the browser's history lags the app's address on a page that is never idle (ms). */
const HISTORY_WRITE_WITHIN_MS = 1000;

/** How long the address stays unchanged before a sort, filter or search is written (ms). */
const ADDRESS_STILL_MS = 400;

/**
 * A small history router: the URL is the state; `navigate()` pushes or replaces it and every
 * `useLocation()` re-renders. The browser's history is written once the page is idle after the
 * navigation, a sort, filter or search once its address has been still for a moment
 * ({@link LocationStore}). Route matching is {@link matchPath} in paths.ts.
 */
const appLocation =
  typeof window === 'undefined'
    ? null
    : new LocationStore({
        read: () => window.location.pathname + window.location.search,
        write: ({ to, replace, from }) =>
          replace
            ? window.history.replaceState(window.history.state, '', to)
            : window.history.pushState({ from }, '', to),
        later: (run, wait) => {
          const whenIdle = () => {
            // No frames in a hidden page: written in a task then.
            if (document.visibilityState === 'hidden') setTimeout(run, 0);
            else if (typeof requestIdleCallback !== 'function')
              requestAnimationFrame(() => setTimeout(run, 0));
            else requestIdleCallback(run, { timeout: HISTORY_WRITE_WITHIN_MS });
          };
          if (wait === 'still') setTimeout(whenIdle, ADDRESS_STILL_MS);
          else whenIdle();
        },
        pushedFrom: () => {
          const state: unknown = window.history.state;
          const from = (state as { from?: unknown } | null)?.from;
          return typeof from === 'string' ? from : null;
        },
        back: () => window.history.back(),
      });

if (appLocation) {
  window.addEventListener('popstate', () => appLocation.moved());
  window.addEventListener('pagehide', () => appLocation.flush());
}

const noSubscription = () => () => {};

/** Goes to `to` (a path with an optional query), adding a history entry unless `replace`. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  appLocation?.navigate(to, options.replace ?? false);
}

/**
 * Leaves the current address: back to the one it was opened from, or to `fallback` in its place
 * (see {@link LocationStore.back}).
 */
export function navigateBack(fallback: string): void {
  appLocation?.back(fallback);
}

const currentHref = () => appLocation?.current() ?? '/';

/** The current path and query, as `/orders?status=paid`. */
export function useHref(): string {
  return useSyncExternalStore(appLocation?.subscribe ?? noSubscription, currentHref, () => '/');
}

function splitHref(href: string): { pathname: string; search: string } {
  const at = href.indexOf('?');
  return at < 0
    ? { pathname: href, search: '' }
    : { pathname: href.slice(0, at), search: href.slice(at) };
}

/** The current `pathname` and `search` (re-renders on navigation). */
export function useLocation(): { pathname: string; search: string } {
  return splitHref(useHref());
}

/**
 * The current query (`?status=paid`, or ''): re-renders only when it changes, not when only the
 * path does (an order's drawer opened over the same table).
 */
export function useSearch(): string {
  return useSyncExternalStore(
    appLocation?.subscribe ?? noSubscription,
    () => splitHref(currentHref()).search,
    () => '',
  );
}

/** The current path without its query, as it is when called (for event handlers). */
export function currentPathname(): string {
  return splitHref(currentHref()).pathname;
}

/** An `<a>` that navigates in-app on a plain left click. */
export function Link({
  to,
  replace,
  onClick,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; replace?: boolean }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return <a href={to} onClick={handle} {...rest} />;
}
