import type { ExportFilter } from '../../../domain/exports.ts';
import { STATUS_LABELS, type OrderStatus } from '../../../domain/order.ts';
import { formatDay } from '../../lib/format.ts';

/** What the export form holds: statuses (none: all), local days `YYYY-MM-DD` (both included), assignee. */
export interface ExportForm {
  statuses: OrderStatus[];
  from: string;
  to: string;
  /** `any`, `none` or a member's user id. */
  assignee: string;
}

function localDay(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function dayStartMs(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).getTime();
}

/** The form as it opens: every status, the last 30 days up to today, anyone. */
export function defaultExportForm(now: number): ExportForm {
  return {
    statuses: [],
    from: localDay(now - 30 * 24 * 3600_000),
    to: localDay(now),
    assignee: 'any',
  };
}

/**
 * The filter the function gets: local days become instants (from the start of `from` to the end
 * of `to`). Returns the problem to show instead when the range is backwards.
 */
export function exportFilterOf(
  form: ExportForm,
): ExportFilter | { field: string; message: string } {
  if (form.from && form.to && form.from > form.to)
    return { field: 'to', message: 'The end date must be on or after the start date.' };
  const next = (day: string) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    return new Date(y, m - 1, d + 1).getTime();
  };
  return {
    statuses: [...form.statuses],
    createdFrom: form.from ? new Date(dayStartMs(form.from)).toISOString() : null,
    createdBefore: form.to ? new Date(next(form.to)).toISOString() : null,
    assignee: form.assignee,
  };
}

/**
 * One line about a filter, in the desk's words and the locale's days (as the date inputs and the
 * list's Started column show them): `Paid, Ready · 11/01/2026 – 11/30/2026 · Ana Silva` (en-US).
 */
export function describeExportFilter(
  filter: Partial<ExportFilter>,
  nameOf: (userId: string) => string,
  locale?: string,
): string {
  const statuses = filter.statuses?.length
    ? filter.statuses.map((status) => STATUS_LABELS[status] ?? status).join(', ')
    : 'All statuses';
  const day = (iso: string, shift = 0) => formatDay(Date.parse(iso) + shift, locale);
  const from = filter.createdFrom ? day(filter.createdFrom) : null;
  const to = filter.createdBefore ? day(filter.createdBefore, -1) : null;
  const range =
    from && to ? `${from} – ${to}` : from ? `from ${from}` : to ? `to ${to}` : 'any date';
  const assignee =
    !filter.assignee || filter.assignee === 'any'
      ? 'anyone'
      : filter.assignee === 'none'
        ? 'unassigned'
        : nameOf(filter.assignee);
  return `${statuses} · ${range} · ${assignee}`;
}
