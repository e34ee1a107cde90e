import type { Activity, Attachment, Note } from '../../domain/entities.ts';
import type { RecordDiff } from '../records/changes.ts';

/** Per-order lists of an order's notes, activity or attachments, by order id. */
export type ListsByOrder<T> = Readonly<Record<string, readonly T[]>>;

/** Notes oldest first. */
export const byCreated = <T extends { id: string; createdAt: number }>(a: T, b: T) =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);
/** Activity in time order. */
export const byActivityTime = (a: Activity, b: Activity) => a.at - b.at || (a.id < b.id ? -1 : 1);
/** Attachments oldest first. */
export const byUpdated = (a: Attachment, b: Attachment) =>
  a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : 1);

/** How each per-order list is kept: its order and which records it shows. */
export const DETAIL_LISTS = {
  notes: { compare: byCreated<Note>, visible: (note: Note) => !note.deleted },
  activity: { compare: byActivityTime, visible: () => true },
  attachments: { compare: byUpdated, visible: (attachment: Attachment) => !attachment.deleted },
} as const;

/**
 * Keeps per-order lists (notes, activity, attachments of one order) sorted and up to date from
 * diffs. Returns the same object when no list changed; otherwise a new object in which only the
 * changed orders' arrays are new.
 */
export function regroupByOrder<T extends { id: string; orderId: string }>(
  groups: ListsByOrder<T>,
  diffs: readonly RecordDiff<T>[],
  options: { compare: (a: T, b: T) => number; visible: (record: T) => boolean },
): ListsByOrder<T> {
  const touched = new Map<string, T[]>();
  const list = (orderId: string): T[] => {
    let items = touched.get(orderId);
    if (!items) {
      items = (groups[orderId] ?? []).slice();
      touched.set(orderId, items);
    }
    return items;
  };
  for (const { before, after } of diffs) {
    if (before !== undefined) {
      const items = list(before.orderId);
      const at = items.findIndex((item) => item.id === before.id);
      if (at !== -1) items.splice(at, 1);
    }
    if (after !== undefined && options.visible(after)) list(after.orderId).push(after);
  }
  if (touched.size === 0) return groups;
  const next: Record<string, readonly T[]> = { ...groups };
  for (const [orderId, items] of touched)
    if (items.length) next[orderId] = items.sort(options.compare);
    else delete next[orderId];
  return next;
}
