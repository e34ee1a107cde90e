import type { Client } from 'node-appwrite';
import type { NOTE_SCHEMA } from '../../../domain/entities.ts';
import { AppError } from '../../../domain/errors.ts';
import { COLLECTIONS, DESK_TEAM_ID } from '../../../domain/ids.ts';
import type { Actor } from '../../../domain/order-machine.ts';
import type { OrderDocument } from '../../../domain/order.ts';
import { hasAtLeast } from '../../../domain/roles.ts';
import type { DocumentOf } from '../../../domain/schema.ts';
import { APPWRITE_ID, validateNoteBody } from '../../../domain/validation.ts';
import {
  answerFailure,
  callerId,
  findDocument,
  functionClient,
  readOrder,
} from '../../_shared/appwrite.ts';
import { loadDeskMember } from '../../_shared/desk-actor.ts';
import { AlreadyWritten, commitUntilLanded } from '../../_shared/order-writes.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';

/** A request of `note-action`. */
export type NoteRequest =
  | { action: 'add'; noteId: string; orderId: string; body: string }
  | { action: 'remove'; noteId: string };

/** A `notes` document. */
export type NoteDocument = DocumentOf<typeof NOTE_SCHEMA>;

/** What `note-action` answers: the note and its order as committed. */
export interface NoteAnswer {
  note: NoteDocument;
  order: OrderDocument;
}

/** Characters of a note the activity record keeps. */
const EXCERPT = 140;

function idField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || !APPWRITE_ID.test(value))
    throw new AppError('VALIDATION', `${field} must be an id.`, { field });
  return value;
}

/**
 * Validates the request body: `{action: 'add', noteId, orderId, body}` (the body by §4's rule:
 * not blank, at most 2,000 characters, never cut or trimmed) or `{action: 'remove', noteId}`.
 * Anything else in the body (an author, permissions) is refused, not ignored.
 */
export function parseRequest(bodyText: string): NoteRequest {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new AppError('VALIDATION', 'The request body must be JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('VALIDATION', 'The request body must be a JSON object.');
  const fields = body as Record<string, unknown>;
  const allowed =
    fields.action === 'add' ? ['action', 'noteId', 'orderId', 'body'] : ['action', 'noteId'];
  if (fields.action !== 'add' && fields.action !== 'remove')
    throw new AppError('VALIDATION', `Unknown action "${String(fields.action)}".`, {
      field: 'action',
    });
  const extra = Object.keys(fields).find((key) => !allowed.includes(key));
  if (extra !== undefined)
    throw new AppError('VALIDATION', `"${extra.slice(0, 40)}" cannot be set on a note.`, {
      field: extra.slice(0, 40),
    });
  const noteId = idField(fields, 'noteId');
  if (fields.action === 'remove') return { action: 'remove', noteId };
  const orderId = idField(fields, 'orderId');
  if (typeof fields.body !== 'string')
    throw new AppError('VALIDATION', 'Write something first.', { field: 'body' });
  const problem = validateNoteBody(fields.body);
  if (problem) throw new AppError('VALIDATION', problem.message, { field: problem.field });
  return { action: 'add', noteId, orderId, body: fields.body };
}

function readNote(client: Client, noteId: string): Promise<NoteDocument | null> {
  return findDocument<NoteDocument>(client, COLLECTIONS.notes, noteId);
}

/** The same note sent again (a retry): its answer, or a refusal if the id is someone else's. */
async function repeated(client: Client, note: NoteDocument, actor: Actor, orderId: string) {
  if (note.authorId !== actor.id || note.orderId !== orderId)
    throw new AppError('VALIDATION', 'This note id is taken.', { field: 'noteId' });
  return { note, order: await readOrder(client, orderId) };
}

async function add(
  client: Client,
  actor: Actor,
  request: Extract<NoteRequest, { action: 'add' }>,
): Promise<NoteAnswer> {
  const existing = await readNote(client, request.noteId);
  if (existing) return repeated(client, existing, actor, request.orderId);
  let order: OrderDocument;
  try {
    ({ order } = await commitUntilLanded(client, request.orderId, async (read, attempt) => {
      if (attempt > 1 && (await readNote(client, request.noteId))) throw new AlreadyWritten();
      return {
        change: {
          patch: {
            noteCount: Math.max(0, read.noteCount ?? 0) + 1,
            rev: read.rev + 1,
            updatedById: actor.id,
            updatedByName: actor.name,
          },
          activity: {
            kind: 'note',
            data: {
              action: 'added',
              noteId: request.noteId,
              excerpt: [...request.body].slice(0, EXCERPT).join(''),
            },
          },
        },
        author: actor,
        writes: [
          {
            action: 'create',
            collectionId: COLLECTIONS.notes,
            documentId: request.noteId,
            data: {
              orderId: request.orderId,
              authorId: actor.id,
              authorName: actor.name,
              body: request.body,
              deleted: false,
              $permissions: [`read("team:${DESK_TEAM_ID}")`],
            },
          },
        ],
      };
    }));
  } catch (error) {
    if (!(error instanceof AlreadyWritten)) throw error;
    return repeated(client, (await readNote(client, request.noteId))!, actor, request.orderId);
  }
  return { note: (await readNote(client, request.noteId))!, order };
}

async function remove(
  client: Client,
  actor: Actor,
  request: Extract<NoteRequest, { action: 'remove' }>,
): Promise<NoteAnswer> {
  const note = await readNote(client, request.noteId);
  if (!note) throw new AppError('NOT_FOUND', 'This note does not exist.');
  if (note.authorId !== actor.id && !hasAtLeast(actor.role, 'manager'))
    throw new AppError('FORBIDDEN', 'You don’t have permission to remove this note.');
  if (note.deleted === true) return { note, order: await readOrder(client, note.orderId) };
  let order: OrderDocument;
  try {
    ({ order } = await commitUntilLanded(client, note.orderId, async (read) => {
      // Read after the order: a removal that committed before this read shows here, one that
      // commits after it makes this attempt a conflict.
      if ((await readNote(client, note.$id))?.deleted === true) throw new AlreadyWritten();
      return {
        change: {
          patch: {
            noteCount: Math.max(0, (read.noteCount ?? 0) - 1),
            rev: read.rev + 1,
            updatedById: actor.id,
            updatedByName: actor.name,
          },
          activity: { kind: 'note', data: { action: 'removed', noteId: note.$id } },
        },
        author: actor,
        writes: [
          {
            action: 'update',
            collectionId: COLLECTIONS.notes,
            documentId: note.$id,
            data: { deleted: true },
          },
        ],
      };
    }));
  } catch (error) {
    if (!(error instanceof AlreadyWritten)) throw error;
    order = await readOrder(client, note.orderId);
  }
  return { note: (await readNote(client, note.$id))!, order };
}

/**
 * `note-action`: a desk member adds a note to an order, or removes one (its author, or a
 * manager); a removal sets the note's `deleted` flag. The author is the caller as Appwrite knows
 * them (`x-appwrite-user-id` and their desk membership), never the request. The note, the order's
 * `noteCount` and `rev`, and the `note` activity record are written in one transaction, retried
 * after a concurrent change until they land. Answers `{note, order}` (200) or
 * `{error: {code, message, details?}}` (400/401/403/404/409/500).
 */
export default async function noteAction(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const userId = callerId(ctx.req, 'Sign in to add notes.');
    const request = parseRequest(ctx.req.bodyText);
    const client = functionClient(ctx.req);
    const actor = await loadDeskMember(client, userId);
    const answer =
      request.action === 'add'
        ? await add(client, actor, request)
        : await remove(client, actor, request);
    ctx.log(`${actor.name} ${request.action} note ${answer.note.$id} on ${answer.order.$id}`);
    return ctx.res.json(answer);
  } catch (error) {
    return answerFailure(ctx, error);
  }
}
