import { createHash } from 'node:crypto';
import { Databases } from 'node-appwrite';
import { AppError } from '../../../domain/errors.ts';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import type { OrderChange } from '../../../domain/order-machine.ts';
import {
  functionClient,
  readOrder,
  serverError,
  toOrder,
  updateOrderIfUnchanged,
  writeActivity,
} from '../../_shared/appwrite.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';

const ATTEMPTS = 5;

interface NoteEvent {
  $id?: unknown;
  orderId?: unknown;
  authorId?: unknown;
  authorName?: unknown;
  body?: unknown;
}

/** The activity id of a note (one per note, so a repeated event writes nothing twice). */
function noteActivityId(noteId: string): string {
  const plain = `note.${noteId}`;
  return plain.length <= 36
    ? plain
    : `n${createHash('sha256').update(plain).digest('hex').slice(0, 35)}`;
}

/**
 * `on-note` (event `databases.livedesk.collections.notes.documents.*.create`): adds a `note`
 * activity and counts the note on its order (`noteCount` + 1, `rev` + 1, written only if nobody
 * changed the order meanwhile, retried otherwise). The activity is written first: its id is
 * derived from the note, so it also keeps a repeated event from counting the note twice; if the
 * note cannot be counted, it is removed again. Notes themselves are written by the team
 * directly. Three requests per note. Answers `{orderId, noteCount}` or `{skipped}`.
 */
export default async function onNote(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const note = ctx.req.bodyJson as NoteEvent;
    if (typeof note?.$id !== 'string' || typeof note.orderId !== 'string')
      return ctx.res.json({ skipped: 'not a note' });
    const client = functionClient(ctx.req);
    const activityId = noteActivityId(note.$id);
    const authorId = typeof note.authorId === 'string' ? note.authorId : 'unknown';
    const authorName = typeof note.authorName === 'string' ? note.authorName : 'Someone';
    const written = await writeActivity(client, {
      id: activityId,
      orderId: note.orderId,
      kind: 'note',
      actorId: authorId,
      actorName: authorName,
      data: {
        noteId: note.$id,
        excerpt: typeof note.body === 'string' ? note.body.slice(0, 140) : '',
      },
      at: Date.now(),
    });
    if (written === null) return ctx.res.json({ skipped: 'already counted' });
    const removeActivity = () =>
      new Databases(client).deleteDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.activity,
        documentId: activityId,
      });
    try {
      let read;
      try {
        read = await readOrder(client, note.orderId);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        await removeActivity();
        return ctx.res.json({ skipped: 'no such order' });
      }
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const order = toOrder(read);
        const change: OrderChange = {
          patch: {
            rev: order.rev + 1,
            updatedById: authorId,
            updatedByName: authorName,
            noteCount: order.noteCount + 1,
          },
          activity: { kind: 'note', data: { noteId: note.$id } },
        };
        const updated = await updateOrderIfUnchanged(client, read, change);
        if (updated !== 'conflict')
          return ctx.res.json({ orderId: order.id, noteCount: updated.noteCount });
        read = await readOrder(client, read.$id);
      }
      throw new Error(`order ${read.$id} kept changing; note ${note.$id} not counted`);
    } catch (error) {
      // Not counted: without its activity, a repeated event may count the note.
      await removeActivity().catch(() => {});
      throw error;
    }
  } catch (error) {
    return serverError(ctx, error);
  }
}
