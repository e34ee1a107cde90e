import { ApiError } from '../../core/errors.ts';

/** Appwrite's `APP_STORAGE_READ_BUFFER` (20 MB): a longer range is cut to the route's maximum. */
export const READ_BUFFER = 20 * 1000 * 1000;
/** Longest answer to an open range: downloads `MAX_OUTPUT_CHUNK_SIZE` (10 MiB), views 20 MB. */
export const DOWNLOAD_RANGE_MAX = 10 * 1024 * 1024;
export const VIEW_RANGE_MAX = READ_BUFFER;

/** An inclusive byte range of a file. */
export interface ByteRange {
  start: number;
  end: number;
}

function unsatisfiable(reason: string): ApiError {
  return new ApiError(
    'storage_invalid_range',
    `The requested range is not satisfiable: ${reason}. Please check the value of the Range header.`,
  );
}

/**
 * Appwrite's reading of a `Range` header on download and view: `bytes=start-end` or
 * `bytes=start-`; an open end, or a range longer than 20 MB, becomes `start + max - 1`
 * (at most the last byte). Refused (416) when the unit is not bytes, start ≥ end (so
 * `bytes=0-0` too) or end ≥ size — the end is not clamped.
 */
export function parseRange(header: string, size: number, max: number): ByteRange {
  const match = /^\s*([a-zA-Z]+)=(\d{1,15})-(\d{0,15})\s*$/.exec(header);
  if (!match) throw unsatisfiable(`"${header}" is not of the form "bytes=start-end"`);
  const [, unit, startText, endText] = match as unknown as [string, string, string, string];
  if (unit !== 'bytes') throw unsatisfiable(`the unit "${unit}" is not bytes`);
  const start = Number(startText);
  let end = endText === '' ? null : Number(endText);
  if (end === null || end - start > READ_BUFFER) end = Math.min(start + max - 1, size - 1);
  if (start >= end) throw unsatisfiable(`start ${start} is not before end ${end}`);
  if (end >= size) throw unsatisfiable(`end ${end} is not below the file size ${size}`);
  return { start, end };
}
