import type { Order } from '../../domain/order.ts';
import { CHUNK_SLOTS, type EntityTable } from '../records/entity-table.ts';
import {
  foldText,
  HAYSTACK_SEPARATOR,
  type RecordFilterParts,
  type TextSearch,
} from './order-views.ts';
import { STEP, type Job } from './sliced.ts';
import { statusCodesAt, statusMask } from './status-codes.ts';

/**
 * The search text of one chunk of the orders table: the haystacks of its slots in one string
 * (each the folded name and email, every field followed by {@link HAYSTACK_SEPARATOR}, which no
 * needle holds, so a match never spans two fields or two orders), where each slot's haystack
 * starts, the slots' order numbers, and the names and emails it was made from.
 */
interface SearchChunk {
  text: string;
  /** `starts[i]` to `starts[i + 1]`: slot `i`'s haystack in `text` (empty for an empty slot). */
  starts: Uint32Array;
  /** Slot `i`'s order number (NaN for an empty slot). */
  numbers: Float64Array;
  names: (string | undefined)[];
  emails: (string | undefined)[];
}

/**
 * Search texts by chunk of the orders table. A table's chunk is never changed (a change copies
 * it) and a version of the table shares its unchanged chunks with the version before, so a
 * chunk's search text is made once, on the first search that reads it, and is right for as long
 * as that chunk is in use (kept weakly: it goes with the chunk).
 */
const byChunk = new WeakMap<readonly (Order | undefined)[], SearchChunk>();

/**
 * The search text made last for each chunk index, by table (`EntityTable.lineage`: a slot is
 * the same order in every version): what a changed chunk's search text is made from again,
 * folding only the orders whose name or email changed. It holds strings, not orders, so it keeps
 * no old version of an order alive.
 */
const lastByIndex = new WeakMap<object, (SearchChunk | undefined)[]>();

function makeSearchChunk(
  held: SearchChunk | undefined,
  chunk: readonly (Order | undefined)[],
): SearchChunk {
  const parts: string[] = [];
  const starts = new Uint32Array(CHUNK_SLOTS + 1);
  const numbers = new Float64Array(CHUNK_SLOTS).fill(NaN);
  const names = new Array<string | undefined>(CHUNK_SLOTS);
  const emails = new Array<string | undefined>(CHUNK_SLOTS);
  let at = 0;
  for (let i = 0; i < CHUNK_SLOTS; i++) {
    starts[i] = at;
    const order = chunk[i];
    if (order === undefined) continue;
    const name = order.customerName;
    const email = order.customerEmail;
    numbers[i] = order.number;
    names[i] = name;
    emails[i] = email;
    const haystack =
      held !== undefined && held.names[i] === name && held.emails[i] === email
        ? held.text.slice(held.starts[i], held.starts[i + 1])
        : foldText(name) + HAYSTACK_SEPARATOR + foldText(email) + HAYSTACK_SEPARATOR;
    parts.push(haystack);
    at += haystack.length;
  }
  starts[CHUNK_SLOTS] = at;
  return { text: parts.join(''), starts, numbers, names, emails };
}

/** Marks the slots of one chunk whose order matches `search` (`base`: its first slot). */
function matchChunk(
  { text, starts, numbers }: SearchChunk,
  { needle, number }: TextSearch,
  matched: Uint8Array,
  base: number,
): void {
  if (number !== null)
    for (let i = 0; i < CHUNK_SLOTS; i++) if (number(numbers[i]!)) matched[base + i] = 1;
  if (needle === null) return;
  let i = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, starts[i + 1])) {
    while (starts[i + 1]! <= at) i++;
    matched[base + i] = 1;
  }
}

/** Table chunks searched between two yields. */
const TABLE_CHUNKS_PER_STEP = STEP / CHUNK_SLOTS;

/** The search texts of a table, by chunk index (see {@link lastByIndex}). */
function lastOf(orders: EntityTable<Order>): (SearchChunk | undefined)[] {
  let last = lastByIndex.get(orders.lineage);
  if (last === undefined) lastByIndex.set(orders.lineage, (last = []));
  return last;
}

/** The search text of chunk `c` of `orders` (made now when this version of it has none). */
function searchChunkAt(
  orders: EntityTable<Order>,
  last: (SearchChunk | undefined)[],
  c: number,
): SearchChunk | undefined {
  if (c >= orders.chunkCount) return undefined;
  const chunk = orders.chunkAt(c);
  let made = byChunk.get(chunk);
  if (made === undefined) {
    made = makeSearchChunk(last[c], chunk);
    byChunk.set(chunk, made);
    last[c] = made;
  }
  return made;
}

/**
 * Marks the slots of one chunk whose status `mask` keeps (by the chunk's status codes, no order
 * read): every slot's, or (`onlyMarked`) only those already marked (by the search).
 */
function statusChunk(
  codes: Uint8Array,
  mask: Uint8Array,
  matched: Uint8Array,
  base: number,
  onlyMarked: boolean,
): void {
  for (let i = 0; i < CHUNK_SLOTS; i++)
    if (!onlyMarked || matched[base + i] === 1) matched[base + i] = mask[codes[i]!]!;
}

/** Unmarks the marked slots of one chunk whose order `filter` does not keep. */
function filterChunk(
  chunk: readonly (Order | undefined)[],
  filter: (order: Order) => boolean,
  matched: Uint8Array,
  base: number,
): void {
  for (let i = 0; i < CHUNK_SLOTS; i++) {
    if (matched[base + i] !== 1) continue;
    const order = chunk[i];
    if (order === undefined || !filter(order)) matched[base + i] = 0;
  }
}

/**
 * The slots of `orders` whose order matches `search` and `filter` (either null: any), 1 in the
 * result (which may be shorter than the slots), as a job. The search reads the chunks' search
 * texts — one `indexOf` per match, the numbers tested from a flat array, so a keystroke reads no
 * order and folds only the orders that changed since the last search; the statuses are read
 * from the chunks' status codes (`status-codes.ts`); only the other filters read orders, those
 * still marked, in the order they sit in the table.
 */
export function* matchingSlots(
  orders: EntityTable<Order>,
  search: TextSearch | null,
  filter: RecordFilterParts | null = null,
): Job<Uint8Array> {
  const chunks = orders.chunkCount;
  const matched = new Uint8Array(chunks * CHUNK_SLOTS);
  const last = search === null ? null : lastOf(orders);
  const statuses = filter?.statuses ?? null;
  const mask = statuses === null ? null : statusMask(statuses);
  const other = filter?.other ?? null;
  for (let c = 0; c < chunks; c++) {
    const base = c * CHUNK_SLOTS;
    if (last !== null) {
      const made = searchChunkAt(orders, last, c);
      if (made !== undefined) matchChunk(made, search!, matched, base);
    }
    if (mask !== null) statusChunk(statusCodesAt(orders, c), mask, matched, base, last !== null);
    else if (last === null) matched.fill(1, base, base + CHUNK_SLOTS);
    if (other !== null) filterChunk(orders.chunkAt(c), other, matched, base);
    if (c % TABLE_CHUNKS_PER_STEP === TABLE_CHUNKS_PER_STEP - 1) yield;
  }
  return matched;
}

/**
 * Makes the search text and the status codes of every chunk of `orders` that has none, as a job:
 * what the first keystroke or status filter would otherwise do (fold every name and email, read
 * every status), done ahead in idle time.
 */
export function* prepareSearchText(orders: EntityTable<Order>): Job {
  const last = lastOf(orders);
  for (let c = 0; c < orders.chunkCount; c++) {
    searchChunkAt(orders, last, c);
    statusCodesAt(orders, c);
    if (c % TABLE_CHUNKS_PER_STEP === TABLE_CHUNKS_PER_STEP - 1) yield;
  }
}
