import { describe, expect, it } from 'vitest';
import {
  EXPORT_COLUMNS,
  centsToDecimal,
  exportFileName,
  exportRow,
  spreadsheetText,
  parseExportFilter,
  type ExportOrderDocument,
} from './exports.ts';

describe('parseExportFilter', () => {
  it('reads a filter and normalizes its instants', () => {
    expect(
      parseExportFilter({
        statuses: ['paid', 'ready', 'paid'],
        createdFrom: '2026-11-01T00:00:00+01:00',
        createdBefore: '2026-12-01T00:00:00.000Z',
        assignee: 'none',
      }),
    ).toEqual({
      statuses: ['paid', 'ready'],
      createdFrom: '2026-10-31T23:00:00.000Z',
      createdBefore: '2026-12-01T00:00:00.000Z',
      assignee: 'none',
    });
  });

  it('defaults to every order', () => {
    expect(parseExportFilter({})).toEqual({
      statuses: [],
      createdFrom: null,
      createdBefore: null,
      assignee: 'any',
    });
  });

  it.each([
    [null, 'filter'],
    [{ statuses: ['lost'] }, 'statuses'],
    [{ statuses: 'paid' }, 'statuses'],
    [{ createdFrom: 'yesterday' }, 'createdFrom'],
    [
      { createdFrom: '2026-11-02T00:00:00Z', createdBefore: '2026-11-01T00:00:00Z' },
      'createdBefore',
    ],
    [{ assignee: '../x' }, 'assignee'],
    [{ assignee: 42 }, 'assignee'],
  ])('refuses %j naming %s', (value, field) => {
    expect(() => parseExportFilter(value)).toThrow(
      expect.objectContaining({ code: 'VALIDATION', details: { field } }),
    );
  });
});

describe('exportRow', () => {
  const doc: ExportOrderDocument = {
    $id: 'o1',
    $createdAt: '2026-11-23T10:00:00.000+00:00',
    number: 1042,
    status: 'fulfilled',
    customerName: 'Cléo "Kiki" Martin, Jr.',
    customerEmail: 'cleo@example.test',
    items: JSON.stringify([
      { productId: 'p1', name: 'Latte', unitPriceCents: 350, qty: 2 },
      { productId: 'p2', name: 'Croissant', unitPriceCents: 280, qty: 1 },
    ]),
    subtotalCents: 980,
    totalCents: 980,
    refundedCents: 5,
    currency: 'eur',
    paymentStatus: 'succeeded',
    assigneeName: 'Ana Silva',
    paidAt: '2026-11-23T10:00:05.000+00:00',
    readyAt: null,
    fulfilledAt: '2026-11-23T10:09:00.000+00:00',
    canceledAt: null,
  };

  it('gives one value per column, amounts as decimals and items summarized', () => {
    const row = exportRow(doc);
    expect(row).toHaveLength(EXPORT_COLUMNS.length);
    expect(Object.fromEntries(EXPORT_COLUMNS.map((c, i) => [c, row[i]]))).toEqual({
      Order: '1042',
      Created: '2026-11-23T10:00:00.000+00:00',
      Status: 'Done',
      Customer: 'Cléo "Kiki" Martin, Jr.',
      Email: 'cleo@example.test',
      Items: '2× Latte, 1× Croissant',
      Subtotal: '9.80',
      Total: '9.80',
      Refunded: '0.05',
      Currency: 'eur',
      Payment: 'Paid',
      Assignee: 'Ana Silva',
      Paid: '2026-11-23T10:00:05.000+00:00',
      Ready: '',
      Fulfilled: '2026-11-23T10:09:00.000+00:00',
      Canceled: '',
    });
  });

  it('names every status and payment status as the desk does, and keeps an unknown one as it is', () => {
    const statusAt = EXPORT_COLUMNS.indexOf('Status');
    const paymentAt = EXPORT_COLUMNS.indexOf('Payment');
    expect(exportRow({ ...doc, status: 'payment_failed' })[statusAt]).toBe('Payment failed');
    expect(exportRow({ ...doc, status: 'canceled' })[statusAt]).toBe('Canceled');
    expect(exportRow({ ...doc, paymentStatus: 'requires_payment_method' })[paymentAt]).toBe(
      'Not paid',
    );
    expect(exportRow({ ...doc, status: 'archived' })[statusAt]).toBe('archived');
    expect(exportRow({ ...doc, status: 'constructor' })[statusAt]).toBe('constructor');
  });

  it('leaves broken items empty instead of failing the export', () => {
    expect(exportRow({ ...doc, items: '{' })[5]).toBe('');
  });

  it('keeps typed text from being run as a spreadsheet formula', () => {
    const row = exportRow({
      ...doc,
      customerName: '=HYPERLINK("http://evil.test","Click")',
      customerEmail: '@evil@example.test',
      assigneeName: '-Ana',
    });
    expect(row[3]).toBe('\'=HYPERLINK("http://evil.test","Click")');
    expect(row[4]).toBe("'@evil@example.test");
    expect(row[11]).toBe("'-Ana");
    for (const start of ['+', '\t', '\r']) expect(spreadsheetText(`${start}1`)).toBe(`'${start}1`);
    expect(spreadsheetText('Cléo = Kiki')).toBe('Cléo = Kiki');
  });
});

describe('centsToDecimal and exportFileName', () => {
  it('formats cents exactly', () => {
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(1005)).toBe('10.05');
    expect(centsToDecimal(100_000_000)).toBe('1000000.00');
  });

  it('names the file by day and export', () => {
    expect(exportFileName('e1', Date.UTC(2026, 10, 23, 22))).toBe('orders-2026-11-23-e1.csv');
  });
});
