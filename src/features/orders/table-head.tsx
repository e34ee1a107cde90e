import { COLUMNS } from './columns.ts';
import { toggleSort, type TableQuery } from './table-query.ts';

/** The orders table's header row: a sort button per column, the sorted one marked. */
export function TableHead({
  query,
  onQuery,
}: {
  query: TableQuery;
  onQuery: (next: TableQuery) => void;
}) {
  return (
    <div className="table__head" role="row" aria-rowindex={1}>
      {COLUMNS.map((column) => {
        const sorted = query.sort === column.key;
        return (
          <div
            key={column.key}
            className={`th${column.right ? ' th--right' : ''}${column.className ? ` ${column.className}` : ''}`}
            role="columnheader"
            aria-sort={sorted ? (query.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
          >
            <button type="button" onClick={() => onQuery(toggleSort(query, column.key))}>
              {column.label}
              <span className="th__arrow" aria-hidden="true">
                {sorted ? (query.dir === 'asc' ? '▲' : '▼') : ''}
              </span>
            </button>
          </div>
        );
      })}
    </div>
  );
}
