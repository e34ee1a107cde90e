import { ApiError } from '../../core/errors.ts';

/** Appwrite's `APP_LIMIT_UPLOAD_CHUNK_SIZE`: the SDKs send files above it in chunks of this size. */
export const CHUNK_SIZE = 5 * 1024 * 1024;

/** A parsed `Content-Range: bytes start-end/size` (end inclusive). */
export interface ContentRange {
  start: number;
  end: number;
  size: number;
}

/** Where one chunk sits in its file: `index` counts from 1, as Appwrite's `chunk` does. */
export interface ChunkPosition {
  index: number;
  total: number;
  start: number;
  length: number;
  /** The whole file's size. */
  size: number;
}

function invalid(reason: string): ApiError {
  return new ApiError(
    'storage_invalid_content_range',
    `The content range is invalid: ${reason}. Please check the value of the Content-Range header.`,
  );
}

/** Parses a `Content-Range` request header; anything but `bytes start-end/size` with start ≤ end < size is refused. */
export function parseContentRange(header: string): ContentRange {
  const match = /^bytes (\d{1,15})-(\d{1,15})\/(\d{1,15})$/.exec(header.trim());
  if (!match) throw invalid(`"${header}" is not of the form "bytes start-end/size"`);
  const [start, end, size] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (start > end) throw invalid(`start ${start} is after end ${end}`);
  if (end >= size) throw invalid(`end ${end} is not below the size ${size}`);
  return { start, end, size };
}

/**
 * The chunk a range stands for. Appwrite numbers chunks `floor(start / 5 MiB) + 1` of
 * `ceil(size / 5 MiB)`; the local backend also requires the range to be exactly that chunk (as
 * every SDK sends it), since a misaligned one would silently corrupt the file on Appwrite.
 */
export function chunkOf(range: ContentRange): ChunkPosition {
  const total = Math.ceil(range.size / CHUNK_SIZE);
  const index = Math.floor(range.start / CHUNK_SIZE) + 1;
  const expectedEnd = Math.min(range.start + CHUNK_SIZE, range.size) - 1;
  if (range.start % CHUNK_SIZE !== 0 || range.end !== expectedEnd) {
    throw invalid(
      `chunks are ${CHUNK_SIZE} bytes, so chunk ${index} of a ${range.size}-byte file is bytes ${(index - 1) * CHUNK_SIZE}-${Math.min(index * CHUNK_SIZE, range.size) - 1}`,
    );
  }
  return {
    index,
    total,
    start: range.start,
    length: range.end - range.start + 1,
    size: range.size,
  };
}

/** The chunks received so far of an upload of `total` chunks, as a string of `0`/`1` (chunk 1 first). */
export type ChunkSet = string;

/** No chunk received yet. */
export function emptyChunkSet(total: number): ChunkSet {
  return '0'.repeat(total);
}

/** `chunks` with chunk `index` (from 1) received. */
export function withChunk(chunks: ChunkSet, index: number): ChunkSet {
  if (index < 1 || index > chunks.length)
    throw new RangeError(`chunk ${index} is outside 1..${chunks.length}`);
  return `${chunks.slice(0, index - 1)}1${chunks.slice(index)}`;
}

/** Whether chunk `index` (from 1) was received. */
export function hasChunk(chunks: ChunkSet, index: number): boolean {
  return chunks[index - 1] === '1';
}

/** How many chunks were received. */
export function countChunks(chunks: ChunkSet): number {
  let count = 0;
  for (let i = 0; i < chunks.length; i++) if (chunks.charCodeAt(i) === 49) count++;
  return count;
}

/** The chunks (from 1) still missing. */
export function missingChunks(chunks: ChunkSet): number[] {
  const missing: number[] = [];
  for (let i = 0; i < chunks.length; i++) if (chunks[i] !== '1') missing.push(i + 1);
  return missing;
}
