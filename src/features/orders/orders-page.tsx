import { memo, useCallback, useMemo } from 'react';
import { ErrorState, LoadingState } from '../../components/states.tsx';
import { formatCount } from '../../lib/format.ts';
import { paths } from '../../lib/paths.ts';
import { currentPathname, navigate, useSearch } from '../../lib/router.tsx';
import {
  DEFAULT_ORDER_VIEW,
  selectActor,
  useConfirmedMembers,
  useDeskStore,
  useFirstScreen,
  useLoadState,
  useMembers,
  useOrderTableRows,
  useOrderViewPending,
  useOrderViewReady,
} from '../../../store/index.ts';
import { FirstScreenTable } from './first-screen-table.tsx';
import { OrdersTable } from './orders-table.tsx';
import {
  formatTableQuery,
  isFiltered,
  viewSpecFor,
  readTableQuery,
  unknownFilterNotice,
  type TableQuery,
} from './table-query.ts';
import { Toolbar } from './toolbar.tsx';

/**
 * `/orders`: every order of the last 30 days, sorted, filtered and searched; state in the URL.
 * Not rendered again when only the path changes (an order's drawer opened or closed over it).
 */
export const OrdersPage = memo(function OrdersPage() {
  const load = useLoadState();
  const me = useDeskStore(selectActor)?.id ?? '';
  const search = useSearch();
  const everyone = useMembers();
  // Until the members are known (the list is empty) every assignee is taken as given.
  const isKnownAssignee = useMemo(() => {
    if (everyone.length === 0) return undefined;
    const ids = new Set(everyone.map((member) => member.userId));
    return (userId: string) => ids.has(userId);
  }, [everyone]);
  const read = useMemo(() => readTableQuery(search, isKnownAssignee), [search, isKnownAssignee]);
  const { unknown } = read;
  // One query object while the query says the same: the members loading or changing must not
  // reset the table (its highlighted row, its scroll) or make its view again.
  const queryText = formatTableQuery(read.query);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const query = useMemo(() => read.query, [queryText]);
  const notice = unknownFilterNotice(unknown);
  const spec = useMemo(() => viewSpecFor(query, me), [query, me]);
  const ids = useOrderTableRows(spec);
  const pending = useOrderViewPending(spec);
  const ready = useOrderViewReady(spec);
  const total = useOrderTableRows(DEFAULT_ORDER_VIEW).size;
  const members = useConfirmedMembers();
  // A returning visit: this view's first screen, shown until every order is restored.
  const firstScreen = useFirstScreen(spec);

  const onQuery = useCallback(
    (next: TableQuery) =>
      navigate(`${currentPathname()}${formatTableQuery(next)}`, { replace: true }),
    [],
  );
  const onOpen = useCallback(
    (id: string) => navigate(`${paths.order(id)}${formatTableQuery(query)}`),
    [query],
  );

  if (load.status === 'error')
    return (
      <ErrorState
        title="Orders didn’t load"
        message={load.error?.message ?? 'Something went wrong.'}
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
        shown={firstScreen?.rows ?? ids.size}
        total={firstScreen?.total ?? total}
        ready={load.status === 'ready' && ready}
      />
      {notice && (
        <p className="notice" role="status" data-testid="unknown-filter-notice">
          {notice}
        </p>
      )}
      {load.status !== 'ready' && firstScreen !== null ? (
        <FirstScreenTable screen={firstScreen} query={query} onQuery={onQuery} onOpen={onOpen} />
      ) : load.status !== 'ready' ? (
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
          pending={pending}
          busy={!ready}
        />
      )}
    </div>
  );
});
