import { sortInSlices, STEP, type Job } from './sliced.ts';

/*
 * Sorting rows by keys held in flat arrays, in slices: a sort column's build sorts row numbers
 * by a numeric key with a radix sort (no comparisons, no function call per comparison), and by
 * a text key through the ranks of its distinct values. The loops run in plain functions, a block
 * of rows per call, and the jobs yield between blocks (a generator's own loops are not
 * optimized while it runs).
 */

/** Bits of one radix digit: four passes sort any 64-bit key. */
const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;
const DIGIT_MASK = DIGITS - 1;
/** Which 32-bit word of a float64 holds its low and its high bits (the platform's byte order). */
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
const HIGH = 1 - LOW;

/** Keys `start` to `end` as 64-bit words that compare unsigned in the keys' order. */
function orderedBits(keys: Float64Array, bits: Float64Array, start: number, end: number): void {
  const words = new Uint32Array(bits.buffer);
  for (let i = start; i < end; i++) {
    const key = keys[i]!;
    bits[i] = key === 0 ? 0 : key;
    const lo = 2 * i + LOW;
    const hi = 2 * i + HIGH;
    if (words[hi]! >>> 31) {
      words[hi] = ~words[hi]!;
      words[lo] = ~words[lo]!;
    } else words[hi] = words[hi]! | 0x80000000;
  }
}

function countDigits(
  rows: Uint32Array,
  words: Uint32Array,
  word: number,
  shift: number,
  counts: Uint32Array,
  start: number,
  end: number,
): void {
  for (let r = start; r < end; r++)
    counts[((words[2 * rows[r]! + word]! >>> shift) & DIGIT_MASK) + 1]!++;
}

function scatterRows(
  from: Uint32Array,
  to: Uint32Array,
  words: Uint32Array,
  word: number,
  shift: number,
  counts: Uint32Array,
  start: number,
  end: number,
): void {
  for (let r = start; r < end; r++) {
    const row = from[r]!;
    to[counts[(words[2 * row + word]! >>> shift) & DIGIT_MASK]!++] = row;
  }
}

/**
 * Digit counts (`counts[d + 1]`: rows with digit `d`) to where each digit's rows go
 * (`counts[d]`); false when every row has the same digit (the pass can be skipped).
 */
function toOffsets(counts: Uint32Array, n: number): boolean {
  let spread = true;
  for (let d = 0; d < DIGITS; d++) {
    if (counts[d + 1] === n) spread = false;
    counts[d + 1]! += counts[d]!;
  }
  return spread;
}

/** Whether `rows` are already in order of `keys` (e.g. by number: often the order of arrival). */
function inOrder(rows: Uint32Array, keys: Float64Array): boolean {
  for (let r = 1; r < rows.length; r++) if (!(keys[rows[r - 1]!]! <= keys[rows[r]!]!)) return false;
  return true;
}

/** Rows handled per block between two yields of a radix pass. */
const BLOCK = 8 * STEP;

/**
 * Sorts `rows` (row numbers) by `keys[row]` ascending, stably, in slices: an LSD radix sort of
 * the keys' bits, made unsigned in the keys' order (the sign bit of a positive number set, every
 * bit of a negative one flipped), 16 bits a pass, a pass skipped when every key has the same
 * digit. Keys must not be NaN; -0 sorts as 0. Returns the sorted rows (`rows` or a new array).
 */
export function* radixSortRows(rows: Uint32Array, keys: Float64Array): Job<Uint32Array> {
  const n = rows.length;
  if (inOrder(rows, keys)) return rows;
  const bits = new Float64Array(keys.length);
  const words = new Uint32Array(bits.buffer);
  for (let i = 0; i < keys.length; i += BLOCK) {
    orderedBits(keys, bits, i, Math.min(keys.length, i + BLOCK));
    yield;
  }
  let from: Uint32Array = rows;
  let to: Uint32Array = new Uint32Array(n);
  const counts = new Uint32Array(DIGITS + 1);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass < 2 ? LOW : HIGH;
    const shift = (pass & 1) * DIGIT_BITS;
    counts.fill(0);
    for (let r = 0; r < n; r += BLOCK) {
      countDigits(from, words, word, shift, counts, r, Math.min(n, r + BLOCK));
      yield;
    }
    if (!toOffsets(counts, n)) continue;
    for (let r = 0; r < n; r += BLOCK) {
      scatterRows(from, to, words, word, shift, counts, r, Math.min(n, r + BLOCK));
      yield;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  return from;
}

/**
 * Adds the distinct keys of `keys[start..end)` to `ranks` and `distinct`, up to `limit` of them;
 * returns false past it.
 */
function collectDistinct(
  keys: readonly (string | null)[],
  ranks: Map<string, number>,
  distinct: string[],
  limit: number,
  start: number,
  end: number,
): boolean {
  for (let i = start; i < end; i++) {
    const key = keys[i]!;
    if (key === null || ranks.has(key)) continue;
    if (distinct.length === limit) return false;
    ranks.set(key, 0);
    distinct.push(key);
  }
  return true;
}

/** Ranks `start` to `end` of the distinct keys taken in `order`. */
function rankDistinct(
  distinct: readonly string[],
  order: Uint32Array,
  ranks: Map<string, number>,
  start: number,
  end: number,
): void {
  for (let r = start; r < end; r++) ranks.set(distinct[order[r]!]!, r);
}

/** `0, 1, …, count - 1`: rows in their own order. */
export function rowNumbers(count: number): Uint32Array {
  const rows = new Uint32Array(count);
  for (let r = 0; r < count; r++) rows[r] = r;
  return rows;
}

function rankKeys(
  keys: readonly (string | null)[],
  ranks: Map<string, number>,
  out: Float64Array,
  last: number,
  start: number,
  end: number,
): void {
  for (let i = start; i < end; i++) {
    const key = keys[i]!;
    out[i] = key === null ? last : ranks.get(key)!;
  }
}

const compareTexts = (x: string | null, y: string | null): number =>
  x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;

/**
 * Sorts `rows` by `keys[row]` (texts, or null: last) ascending, stably, in slices, in code unit
 * order (as `<` compares strings). When the keys have few distinct values (names, item lists,
 * assignees repeat) each value is ranked once — the distinct values sorted, then a radix sort of
 * the rows by rank; otherwise the rows themselves are sorted as the distinct values are
 * ({@link sortRowsByPrefixes}).
 */
export function* sortRowsByText(
  rows: Uint32Array,
  keys: readonly (string | null)[],
): Job<Uint32Array> {
  const n = keys.length;
  const ranks = new Map<string, number>();
  const distinct: string[] = [];
  let few = true;
  for (let i = 0; few && i < n; i += STEP) {
    few = collectDistinct(keys, ranks, distinct, Math.max(256, n >>> 3), i, Math.min(n, i + STEP));
    yield;
  }
  if (few) {
    const order = yield* sortRowsByPrefixes(rowNumbers(distinct.length), distinct);
    for (let r = 0; r < order.length; r += STEP)
      rankDistinct(distinct, order, ranks, r, Math.min(order.length, r + STEP));
    const rankOf = new Float64Array(n);
    for (let i = 0; i < n; i += BLOCK) {
      rankKeys(keys, ranks, rankOf, distinct.length, i, Math.min(n, i + BLOCK));
      yield;
    }
    return yield* radixSortRows(rows, rankOf);
  }
  return yield* sortRowsByPrefixes(rows, keys);
}

/** A prefix key above every text's: nulls sort last. */
const NULL_PREFIX = 2 ** 48;

/**
 * Code units `at`, `at + 1` and `at + 2` of each key of `keys[start..end)` as one number, in
 * code unit order (a position past the end counts as U+0000: such ties are compared in full).
 */
function prefixKeys(
  keys: readonly (string | null)[],
  at: number,
  out: Float64Array,
  start: number,
  end: number,
): void {
  for (let i = start; i < end; i++) {
    const key = keys[i]!;
    if (key === null) {
      out[i] = NULL_PREFIX;
      continue;
    }
    const a = key.charCodeAt(at) || 0;
    const b = key.charCodeAt(at + 1) || 0;
    const c = key.charCodeAt(at + 2) || 0;
    out[i] = (a * 65536 + b) * 65536 + c;
  }
}

/**
 * The end of the run of rows from `start` whose keys share their first six code units (the two
 * prefix keys), at most `limit`.
 */
function runEnd(
  rows: Uint32Array,
  first: Float64Array,
  second: Float64Array,
  start: number,
  limit: number,
): number {
  const a = first[rows[start]!]!;
  const b = second[rows[start]!]!;
  let end = start + 1;
  while (end < limit && first[rows[end]!] === a && second[rows[end]!] === b) end++;
  return end;
}

/**
 * Many distinct texts: the rows radix-sorted by their keys' first six code units (two numeric
 * keys of three), then each run sharing them sorted by comparing the keys in full (stably). Names
 * and emails rarely share six, so few comparisons are left: 100,000 emails in ~60 ms where a
 * merge sort comparing them took ~280 ms.
 */
function* sortRowsByPrefixes(
  rows: Uint32Array,
  keys: readonly (string | null)[],
): Job<Uint32Array> {
  const n = keys.length;
  const first = new Float64Array(n);
  const second = new Float64Array(n);
  for (let i = 0; i < n; i += BLOCK) {
    prefixKeys(keys, 0, first, i, Math.min(n, i + BLOCK));
    prefixKeys(keys, 3, second, i, Math.min(n, i + BLOCK));
    yield;
  }
  rows = yield* radixSortRows(rows, second);
  rows = yield* radixSortRows(rows, first);
  const compare = (a: number, b: number) => compareTexts(keys[a]!, keys[b]!);
  let done = 0;
  for (let start = 0; start < rows.length;) {
    const end = runEnd(rows, first, second, start, rows.length);
    if (end - start > 1 && first[rows[start]!] !== NULL_PREFIX) {
      const run = Array.from(rows.subarray(start, end));
      if (run.length > STEP) yield* sortInSlices(run, compare);
      else run.sort(compare);
      rows.set(run, start);
    }
    done += end - start;
    start = end;
    if (done >= STEP) {
      done = 0;
      yield;
    }
  }
  return rows;
}
