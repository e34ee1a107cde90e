import { useEffect, useMemo } from 'react';
import { Avatar } from '../components/avatar.tsx';
import { Button } from '../components/button.tsx';
import { EmptyState } from '../components/states.tsx';
import { hasAtLeast, type DeskRole } from '../../domain/roles.ts';
import { DeskStoreProvider, useDeskSync } from '../../store/index.ts';
import {
  handleAuthError,
  recheckMembership,
  signOut,
  type SessionUser,
} from '../features/auth/index.ts';
import { BoardPage } from '../features/board/board-page.tsx';
import { ExportsPage } from '../features/exports/exports-page.tsx';
import { HeaderMetrics } from '../features/header-metrics/header-metrics.tsx';
import { OrderDrawer } from '../features/order-drawer/order-drawer.tsx';
import { OrdersPage } from '../features/orders/orders-page.tsx';
import { ProductsPage } from '../features/products/products-page.tsx';
import { TeamPage } from '../features/team/team-page.tsx';
import { matchPath, paths } from '../lib/paths.ts';
import { Link, useLocation } from '../lib/router.tsx';
import { createAppDeskStore, watchErrors } from './desk-store.ts';
import { watchMembership } from './membership-watch.ts';
import { ErrorBoundary } from './error-boundary.tsx';
import { useMediaQuery } from '../lib/use-media-query.ts';

/** Runs the desk store's sync while the shell is mounted. */
function Sync() {
  useDeskSync();
  return null;
}

function NavLink({ to, current, children }: { to: string; current: boolean; children: string }) {
  return (
    <Link to={to} className="nav__link" aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}

/** The signed-in desk: header (nav, live metrics, connection, user), the page, the drawer. */
export function DeskShell({ user, role }: { user: SessionUser; role: DeskRole }) {
  // One store per signed-in member and role (the shell is keyed by both).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const store = useMemo(() => createAppDeskStore({ id: user.id, name: user.name, role }), []);
  // Any error that says the session has ended sends the person to sign in.
  useEffect(() => watchErrors(store, handleAuthError), [store]);
  useEffect(
    () => watchMembership(store, user.id, role, () => void recheckMembership()),
    [store, user.id, role],
  );
  const figuresRow = useMediaQuery(`(max-width: ${figuresRowBelow(role) - 1}px)`);
  const { pathname, search } = useLocation();
  const drawer = matchPath('/orders/:id', pathname);
  const background = drawer
    ? new URLSearchParams(search).get('view') === 'board'
      ? '/'
      : '/orders'
    : pathname;

  let page;
  if (background === '/') page = <BoardPage />;
  else if (background === '/orders') page = <OrdersPage />;
  else if (background === '/products')
    page = hasAtLeast(role, 'manager') ? <ProductsPage /> : <Forbidden what="the catalog" />;
  else if (background === '/exports')
    page = hasAtLeast(role, 'manager') ? <ExportsPage /> : <Forbidden what="exports" />;
  else if (background === '/team')
    page = hasAtLeast(role, 'owner') ? <TeamPage /> : <Forbidden what="the team" />;
  else
    page = (
      <EmptyState title="Page not found">
        <Link to={paths.board}>Back to the board</Link>
      </EmptyState>
    );

  return (
    <DeskStoreProvider store={store}>
      <Sync />
      <div className="shell">
        <header className={`topbar${figuresRow ? ' topbar--figures-row' : ''}`}>
          <Link to={paths.board} className="topbar__brand" aria-label="Livedesk board">
            <span className="brand-mark" aria-hidden="true" />
            <span className="brand-name">Livedesk</span>
          </Link>
          <nav className="nav" aria-label="Main">
            <NavLink to={paths.board} current={background === '/'}>
              Board
            </NavLink>
            <NavLink to={paths.orders} current={background === '/orders'}>
              Orders
            </NavLink>
            {hasAtLeast(role, 'manager') && (
              <NavLink to={paths.products} current={background === '/products'}>
                Products
              </NavLink>
            )}
            {hasAtLeast(role, 'manager') && (
              <NavLink to={paths.exports} current={background === '/exports'}>
                Exports
              </NavLink>
            )}
            {hasAtLeast(role, 'owner') && (
              <NavLink to={paths.team} current={background === '/team'}>
                Team
              </NavLink>
            )}
          </nav>
          <HeaderMetrics />
          <div className="usermenu">
            <Avatar name={user.name} id={user.id} />
            <div className="usermenu__who">
              <div className="usermenu__name">{user.name}</div>
              <div className="usermenu__role">{role}</div>
            </div>
            <Button variant="ghost" size="sm" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        </header>
        <main className="main">
          <ErrorBoundary resetKey={background}>{page}</ErrorBoundary>
        </main>
        {drawer && (
          <ErrorBoundary resetKey={drawer.id}>
            <OrderDrawer orderId={drawer.id!} />
          </ErrorBoundary>
        )}
      </div>
    </DeskStoreProvider>
  );
}

/**
 * The window width below which the header's figures take a row of their own: the width of the
 * brand, the role's nav, every figure and the user menu in one row (measured in Chromium: a
 * staff member's nav has two pages, a manager's four, an owner's five).
 */
function figuresRowBelow(role: DeskRole): number {
  return hasAtLeast(role, 'owner') ? 1680 : hasAtLeast(role, 'manager') ? 1620 : 1420;
}

function Forbidden({ what }: { what: string }) {
  return (
    <EmptyState title={`You don’t have permission to manage ${what}.`}>
      Ask an owner if you need access. <Link to={paths.board}>Back to the board</Link>
    </EmptyState>
  );
}
