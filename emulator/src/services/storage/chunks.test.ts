import { describe, expect, it } from 'vitest';
import {
  CHUNK_SIZE,
  chunkOf,
  countChunks,
  emptyChunkSet,
  hasChunk,
  missingChunks,
  parseContentRange,
  withChunk,
} from './chunks.ts';

const typeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { type?: string }).type;
  }
  return 'accepted';
};

describe('Content-Range', () => {
  it('parses bytes start-end/size with an inclusive end', () => {
    expect(parseContentRange('bytes 0-5242879/12000000')).toEqual({
      start: 0,
      end: 5242879,
      size: 12000000,
    });
  });

  it.each(['bytes 0-10/10', 'bytes 5-4/10', 'bytes=0-4/10', 'bytes 0-4', 'items 0-4/10', ''])(
    'refuses %j',
    (header) => {
      expect(typeOf(() => parseContentRange(header))).toBe('storage_invalid_content_range');
    },
  );

  it('numbers chunks as Appwrite does and requires the exact chunk bounds', () => {
    const size = 2 * CHUNK_SIZE + 7;
    expect(chunkOf({ start: 0, end: CHUNK_SIZE - 1, size })).toEqual({
      index: 1,
      total: 3,
      start: 0,
      length: CHUNK_SIZE,
      size,
    });
    expect(chunkOf({ start: 2 * CHUNK_SIZE, end: size - 1, size })).toMatchObject({
      index: 3,
      length: 7,
    });
    expect(chunkOf({ start: 0, end: 9, size: 10 })).toMatchObject({ index: 1, total: 1 });
    expect(typeOf(() => chunkOf({ start: 1, end: CHUNK_SIZE, size }))).toBe(
      'storage_invalid_content_range',
    );
    expect(typeOf(() => chunkOf({ start: 0, end: 99, size }))).toBe(
      'storage_invalid_content_range',
    );
  });
});

describe('chunk sets', () => {
  it('records chunks in any order, once each', () => {
    let chunks = emptyChunkSet(4);
    chunks = withChunk(chunks, 3);
    chunks = withChunk(chunks, 1);
    chunks = withChunk(chunks, 3);
    expect(countChunks(chunks)).toBe(2);
    expect(hasChunk(chunks, 3)).toBe(true);
    expect(hasChunk(chunks, 2)).toBe(false);
    expect(missingChunks(chunks)).toEqual([2, 4]);
    expect(() => withChunk(chunks, 5)).toThrow(RangeError);
  });
});
