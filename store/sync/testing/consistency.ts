import type { DeskState } from '../../state.ts';
import { MetricsAccumulator } from '../../views/metrics.ts';
import { viewDefOf } from '../../views/order-derived.ts';
import {
  BOARD_COLUMNS,
  boardDefs,
  buildOrderIndex,
  type OrderSortKey,
} from '../../views/order-views.ts';
import { buildSortColumn, catchUpSortColumn, misplacedSlot } from '../../views/sort-columns.ts';

/**
 * How the store's maintained views differ from a rebuild from its shown orders (empty: none):
 * the board's columns, every table view, every sort column and the metrics at `now`, each with one sort or one
 * count over every order. Incremental upkeep must never drift from these.
 */
export function viewProblems(state: DeskState, now: number): string[] {
  const problems: string[] = [];
  const orders = state.shownOrders;
  const defs = boardDefs(state.board.dayStart);
  for (const column of BOARD_COLUMNS) {
    const rebuilt = buildOrderIndex(defs[column], orders).toArray();
    if (JSON.stringify(rebuilt) !== JSON.stringify(state.board.columns[column].toArray()))
      problems.push(`board ${column} differs from a rebuild`);
  }
  for (const view of Object.values(state.orderViews)) {
    const ids = view.index.toArray();
    if (new Set(ids).size !== ids.length) problems.push(`view ${view.key} holds an id twice`);
    const rebuilt = buildOrderIndex(viewDefOf(view.spec), orders).toArray();
    if (JSON.stringify(rebuilt) !== JSON.stringify(ids))
      problems.push(`view ${view.key} differs from a rebuild`);
  }
  for (const [key, column] of Object.entries(state.sortColumns)) {
    const sortKey = key as OrderSortKey;
    const then = buildSortColumn(sortKey, column.at).toArray();
    if (JSON.stringify(then) !== JSON.stringify(column.index.toArray()))
      problems.push(`sort column ${key} differs from a rebuild over its version of the orders`);
    const misplaced = misplacedSlot(column);
    if (misplaced !== null)
      problems.push(`sort column ${key}: the entry of ${misplaced} has not its order's slot`);
    const caught = catchUpSortColumn(column, sortKey, orders);
    if (caught === null) problems.push(`sort column ${key} is of another table of orders`);
    else if (
      JSON.stringify(caught.index.toArray()) !==
      JSON.stringify(buildSortColumn(sortKey, orders).toArray())
    )
      problems.push(`sort column ${key} caught up differs from a rebuild`);
  }
  const metrics = MetricsAccumulator.build(orders.values(), now).snapshot(now);
  if (JSON.stringify(metrics) !== JSON.stringify(state.metricsAcc.snapshot(now)))
    problems.push(
      `metrics differ from a recomputation: ${JSON.stringify(metrics)} vs ${JSON.stringify(state.metricsAcc.snapshot(now))}`,
    );
  return problems;
}
