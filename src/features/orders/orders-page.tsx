import { useCallback, useMemo } from 'react';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { formatCount } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { navigate, useLocation } from '../../lib/router.tsx';
import { useMember } from '../auth/use-session.ts';
import { useDesk } from '../desk-data/context.tsx';
import type { OrderViewSpec } from '../desk-data/types.ts';
import { OrdersTable } from './orders-table.tsx';
import {
  formatTableQuery,
  isFiltered,
  viewSpecFor,
  parseTableQuery,
  type TableQuery,
} from './table-query.ts';
import { Toolbar } from './toolbar.tsx';
import { useMembers } from './use-members.ts';

const ALL: OrderViewSpec = { sort: 'createdAt', dir: 'desc' };

/** `/orders`: every order of the last 30 days, sorted, filtered and searched; state in the URL. */
export function OrdersPage() {
  const desk = useDesk();
  const load = desk.useLoadState();
  const { user } = useMember();
  const { pathname, search } = useLocation();
  const query = useMemo(() => parseTableQuery(search), [search]);
  const spec = useMemo(() => viewSpecFor(query, user.id), [query, user.id]);
  const ids = desk.useOrderView(spec);
  const total = desk.useOrderView(ALL).length;
  const members = useMembers();

  const onQuery = useCallback(
    (next: TableQuery) => navigate(`${pathname}${formatTableQuery(next)}`, { replace: true }),
    [pathname],
  );
  const onOpen = useCallback(
    (id: string) => navigate(`${paths.order(id)}${formatTableQuery(query)}`),
    [query],
  );

  if (load.status === 'error')
    return (
      <ErrorState
        title="Orders didn’t load"
        message={load.error.message}
        onRetry={() => location.reload()}
      />
    );
  return (
    <div className="page">
      <div className="page__head">
        <h1 className="page__title">Orders</h1>
        <span className="page__sub">Last 30 days and everything still open</span>
      </div>
      <Toolbar
        query={query}
        onChange={onQuery}
        members={members}
        shown={ids.length}
        total={total}
      />
      {load.status === 'loading' ? (
        <div className="table">
          <LoadingState
            label={load.loaded ? `Loading orders… ${formatCount(load.loaded)}` : 'Loading orders…'}
          />
        </div>
      ) : (
        <OrdersTable
          ids={ids}
          query={query}
          onQuery={onQuery}
          onOpen={onOpen}
          filtered={isFiltered(query)}
        />
      )}
    </div>
  );
}
