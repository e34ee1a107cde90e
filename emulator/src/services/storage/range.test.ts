import { describe, expect, it } from 'vitest';
import { DOWNLOAD_RANGE_MAX, parseRange, READ_BUFFER, VIEW_RANGE_MAX } from './range.ts';

const refused = (header: string, size: number) => {
  try {
    parseRange(header, size, DOWNLOAD_RANGE_MAX);
  } catch (error) {
    return (error as { type?: string; code?: number }).type;
  }
  return 'accepted';
};

describe('Range on download and view (Appwrite rules)', () => {
  it('takes bytes=start-end as an inclusive range', () => {
    expect(parseRange('bytes=10-19', 100, DOWNLOAD_RANGE_MAX)).toEqual({ start: 10, end: 19 });
  });

  it('cuts an open range at the route’s maximum or the last byte', () => {
    expect(parseRange('bytes=5-', 100, DOWNLOAD_RANGE_MAX)).toEqual({ start: 5, end: 99 });
    const size = 100 * 1024 * 1024;
    expect(parseRange('bytes=0-', size, DOWNLOAD_RANGE_MAX).end).toBe(DOWNLOAD_RANGE_MAX - 1);
    expect(parseRange('bytes=0-', size, VIEW_RANGE_MAX).end).toBe(VIEW_RANGE_MAX - 1);
    expect(parseRange(`bytes=0-${READ_BUFFER + 5}`, size, DOWNLOAD_RANGE_MAX).end).toBe(
      DOWNLOAD_RANGE_MAX - 1,
    );
  });

  it.each([
    ['bytes=0-0', 100],
    ['bytes=5-3', 100],
    ['bytes=0-100', 100],
    ['items=0-5', 100],
    ['bytes=-5', 100],
    ['bytes=0-1,4-5', 100],
    ['bytes=0-', 1],
  ])('refuses %j of a %i-byte file with 416 storage_invalid_range', (header, size) => {
    expect(refused(header, size)).toBe('storage_invalid_range');
  });
});
