import { useEffect } from 'react';
import {
  JoinPage,
  LoginPage,
  NoMembershipPage,
  restoreSession,
  restoreSessionOnce,
  SignupPage,
  useSession,
} from '../features/auth/index.ts';
import { ErrorState, LoadingState } from '../components/states.tsx';
import { isCustomerPath, isPublicPath, paths } from '../lib/paths.ts';
import { navigate, useLocation } from '../lib/router.tsx';
import { DeskShell } from './desk-shell.tsx';
import { ErrorBoundary } from './error-boundary.tsx';
import { ShopApp } from './shop-app.tsx';

/** The app: the customers' shop and order pages, or the desk. */
export function App() {
  const { pathname } = useLocation();
  return isCustomerPath(pathname) ? <ShopApp pathname={pathname} /> : <DeskApp />;
}

/** The desk: restores the session, then shows the sign-in screens or the desk. */
function DeskApp() {
  const session = useSession();
  const { pathname, search } = useLocation();

  useEffect(() => {
    void restoreSessionOnce();
  }, []);

  const isPublic = isPublicPath(pathname);
  const signedOut = session.status === 'signed-out';
  const member = session.status === 'ready';

  // Redirects: signed-out people go to sign in (and come back); signed-in ones leave /login.
  useEffect(() => {
    if (signedOut && !isPublic) navigate(paths.login(pathname + search), { replace: true });
    if (member && (pathname === '/login' || pathname === '/signup')) {
      const back = new URLSearchParams(search).get('redirectTo');
      navigate(back && back.startsWith('/') && !back.startsWith('//') ? back : '/', {
        replace: true,
      });
    }
  }, [signedOut, member, isPublic, pathname, search]);

  let screen;
  if (session.status === 'loading') screen = <LoadingState label="Opening the desk…" />;
  else if (session.status === 'error')
    screen = (
      <ErrorState
        title="Can’t reach the desk"
        message={session.error.message}
        onRetry={() => void restoreSession()}
      />
    );
  else if (pathname === '/join') screen = <JoinPage />;
  else if (session.status === 'signed-out')
    screen = pathname === '/signup' ? <SignupPage /> : <LoginPage notice={session.notice} />;
  else if (isPublic) screen = <LoadingState />;
  else if (session.role === null)
    screen = <NoMembershipPage user={session.user} removed={session.removed ?? false} />;
  else
    screen = (
      // A new role (an owner changed it) opens a new desk: its store works as that role.
      <DeskShell
        key={`${session.user.id}:${session.role}`}
        user={session.user}
        role={session.role}
      />
    );

  return <ErrorBoundary resetKey={session.status}>{screen}</ErrorBoundary>;
}
