import type { Order } from '../../domain/order.ts';
import { CHUNK_SLOTS, type EntityTable } from '../records/entity-table.ts';
import type { SortedIndex } from '../views/sorted-index.ts';
import {
  SnapshotDecoder,
  SnapshotEncoder,
  type Dictionaries,
  type Segment,
} from './snapshot-codec.ts';

/**
 * The first screen of the orders table as it was last shown, kept beside the persisted snapshot
 * (`persist.ts`) and written with each of its writes: which view (its `orderViewKey`), how many
 * rows it had, and the orders of its first {@link FIRST_SCREEN_ROWS} rows in that order. A
 * returning visit paints the table from it at once (a value of a few KB, read in milliseconds)
 * while the whole snapshot is read and decoded; nothing else (rows past it, another sort or
 * filter, the board) is shown from it.
 */

/** Rows kept: one chunk of the snapshot codec (more than two screens of 36 px rows). */
export const FIRST_SCREEN_ROWS = CHUNK_SLOTS;

/** The first screen as storage keeps it: the rows as one segment of the snapshot codec. */
export interface StoredFirstScreen {
  version: number;
  /** When it was written (epoch ms, client clock), with the snapshot it belongs to. */
  savedAt: number;
  /** The snapshot's watermark (informative: the first screen is never synced from). */
  watermark: number;
  /** The view's key (`orderViewKey`). */
  view: string;
  /** Rows in the view then. */
  rows: number;
  /** Orders in the default view then (every order the table had: the toolbar's total). */
  total: number;
  /** The first rows, row `i` in slot `i`; `dictionaries` are theirs alone. */
  segment: Segment;
  dictionaries: Dictionaries;
}

/** A first screen read back: its orders decoded (frozen records, as the snapshot's are). */
export interface FirstScreen {
  savedAt: number;
  watermark: number;
  /** The view's key (`orderViewKey`): shown only for that view. */
  view: string;
  /** Rows in the view when it was written. */
  rows: number;
  /** Orders in the default view when it was written. */
  total: number;
  /** The first rows' orders, in the view's order (at most {@link FIRST_SCREEN_ROWS}). */
  orders: readonly Order[];
}

/** What {@link firstScreenOf} reads: the confirmed orders and the view's rows of one version. */
export interface FirstScreenSource {
  version: number;
  savedAt: number;
  watermark: number;
  /** The confirmed orders (what the snapshot keeps). */
  orders: EntityTable<Order>;
  view: string;
  /** The view's rows (ids in order). */
  index: SortedIndex;
  total: number;
}

/**
 * The first screen of a view as storage keeps it. A row whose order is not confirmed (ours,
 * optimistic only) is left out. Throws a `TypeError` for an order the codec cannot hold (as the
 * snapshot would).
 */
export function firstScreenOf(source: FirstScreenSource): StoredFirstScreen {
  const chunk: Order[] = [];
  const n = Math.min(source.index.size, FIRST_SCREEN_ROWS);
  for (let i = 0; i < n; i++) {
    const order = source.orders.get(source.index.at(i)!);
    if (order !== undefined) chunk.push(order);
  }
  const encoder = new SnapshotEncoder();
  const segment = encoder.encode([chunk]);
  return {
    version: source.version,
    savedAt: source.savedAt,
    watermark: source.watermark,
    view: source.view,
    rows: source.index.size,
    total: source.total,
    segment,
    dictionaries: encoder.dictionaries(),
  };
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * A stored first screen read back, when it is one of `version` (else null: absent, another
 * version, or unreadable).
 */
export function readFirstScreen(stored: unknown, version: number): FirstScreen | null {
  const s = stored as Partial<StoredFirstScreen> | null | undefined;
  if (typeof s !== 'object' || s === null || s.version !== version) return null;
  if (typeof s.view !== 'string' || !isCount(s.rows) || !isCount(s.total)) return null;
  if (typeof s.savedAt !== 'number' || typeof s.watermark !== 'number') return null;
  try {
    const [chunk] = new SnapshotDecoder(s.dictionaries).decode(s.segment);
    const orders: Order[] = [];
    for (const order of chunk ?? []) {
      if (order === undefined) break;
      orders.push(order);
    }
    if (orders.length > s.rows) return null;
    return {
      savedAt: s.savedAt,
      watermark: s.watermark,
      view: s.view,
      rows: s.rows,
      total: s.total,
      orders: Object.freeze(orders),
    };
  } catch {
    return null;
  }
}

/**
 * The first screens kept with a snapshot (the default view's, and the last shown view's when it
 * is another), those of `version` that read back whole.
 */
export function readFirstScreens(stored: unknown, version: number): FirstScreen[] {
  if (!Array.isArray(stored)) return [];
  const screens: FirstScreen[] = [];
  for (const one of stored) {
    const screen = readFirstScreen(one, version);
    if (screen !== null) screens.push(screen);
  }
  return screens;
}
