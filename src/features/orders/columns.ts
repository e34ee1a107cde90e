import type { SortKey } from './table-query.ts';

/** A table column: its sort key, header label and alignment. */
export interface Column {
  key: SortKey;
  label: string;
  right?: boolean;
  /**
   * The class of its header and cells, for the columns a narrow table leaves out (styles.css,
   * container queries on `.table`): Email below 1106 px of table, Created too below 956 px.
   */
  className?: string;
}

/** The orders table's columns, in order (widths in styles.css `.trow`). */
export const COLUMNS: readonly Column[] = [
  { key: 'number', label: 'Order' },
  { key: 'createdAt', label: 'Created', className: 'col--created' },
  { key: 'status', label: 'Status' },
  { key: 'customerName', label: 'Customer' },
  { key: 'customerEmail', label: 'Email', className: 'col--email' },
  { key: 'items', label: 'Items' },
  { key: 'totalCents', label: 'Total', right: true },
  { key: 'assigneeName', label: 'Assignee' },
  { key: 'updatedAt', label: 'Updated', right: true },
];
