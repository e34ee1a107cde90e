import { describe, expect, it } from 'vitest';
import { defaultExportForm, describeExportFilter, exportFilterOf } from './export-form.ts';

describe('the export form', () => {
  it('opens on the last 30 days, every status, anyone', () => {
    const now = new Date(2026, 10, 30, 15, 0).getTime();
    expect(defaultExportForm(now)).toEqual({
      statuses: [],
      from: '2026-10-31',
      to: '2026-11-30',
      assignee: 'any',
    });
  });

  it('turns local days into instants covering both days whole', () => {
    const filter = exportFilterOf({
      statuses: ['paid'],
      from: '2026-11-01',
      to: '2026-11-30',
      assignee: 'none',
    });
    expect(filter).toEqual({
      statuses: ['paid'],
      createdFrom: new Date(2026, 10, 1).toISOString(),
      createdBefore: new Date(2026, 11, 1).toISOString(),
      assignee: 'none',
    });
    expect(exportFilterOf({ statuses: [], from: '', to: '', assignee: 'any' })).toMatchObject({
      createdFrom: null,
      createdBefore: null,
    });
  });

  it('refuses a backwards range', () => {
    expect(
      exportFilterOf({ statuses: [], from: '2026-11-02', to: '2026-11-01', assignee: 'any' }),
    ).toEqual({ field: 'to', message: 'The end date must be on or after the start date.' });
  });

  it('describes a filter in one line', () => {
    const filter = exportFilterOf({
      statuses: ['paid', 'payment_failed'],
      from: '2026-11-01',
      to: '2026-11-30',
      assignee: 'u1',
    });
    expect(describeExportFilter(filter as never, () => 'Ana Silva', 'en-US')).toBe(
      'Paid, Payment failed · 11/01/2026 – 11/30/2026 · Ana Silva',
    );
    expect(describeExportFilter(filter as never, () => 'Ana Silva', 'en-GB')).toBe(
      'Paid, Payment failed · 01/11/2026 – 30/11/2026 · Ana Silva',
    );
    expect(describeExportFilter({}, () => '')).toBe('All statuses · any date · anyone');
  });
});
