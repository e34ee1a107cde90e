import type { Order } from '../../../domain/order.ts';
import { encodeSnapshot } from '../../../store/sync/persist.ts';
import { encodeSnapshotFile } from '../../../store/sync/snapshot-file.ts';

/** What the desk's snapshot holds: list copies of orders, complete up to `watermark`. */
export interface DeskSnapshot {
  /** When it was made (epoch ms). */
  savedAt: number;
  /** The latest `$updatedAt` (epoch ms) read before the orders were. */
  watermark: number;
  orders: readonly Order[];
}

/**
 * The snapshot file's bytes: the same columnar snapshot a returning visit keeps in IndexedDB
 * (`encodeSnapshot`), in one file (`encodeSnapshotFile`).
 */
export function snapshotBytes(snapshot: DeskSnapshot): Uint8Array<ArrayBuffer> {
  return encodeSnapshotFile(encodeSnapshot(snapshot));
}
