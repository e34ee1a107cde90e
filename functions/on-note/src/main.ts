import { createHash } from 'node:crypto';
import { Databases } from 'node-appwrite';
import { AppError } from '../../../src/domain/errors.ts';
import { COLLECTIONS, DATABASE_ID } from '../../../src/domain/ids.ts';
import type { OrderChange } from '../../../src/domain/order-machine.ts';
import {
  functionClient,
  isAppwriteError,
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
 * `on-note` (event `databases.livedesk.collections.notes.documents.*.create`): counts the new
 * note on its order (`noteCount` + 1, `rev` + 1, written only if nobody changed the order
 * meanwhile, retried otherwise) and adds a `note` activity. Notes themselves are written by the
 * team directly. Answers `{orderId, noteCount}` or `{skipped}`.
 */
export default async function onNote(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const note = ctx.req.bodyJson as NoteEvent;
    if (typeof note?.$id !== 'string' || typeof note.orderId !== 'string')
      return ctx.res.json({ skipped: 'not a note' });
    const client = functionClient(ctx.req);
    const activityId = noteActivityId(note.$id);
    const databases = new Databases(client);
    try {
      await databases.getDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.activity,
        documentId: activityId,
      });
      return ctx.res.json({ skipped: 'already counted' });
    } catch (error) {
      if (!isAppwriteError(error, 404)) throw error;
    }
    const authorId = typeof note.authorId === 'string' ? note.authorId : 'unknown';
    const authorName = typeof note.authorName === 'string' ? note.authorName : 'Someone';
    let read;
    try {
      read = await readOrder(client, note.orderId);
    } catch (error) {
      if (error instanceof AppError) return ctx.res.json({ skipped: 'no such order' });
      throw error;
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
      if (updated !== 'conflict') {
        await writeActivity(client, {
          id: activityId,
          orderId: order.id,
          kind: 'note',
          actorId: authorId,
          actorName: authorName,
          data: {
            noteId: note.$id,
            excerpt: typeof note.body === 'string' ? note.body.slice(0, 140) : '',
          },
          at: Date.now(),
        });
        return ctx.res.json({ orderId: order.id, noteCount: updated.noteCount });
      }
      read = await readOrder(client, read.$id);
    }
    throw new Error(`order ${read.$id} kept changing; note ${note.$id} not counted`);
  } catch (error) {
    return serverError(ctx, error);
  }
}
