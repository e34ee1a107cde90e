import type { Activity, Attachment, Note } from '../../domain/entities.ts';
import type { DeskState } from '../state.ts';
import type { OrderDetailState } from '../sync/sync-state.ts';
import { byCreated } from '../views/detail-lists.ts';

const NONE: readonly never[] = Object.freeze([]);

/** An order's visible notes, oldest first (empty while not tracked or loading). */
export function selectNotes(state: DeskState, orderId: string): readonly Note[] {
  return state.notesByOrder[orderId] ?? NONE;
}

const withPending = new WeakMap<
  readonly Note[],
  WeakMap<DeskState['pendingNotes'], readonly Note[]>
>();

/**
 * An order's notes with ours still on their way to the backend after them (see
 * {@link selectIsNotePending}); the same array until either changes.
 */
export function selectNotesWithPending(state: DeskState, orderId: string): readonly Note[] {
  const notes = selectNotes(state, orderId);
  const pending = state.pendingNotes;
  let cache = withPending.get(notes);
  if (!cache) {
    cache = new WeakMap();
    withPending.set(notes, cache);
  }
  let list = cache.get(pending);
  if (!list) {
    const extra = Object.values(pending).filter(
      (note) => note.orderId === orderId && !notes.some((held) => held.id === note.id),
    );
    list = extra.length ? [...notes, ...extra.sort(byCreated)] : notes;
    cache.set(pending, list);
  }
  return list;
}

/** Whether a note of ours is still on its way to the backend. */
export function selectIsNotePending(state: DeskState, noteId: string): boolean {
  return state.pendingNotes[noteId] !== undefined;
}

/** An order's activity, in time order. */
export function selectActivity(state: DeskState, orderId: string): readonly Activity[] {
  return state.activityByOrder[orderId] ?? NONE;
}

/** An order's visible attachments, oldest first. */
export function selectAttachments(state: DeskState, orderId: string): readonly Attachment[] {
  return state.attachmentsByOrder[orderId] ?? NONE;
}

/** Whether an order's detail is loading, loaded or failed (null: not tracked). */
export function selectOrderDetail(state: DeskState, orderId: string): OrderDetailState | null {
  return state.details[orderId] ?? null;
}
