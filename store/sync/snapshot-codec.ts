import { ORDER_SCHEMA, type Order } from '../../domain/order.ts';
import { deepFreeze, shareString, type FieldSpec } from '../../domain/schema.ts';
import { CHUNK_SLOTS, type Chunk } from '../records/entity-table.ts';

/**
 * The persisted snapshot's orders, one segment per page of the store's table ({@link PAGE_CHUNKS}
 * chunks of 128 slots). A segment is one `ArrayBuffer` and one string: its orders as columns,
 * each field's values one after another — numbers and times as typed arrays, repeated values
 * (statuses, staff, currencies, items) as an index into the snapshot's distinct values
 * ({@link Dictionaries}), other text in the string with each row's length. Structured-cloning it
 * (IndexedDB) copies two values instead of thousands of objects, and a read brings back a few
 * dozen values: each value IndexedDB reads back costs far more than its bytes (100,000 orders as
 * 782 values of a chunk each took over a second to read; as 49 pages, a fifth of that). A page
 * is encoded again only when one of its chunks changed (a chunk never changes: a new array
 * replaces it).
 */

/** One page's orders: `data` holds a header (a `Float64Array`) and every column's values; `text` the text columns' strings. */
export interface Segment {
  data: ArrayBuffer;
  text: string;
}

/** Per field with a dictionary column: its distinct values (the segments' indexes point here). */
export type Dictionaries = Record<string, unknown[]>;

/**
 * How a field is kept: `list` for JSON lists (an order's items): each row's length and its
 * elements' indexes into the distinct elements (a few dozen products × quantities, where whole
 * lists are nearly as many as the orders).
 */
type Kind = 'number' | 'time' | 'dictionary' | 'text' | 'list';

/** The record's keys in the order the schema's reader writes them, and each one's column kind. */
const KEYS: readonly (readonly [string, Kind])[] = [
  ['id', 'text'],
  ['createdAt', 'time'],
  ['updatedAt', 'time'],
  ...ORDER_SCHEMA.entries.map(([key, spec]) => [key, kindOf(spec)] as const),
];

function kindOf(spec: FieldSpec): Kind {
  if (spec.type === 'datetime') return 'time';
  if (spec.type === 'integer') return 'number';
  if (spec.type === 'string' || spec.type === 'email') return spec.shared ? 'dictionary' : 'text';
  if (spec.type === 'json' && Array.isArray(spec.fallback)) return 'list';
  return 'dictionary';
}

/**
 * Chunks per page: a segment holds up to 2,048 slots (about 0.27 MB of 100,000 orders' 13 MB).
 * Measured in headless Chromium on 2 loaded cores at 100,000 orders: pages of 16 chunks read back
 * in 180–230 ms and put one a task in 18–21 ms; of 8, 340–520 ms and 14–32 ms; of 32, 220–270 ms
 * and 30–85 ms.
 */
export const PAGE_CHUNKS = 16;
const PAGE_SLOTS = PAGE_CHUNKS * CHUNK_SLOTS;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INT32_NULL = -2147483648;
const UINT32_NULL = 0xffffffff;
/** The segment layout's version (the header's first number). */
const FORMAT = 1;

/** The typed arrays a segment holds, by the code its header gives them. */
const ARRAYS = [null, Uint8Array, Uint16Array, Uint32Array, Int32Array, Float64Array] as const;
type ArrayCode = 1 | 2 | 3 | 4 | 5;
type Numbers = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/**
 * The header: `[FORMAT, count, slotsAt, partialAt, chunks]`, then per key of {@link KEYS} four
 * numbers: `[arrayCode, byteOffset, extra, nullsAt]` — `extra` the null value of a number
 * column, the base of a time column; `nullsAt` the offset of a text column's null marks (−1:
 * none). `slots` (`Uint16Array`) gives each row's slot in the page.
 */
const FIELDS_AT = 5;
const HEADER = FIELDS_AT + 4 * KEYS.length;

/** The JSON text of objects (an order's items) met before, by object: records are immutable. */
const jsonTexts = new WeakMap<object, string>();

function jsonText(value: object): string {
  let text = jsonTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    jsonTexts.set(value, text);
  }
  return text;
}

/** The distinct values of a dictionary column (append-only: indexes never change). */
class Distinct {
  readonly #primitives = new Map<unknown, number>();
  readonly #objects = new Map<unknown, number>();
  readonly entries: unknown[] = [];

  /** Continues `entries` (kept at their indexes, even a repeated one). */
  constructor(entries: readonly unknown[] = []) {
    for (const entry of entries) {
      const [index, key] = this.#keyOf(entry);
      if (!index.has(key)) index.set(key, this.entries.length);
      this.entries.push(entry);
    }
  }

  #keyOf(value: unknown): [Map<unknown, number>, unknown] {
    return typeof value === 'object' && value !== null
      ? [this.#objects, jsonText(value)]
      : [this.#primitives, value];
  }

  indexOf(value: unknown): number {
    const [index, key] = this.#keyOf(value);
    let at = index.get(key);
    if (at === undefined) {
      at = this.entries.length;
      index.set(key, at);
      this.entries.push(value);
    }
    return at;
  }
}

/** What the chunk encoder collected of one column, before packing. */
type Collected =
  | { kind: 'number' | 'time'; values: Float64Array; ints: boolean; min: number; max: number }
  | { kind: 'dictionary'; indexes: Uint32Array; size: number }
  | { kind: 'text'; lengths: Uint32Array; nulls: boolean; nullMarks: Uint8Array; longest: number }
  | {
      kind: 'list';
      /** Each row's length, and its elements' indexes one after another. */
      counts: Uint16Array;
      elements: Uint32Array;
      elementCount: number;
      size: number;
    };

/** The segment of `n` rows from what was collected (`text`: the text columns' strings joined). */
function pack(
  n: number,
  chunks: number,
  slots: Uint16Array,
  partial: Uint8Array,
  columns: readonly Collected[],
  text: string,
): Segment {
  const plan: {
    code: ArrayCode;
    source: ArrayLike<number>;
    length: number;
    map?: (v: number) => number;
  }[] = [];
  const header = new Float64Array(HEADER);
  header[0] = FORMAT;
  header[1] = n;
  let offset = HEADER * 8;
  const place = (
    code: ArrayCode,
    source: ArrayLike<number>,
    map?: (v: number) => number,
    length = n,
  ) => {
    const size = ARRAYS[code].BYTES_PER_ELEMENT;
    offset = Math.ceil(offset / 8) * 8;
    const at = offset;
    offset += length * size;
    plan.push({ code, source, length, ...(map ? { map } : {}) });
    return at;
  };
  header[2] = place(2, slots);
  header[3] = place(1, partial);
  header[4] = chunks;
  columns.forEach((column, k) => {
    const h = FIELDS_AT + 4 * k;
    header[h + 3] = -1;
    switch (column.kind) {
      case 'number':
      case 'time': {
        const base = column.kind === 'time' && column.min !== Infinity ? column.min : 0;
        const compact =
          column.ints && (column.kind === 'number' || column.max - base < UINT32_NULL);
        if (!compact) {
          header[h] = 5;
          header[h + 2] = column.kind === 'number' ? NaN : 0;
          header[h + 1] = place(5, column.values);
        } else {
          const none = column.kind === 'number' ? INT32_NULL : UINT32_NULL;
          header[h] = column.kind === 'number' ? 4 : 3;
          header[h + 2] = column.kind === 'number' ? INT32_NULL : base;
          header[h + 1] = place(header[h] as ArrayCode, column.values, (v) =>
            v === v ? v - base : none,
          );
        }
        break;
      }
      case 'dictionary':
        header[h] = column.size <= 0x100 ? 1 : column.size <= 0x10000 ? 2 : 3;
        header[h + 1] = place(header[h] as ArrayCode, column.indexes);
        break;
      case 'text':
        header[h] = column.longest <= 0xffff ? 2 : 3;
        header[h + 1] = place(header[h] as ArrayCode, column.lengths);
        if (column.nulls) header[h + 3] = place(1, column.nullMarks);
        break;
      case 'list':
        header[h] = column.size <= 0x100 ? 1 : column.size <= 0x10000 ? 2 : 3;
        header[h + 2] = column.elementCount;
        header[h + 3] = place(2, column.counts);
        header[h + 1] = place(
          header[h] as ArrayCode,
          column.elements,
          undefined,
          column.elementCount,
        );
        break;
    }
  });
  const data = new ArrayBuffer(Math.ceil(offset / 8) * 8);
  new Float64Array(data, 0, HEADER).set(header);
  let at = HEADER * 8;
  for (const { code, source, length, map } of plan) {
    const Type = ARRAYS[code];
    at = Math.ceil(at / 8) * 8;
    const out = new Type(data, at, length);
    if (map) for (let i = 0; i < length; i++) out[i] = map(source[i]!);
    else for (let i = 0; i < length; i++) out[i] = source[i]!;
    at += length * Type.BYTES_PER_ELEMENT;
  }
  return { data, text };
}

function notA(what: string, key: string): never {
  throw new TypeError(`${key}: not a ${what}`);
}

/** One page being encoded: its chunks added one at a time, then its segment. */
export interface PageEncoding {
  /** Adds the page's next chunk. Throws a `TypeError` for a value its column cannot hold. */
  add(chunk: Chunk<Order>): void;
  /** The segment of the chunks added (the encoding is over). */
  finish(): Segment;
}

/** Scratch arrays of one page, reused by the next page once one is finished. */
type Scratch = unknown[];
type PageEncoder = (distinct: (Distinct | null)[], scratch: Scratch) => PageEncoding;

/**
 * Compiles the page encoder: one loop writing every field of each record with its own line of
 * code (a loop over the keys, `record[key]`, is several times slower), from the schema's own keys,
 * into scratch arrays kept for the next page; then {@link pack}. A chunk at a time (`add`), so a
 * page is encoded in steps of 128 orders: each step reads the page's running figures into locals
 * and writes them back after its loop.
 */
function compilePageEncoder(): { make: PageEncoder; scratch: () => Scratch } {
  const scratch: string[] = [];
  const names: string[] = [];
  /** Per-page values read into locals for each chunk's loop. */
  const perPage: string[] = [];
  const page: string[] = [];
  const load: string[] = [];
  const store: string[] = [];
  const add: string[] = [];
  const collected: string[] = [];
  const texts: string[] = [];
  const kept = (name: string, initial: string) => {
    page.push(`let _${name} = ${initial};`);
    load.push(`let ${name} = _${name};`);
    store.push(`_${name} = ${name};`);
  };
  const array = (name: string, make: string) => {
    scratch.push(make);
    names.push(name);
  };
  KEYS.forEach(([key, kind], k) => {
    if (!IDENTIFIER.test(key)) throw new Error(`Field name "${key}" is not an identifier.`);
    switch (kind) {
      case 'number':
      case 'time': {
        const fraction =
          kind === 'time' ? 'Math.floor(x) !== x' : '(x | 0) !== x || x === -2147483648';
        array(`v${k}`, `new Float64Array(${PAGE_SLOTS})`);
        kept(`i${k}`, 'true');
        kept(`lo${k}`, 'Infinity');
        kept(`hi${k}`, '-Infinity');
        add.push(`x = r.${key};
if (x === null) v${k}[row] = NaN;
else if (typeof x === 'number' && x - x === 0) { v${k}[row] = x; if (x < lo${k}) lo${k} = x; if (x > hi${k}) hi${k} = x; if (i${k} && (${fraction})) i${k} = false; }
else notA('${kind}', '${key}');`);
        collected.push(
          `{ kind: '${kind}', values: _v${k}, ints: _i${k}, min: _lo${k}, max: _hi${k} }`,
        );
        break;
      }
      case 'dictionary':
        array(`d${k}`, `new Uint32Array(${PAGE_SLOTS})`);
        page.push(`const _D${k} = D[${k}];`);
        perPage.push(`D${k}`);
        add.push(`d${k}[row] = D${k}.indexOf(r.${key});`);
        collected.push(`{ kind: 'dictionary', indexes: _d${k}, size: _D${k}.entries.length }`);
        break;
      case 'list':
        array(`c${k}`, `new Uint16Array(${PAGE_SLOTS})`);
        // The elements' array grows when a page needs more: kept per page, the grown one kept.
        array(`G${k}`, `[new Uint32Array(${PAGE_SLOTS * 4})]`);
        page.push(`const _D${k} = D[${k}];`);
        perPage.push(`D${k}`);
        kept(`g${k}`, `_G${k}[0]`);
        kept(`e${k}`, '0');
        add.push(`x = r.${key};
if (!Array.isArray(x) || x.length > 65535) notA('list', '${key}');
c${k}[row] = x.length;
if (e${k} + x.length > g${k}.length) { const grown = new Uint32Array(2 * (e${k} + x.length)); grown.set(g${k}); g${k} = grown; G${k}[0] = grown; }
for (let j = 0; j < x.length; j++) g${k}[e${k}++] = D${k}.indexOf(x[j]);`);
        collected.push(
          `{ kind: 'list', counts: _c${k}, elements: _g${k}, elementCount: _e${k}, size: _D${k}.entries.length }`,
        );
        break;
      case 'text':
        array(`l${k}`, `new Uint32Array(${PAGE_SLOTS})`);
        array(`z${k}`, `new Uint8Array(${PAGE_SLOTS})`);
        page.push(`const _s${k} = [];`);
        perPage.push(`s${k}`);
        kept(`y${k}`, 'false');
        kept(`m${k}`, '0');
        add.push(`x = r.${key};
if (x === null) { z${k}[row] = 1; l${k}[row] = 0; y${k} = true; }
else if (typeof x === 'string') { z${k}[row] = 0; s${k}.push(x); l${k}[row] = x.length; if (x.length > m${k}) m${k} = x.length; }
else notA('text', '${key}');`);
        collected.push(
          `{ kind: 'text', lengths: _l${k}, nulls: _y${k}, nullMarks: _z${k}, longest: _m${k} }`,
        );
        texts.push(`_s${k}.join('')`);
        break;
    }
  });
  array('slots', `new Uint16Array(${PAGE_SLOTS})`);
  array('partial', `new Uint8Array(${PAGE_SLOTS})`);
  const source = `return {
scratch: () => [${scratch.join(', ')}],
make: (D, S) => {
const [${names.map((name) => `_${name}`).join(', ')}] = S;
${page.join('\n')}
let _row = 0, _c = 0;
return {
  add(chunk) {
    if (_c >= ${PAGE_CHUNKS}) throw new RangeError('more chunks than a page holds');
    ${[...names, ...perPage].map((name) => `const ${name} = _${name};`).join(' ')}
    ${load.join(' ')}
    let x, row = _row;
    const c = _c;
    for (let s = 0; s < chunk.length; s++) {
      const r = chunk[s];
      if (r === undefined) continue;
${add.join('\n')}
      slots[row] = c * ${CHUNK_SLOTS} + s;
      partial[row] = r.partial === true ? 1 : 0;
      row++;
    }
    ${store.join(' ')}
    _row = row;
    _c = c + 1;
  },
  finish() {
    return pack(_row, _c, _slots, _partial, [${collected.join(', ')}], ${texts.join(' + ')});
  },
};
},
};`;
  return (
    new Function('notA', 'pack', source) as (
      fail: typeof notA,
      p: typeof pack,
    ) => { make: PageEncoder; scratch: () => Scratch }
  )(notA, pack);
}

let pageEncoder: { make: PageEncoder; scratch: () => Scratch } | null = null;
/** Scratch arrays no page encoding is using (one is enough: pages are encoded one at a time). */
let freeScratch: Scratch | null = null;

/**
 * Encodes chunks of a table of orders into segments. It keeps the distinct values of the
 * dictionary columns (append-only, so the indexes of segments written earlier stay valid): one
 * per desk, or one continuing the dictionaries of a snapshot read back.
 */
export class SnapshotEncoder {
  readonly #distinct: (Distinct | null)[];

  constructor(dictionaries: Dictionaries = {}) {
    this.#distinct = KEYS.map(([key, kind]) =>
      kind === 'dictionary' || kind === 'list' ? new Distinct(dictionaries[key] ?? []) : null,
    );
  }

  /**
   * The segment of a page: `chunks` (at most {@link PAGE_CHUNKS}, of 128 slots each). Throws a
   * `TypeError` for a value its field's column cannot hold.
   */
  encode(chunks: readonly Chunk<Order>[]): Segment {
    if (chunks.length > PAGE_CHUNKS) throw new RangeError('more chunks than a page holds');
    const page = this.page();
    for (const chunk of chunks) page.add(chunk);
    return page.finish();
  }

  /**
   * A page encoded a chunk at a time (work in steps of 128 orders); the same segment as
   * {@link encode} of the chunks added. Other pages may be encoded while one is under way.
   */
  page(): PageEncoding {
    pageEncoder ??= compilePageEncoder();
    const scratch = freeScratch ?? pageEncoder.scratch();
    freeScratch = null;
    const encoding = pageEncoder.make(this.#distinct, scratch);
    return {
      add: (chunk) => encoding.add(chunk),
      finish: () => {
        const segment = encoding.finish();
        freeScratch = scratch;
        return segment;
      },
    };
  }

  /** Every distinct value so far, per dictionary field (what the segments' indexes point into). */
  dictionaries(): Dictionaries {
    const out: Dictionaries = {};
    KEYS.forEach(([key], k) => {
      const distinct = this.#distinct[k];
      if (distinct) out[key] = distinct.entries.slice();
    });
    return out;
  }
}

/** A segment's columns as views of its buffer, checked (sizes, offsets, indexes, text lengths). */
interface Views {
  count: number;
  chunks: number;
  slots: Uint16Array;
  partial: Uint8Array;
  /**
   * Per key: its values (lengths, for text; element indexes, for a list), the extra number (for
   * text: where its strings start in `text`), the null marks of text, the lengths of a list's rows.
   */
  columns: {
    values: Numbers;
    extra: number;
    nulls: Uint8Array | null;
    counts: Uint16Array | null;
  }[];
  text: string;
}

function viewsOf(segment: unknown, entries: readonly unknown[][]): Views {
  const s = segment as Partial<Segment> | null;
  if (typeof s !== 'object' || s === null) throw new TypeError('not a segment');
  const { data, text } = s;
  if (!(data instanceof ArrayBuffer) || typeof text !== 'string') throw new TypeError('segment');
  if (data.byteLength < HEADER * 8) throw new TypeError('segment header');
  const header = new Float64Array(data, 0, HEADER);
  const count = header[1]!;
  const chunks = header[4]!;
  if (
    header[0] !== FORMAT ||
    !Number.isInteger(chunks) ||
    chunks < 0 ||
    chunks > PAGE_CHUNKS ||
    !Number.isInteger(count) ||
    count < 0 ||
    count > chunks * CHUNK_SLOTS
  )
    throw new TypeError('segment header');
  const view = (code: number, at: number, length = count): Numbers => {
    const Type = ARRAYS[code as ArrayCode] as (typeof ARRAYS)[ArrayCode] | undefined;
    if (!Type || !Number.isInteger(at) || at < HEADER * 8 || at % 8 !== 0)
      throw new TypeError('segment layout');
    if (!Number.isInteger(length) || length < 0) throw new TypeError('segment layout');
    if (at + length * Type.BYTES_PER_ELEMENT > data.byteLength) throw new TypeError('segment size');
    return new Type(data, at, length);
  };
  const slots = view(2, header[2]!) as Uint16Array;
  for (let i = 0; i < count; i++)
    if (slots[i]! >= chunks * CHUNK_SLOTS || (i > 0 && slots[i]! <= slots[i - 1]!))
      throw new TypeError('slots');
  const partial = view(1, header[3]!) as Uint8Array;
  let textLength = 0;
  const columns = KEYS.map(([, kind], k) => {
    const h = FIELDS_AT + 4 * k;
    const code = header[h]!;
    const allowed =
      kind === 'number'
        ? code === 4 || code === 5
        : kind === 'time'
          ? code === 3 || code === 5
          : kind === 'dictionary' || kind === 'list'
            ? code >= 1 && code <= 3
            : code === 2 || code === 3;
    if (!allowed) throw new TypeError('column type');
    const extra = header[h + 2]!;
    const values = view(code, header[h + 1]!, kind === 'list' ? extra : count);
    let nulls: Uint8Array | null = null;
    let counts: Uint16Array | null = null;
    if (kind === 'dictionary' || kind === 'list') {
      const size = entries[k]!.length;
      for (let i = 0; i < values.length; i++)
        if (values[i]! >= size) throw new TypeError('dictionary index');
    }
    if (kind === 'list') {
      counts = view(2, header[h + 3]!) as Uint16Array;
      let total = 0;
      for (let i = 0; i < count; i++) total += counts[i]!;
      if (total !== extra) throw new TypeError('list lengths');
    }
    if (kind === 'text') {
      if (header[h + 3] !== -1) nulls = view(1, header[h + 3]!) as Uint8Array;
      // The column's text starts where the previous ones' ends.
      const start = textLength;
      for (let i = 0; i < count; i++) textLength += values[i]!;
      return { values, extra: start, nulls, counts };
    }
    return { values, extra, nulls, counts };
  });
  if (textLength !== text.length) throw new TypeError('text length');
  return { count, chunks, slots, partial, columns, text };
}

/** A frozen list of the `entries` that `indexes` from `from` to `to` name. */
function listOf(
  entries: readonly unknown[],
  indexes: Numbers,
  from: number,
  to: number,
): readonly unknown[] {
  const list = new Array<unknown>(to - from);
  for (let i = from; i < to; i++) list[i - from] = entries[indexes[i]!];
  return Object.freeze(list);
}

type SegmentDecoder = (
  views: Views,
  entries: readonly unknown[][],
  page: (Order | undefined)[][],
) => void;

/**
 * Compiles the segment decoder: one loop building each order as one object literal with the
 * reader's keys in the reader's order (records from documents and from a snapshot share a shape),
 * from the schema's own keys (identifiers), never from data.
 */
function compileSegmentDecoder(): SegmentDecoder {
  const setup: string[] = ['const C = V.columns, P = V.partial, S = V.slots, T = V.text;'];
  const parts: string[] = [];
  KEYS.forEach(([key, kind], k) => {
    if (!IDENTIFIER.test(key)) throw new Error(`Field name "${key}" is not an identifier.`);
    setup.push(`const v${k} = C[${k}].values, x${k} = C[${k}].extra;`);
    switch (kind) {
      case 'number':
        // NaN never equals itself: a Float64 column's nulls are the values that are not.
        parts.push(`${key}: (x = v${k}[i]) === x${k} || x !== x ? null : x`);
        break;
      case 'time':
        setup.push(`const f${k} = v${k} instanceof Float64Array;`);
        parts.push(
          `${key}: f${k} ? ((x = v${k}[i]) === x ? x : null) : (x = v${k}[i]) === 4294967295 ? null : x${k} + x`,
        );
        break;
      case 'dictionary':
        setup.push(`const e${k} = E[${k}];`);
        parts.push(`${key}: e${k}[v${k}[i]]`);
        break;
      case 'list':
        setup.push(`const e${k} = E[${k}], c${k} = C[${k}].counts; let q${k} = 0;`);
        parts.push(`${key}: L(e${k}, v${k}, q${k}, (q${k} += c${k}[i]))`);
        break;
      case 'text':
        setup.push(`const n${k} = C[${k}].nulls; let q${k} = x${k};`);
        parts.push(
          `${key}: n${k} !== null && n${k}[i] === 1 ? null : T.slice(q${k}, (q${k} += v${k}[i]))`,
        );
        break;
    }
  });
  const source = `return (V, E, page) => {
${setup.join('\n')}
let x;
for (let i = 0; i < V.count; i++) {
  const o = { ${parts.join(', ')} };
  if (P[i] === 1) o.partial = true;
  page[S[i] >>> ${Math.log2(CHUNK_SLOTS)}][S[i] & ${CHUNK_SLOTS - 1}] = Object.freeze(o);
}
};`;
  return (new Function('L', source) as (list: typeof listOf) => SegmentDecoder)(listOf);
}

let segmentDecoder: SegmentDecoder | null = null;

/**
 * Reads snapshots back: {@link decode} gives each segment's chunks of orders, frozen, their JSON
 * values (items) frozen and shared between the orders that hold the same; it throws a
 * `TypeError` for anything that is not a well-formed segment of these dictionaries.
 */
export class SnapshotDecoder {
  readonly #entries: unknown[][];

  /** Throws a `TypeError` when `dictionaries` is not one. */
  constructor(dictionaries: unknown) {
    const d = dictionaries as Record<string, unknown> | null;
    if (typeof d !== 'object' || d === null) throw new TypeError('dictionaries');
    this.#entries = KEYS.map(([key, kind]) => {
      if (kind !== 'dictionary' && kind !== 'list') return [];
      const entries = d[key];
      if (!Array.isArray(entries)) throw new TypeError(`dictionary of ${key}`);
      return entries.map((entry: unknown) => {
        if (typeof entry === 'string') return shareString(entry);
        deepFreeze(entry);
        return entry;
      });
    });
  }

  /** The chunks of 128 slots `segment` holds (empty slots `undefined`). */
  decode(segment: unknown): (Order | undefined)[][] {
    const views = viewsOf(segment, this.#entries);
    segmentDecoder ??= compileSegmentDecoder();
    const page = Array.from({ length: views.chunks }, () =>
      new Array<Order | undefined>(CHUNK_SLOTS).fill(undefined),
    );
    segmentDecoder(views, this.#entries, page);
    return page;
  }
}

/** The typed array each field's values are kept in (`Float64Array`, `Uint8Array`…): for tests. */
export function segmentArrays(segment: Segment): Record<string, string> {
  const header = new Float64Array(segment.data, 0, HEADER);
  const out: Record<string, string> = {};
  KEYS.forEach(([key], k) => (out[key] = ARRAYS[header[FIELDS_AT + 4 * k] as ArrayCode].name));
  return out;
}
