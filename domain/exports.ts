import { AppError } from './errors.ts';
import {
  ORDER_STATUSES,
  PAYMENT_STATUS_LABELS,
  STATUS_LABELS,
  itemsSummary,
  type OrderItem,
  type OrderStatus,
} from './order.ts';

/**
 * Which orders a CSV export holds (the `exports` record's `filter`, and the body of the
 * `export-orders` call): statuses (none: every status), a creation time range as instants (the
 * browser turns the person's local days into them), and the assignee.
 */
export interface ExportFilter {
  statuses: OrderStatus[];
  /** ISO instant, included; null: from the first order. */
  createdFrom: string | null;
  /** ISO instant, excluded; null: up to now. */
  createdBefore: string | null;
  /** `any`, `none` (unassigned) or a member's user id. */
  assignee: string;
}

const ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION', message, { field });
}

function instant(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw invalid(field, `${field} must be a date and time (ISO 8601).`);
  return new Date(value).toISOString();
}

/**
 * Reads an export filter from untrusted JSON.
 *
 * @throws AppError `VALIDATION` naming the field.
 */
export function parseExportFilter(value: unknown): ExportFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('filter', 'The filter must be an object.');
  const raw = value as Record<string, unknown>;
  const statuses = raw.statuses ?? [];
  if (
    !Array.isArray(statuses) ||
    statuses.some((s) => !(ORDER_STATUSES as readonly unknown[]).includes(s))
  )
    throw invalid('statuses', `Statuses must be some of: ${ORDER_STATUSES.join(', ')}.`);
  const createdFrom = instant(raw.createdFrom, 'createdFrom');
  const createdBefore = instant(raw.createdBefore, 'createdBefore');
  if (createdFrom && createdBefore && createdFrom >= createdBefore)
    throw invalid('createdBefore', 'The end of the date range must be after its start.');
  const assignee = raw.assignee ?? 'any';
  if (typeof assignee !== 'string' || !(assignee === 'any' || ID.test(assignee)))
    throw invalid('assignee', 'The assignee must be "any", "none" or a member’s id.');
  return {
    statuses: [...new Set(statuses as OrderStatus[])],
    createdFrom,
    createdBefore,
    assignee,
  };
}

/** The order attributes an export reads (`Query.select`). */
export const EXPORT_ORDER_FIELDS = [
  'number',
  'status',
  'customerName',
  'customerEmail',
  'items',
  'subtotalCents',
  'totalCents',
  'refundedCents',
  'currency',
  'paymentStatus',
  'assigneeName',
  'paidAt',
  'readyAt',
  'fulfilledAt',
  'canceledAt',
] as const;

/** An `orders` document as an export reads it: `$id`, `$createdAt` and {@link EXPORT_ORDER_FIELDS}. */
export interface ExportOrderDocument {
  $id: string;
  $createdAt: string;
  number: number;
  status: string;
  customerName: string;
  customerEmail: string;
  items: string;
  subtotalCents: number;
  totalCents: number;
  refundedCents?: number | null;
  currency: string;
  paymentStatus: string;
  assigneeName?: string | null;
  paidAt?: string | null;
  readyAt?: string | null;
  fulfilledAt?: string | null;
  canceledAt?: string | null;
}

/** The CSV's header row. */
export const EXPORT_COLUMNS = [
  'Order',
  'Created',
  'Status',
  'Customer',
  'Email',
  'Items',
  'Subtotal',
  'Total',
  'Refunded',
  'Currency',
  'Payment',
  'Assignee',
  'Paid',
  'Ready',
  'Fulfilled',
  'Canceled',
] as const;

/** Cents as a decimal amount without a symbol: `1005` → `10.05`. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function itemsOf(json: string): string {
  try {
    const items = JSON.parse(json) as OrderItem[];
    return Array.isArray(items) ? itemsSummary(items) : '';
  } catch {
    return '';
  }
}

/**
 * Text typed by a customer or a member, made safe to open in a spreadsheet: a cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return would be run as a formula (CSV injection), so it
 * is given a leading `'`, which spreadsheets show as text.
 */
export function spreadsheetText(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A status in the words the screens use; a value no label knows is written as it is. */
function labelOf(labels: Readonly<Record<string, string>>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value]! : value;
}

/**
 * One CSV row of an order, in the order of {@link EXPORT_COLUMNS} (values unquoted); the status
 * and the payment in the words the desk shows ("Done", "Payment failed", "Paid").
 */
export function exportRow(doc: ExportOrderDocument): string[] {
  return [
    String(doc.number),
    doc.$createdAt,
    labelOf(STATUS_LABELS, doc.status),
    spreadsheetText(doc.customerName),
    spreadsheetText(doc.customerEmail),
    spreadsheetText(itemsOf(doc.items)),
    centsToDecimal(doc.subtotalCents),
    centsToDecimal(doc.totalCents),
    centsToDecimal(doc.refundedCents ?? 0),
    doc.currency,
    labelOf(PAYMENT_STATUS_LABELS, doc.paymentStatus),
    spreadsheetText(doc.assigneeName ?? ''),
    doc.paidAt ?? '',
    doc.readyAt ?? '',
    doc.fulfilledAt ?? '',
    doc.canceledAt ?? '',
  ];
}

/** The export file's name: `orders-2026-11-23-<exportId>.csv` (≤ 255 characters). */
export function exportFileName(exportId: string, at: number): string {
  return `orders-${new Date(at).toISOString().slice(0, 10)}-${exportId}.csv`;
}
