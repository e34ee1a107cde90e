import { restoreSessionOnce } from '../features/auth/session.ts';
import { config } from '../lib/env.ts';
import { isDeskScreen } from '../lib/paths.ts';
import { lastDeskUser, prefetchDeskSnapshot } from './desk-store.ts';

/**
 * The desk's first reads, started as soon as the session's and the store's modules are
 * evaluated: `main.tsx` imports this module first, so the kept orders' first screen and the
 * session are read while React and the screens are still being evaluated. On the sign-in and
 * shop pages nothing is read; a missing configuration is left for `main.tsx` to show.
 */
function startDeskReads(): void {
  try {
    config();
  } catch {
    return;
  }
  if (!isDeskScreen(location.pathname)) return;
  prefetchDeskSnapshot();
  void restoreSessionOnce(lastDeskUser());
}

startDeskReads();
