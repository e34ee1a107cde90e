import type { Activity, Attachment, Note } from '../../domain/entities.ts';
import type { DeskState, OrderDetailState } from '../state.ts';

const NONE: readonly never[] = Object.freeze([]);

/** An order's visible notes, oldest first (empty while not tracked or loading). */
export function selectNotes(state: DeskState, orderId: string): readonly Note[] {
  return state.notesByOrder[orderId] ?? NONE;
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
