import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { LocationStore } from './location-store.ts';

/**
 * A small history router: the URL is the state; `navigate()` pushes or replaces it and every
 * `useLocation()` re-renders. The browser's history is written after the frame that shows the
 * navigation ({@link LocationStore}). Route matching is {@link matchPath} in paths.ts.
 */
const appLocation =
  typeof window === 'undefined'
    ? null
    : new LocationStore({
        read: () => window.location.pathname + window.location.search,
        write: ({ to, replace }) =>
          replace
            ? window.history.replaceState(null, '', to)
            : window.history.pushState(null, '', to),
        afterPaint: (run) => {
          // No frames in a hidden page: written in a task then.
          if (document.visibilityState === 'hidden') setTimeout(run, 0);
          else requestAnimationFrame(() => setTimeout(run, 0));
        },
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

/** The current path and query, as `/orders?status=paid`. */
export function useHref(): string {
  return useSyncExternalStore(
    appLocation?.subscribe ?? noSubscription,
    appLocation?.current ?? (() => '/'),
    () => '/',
  );
}

/** The current `pathname` and `search` (re-renders on navigation). */
export function useLocation(): { pathname: string; search: string } {
  const href = useHref();
  const at = href.indexOf('?');
  return at < 0
    ? { pathname: href, search: '' }
    : { pathname: href.slice(0, at), search: href.slice(at) };
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
