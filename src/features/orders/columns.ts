import type { SortKey } from './table-query.ts';

/** A table column: its sort key, header label and alignment. */
export interface Column {
  key: SortKey;
  label: string;
  right?: boolean;
}

/** The orders table's columns, in order (widths in styles.css `.trow`). */
export const COLUMNS: readonly Column[] = [
  { key: 'number', label: 'Order' },
  { key: 'createdAt', label: 'Created' },
  { key: 'status', label: 'Status' },
  { key: 'customerName', label: 'Customer' },
  { key: 'customerEmail', label: 'Email' },
  { key: 'items', label: 'Items' },
  { key: 'totalCents', label: 'Total', right: true },
  { key: 'assigneeName', label: 'Assignee' },
  { key: 'updatedAt', label: 'Updated', right: true },
];
