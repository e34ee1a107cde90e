import { Storage, type Client, type Models } from 'node-appwrite';
import type { ATTACHMENT_SCHEMA, Attachment } from '../../../domain/entities.ts';
import { AppError } from '../../../domain/errors.ts';
import { ATTACHMENT_RULE } from '../../../domain/files.ts';
import { BUCKETS, COLLECTIONS } from '../../../domain/ids.ts';
import type { Actor } from '../../../domain/order-machine.ts';
import type { OrderDocument } from '../../../domain/order.ts';
import type { DocumentOf } from '../../../domain/schema.ts';
import { hasAtLeast } from '../../../domain/roles.ts';
import {
  answerFailure,
  callerId,
  findDocument,
  functionClient,
  isAppwriteError,
  readOrder,
} from '../../_shared/appwrite.ts';
import { loadDeskMember } from '../../_shared/desk-actor.ts';
import { AlreadyWritten, commitUntilLanded } from '../../_shared/order-writes.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';
import { readCheckedUpload } from '../../_shared/uploads.ts';

const ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

/** A request of `attachment-action`. */
export type AttachmentRequest =
  | { action: 'attach'; orderId: string; fileId: string }
  | { action: 'remove'; attachmentId: string };

/** What `attachment-action` answers: the attachment record and the order as committed. */
export interface AttachmentAnswer {
  attachment: AttachmentDocument;
  order: OrderDocument;
}

function idField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || !ID.test(value))
    throw new AppError('VALIDATION', `${field} must be an id.`, { field });
  return value;
}

/** Validates the request body: `{action: 'attach', orderId, fileId}` or `{action: 'remove', attachmentId}`. */
export function parseRequest(bodyText: string): AttachmentRequest {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new AppError('VALIDATION', 'The request body must be JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('VALIDATION', 'The request body must be a JSON object.');
  const fields = body as Record<string, unknown>;
  if (fields.action === 'attach')
    return {
      action: 'attach',
      orderId: idField(fields, 'orderId'),
      fileId: idField(fields, 'fileId'),
    };
  if (fields.action === 'remove')
    return { action: 'remove', attachmentId: idField(fields, 'attachmentId') };
  throw new AppError('VALIDATION', `Unknown action "${String(fields.action)}".`, {
    field: 'action',
  });
}

/** An `attachments` document. */
type AttachmentDocument = DocumentOf<typeof ATTACHMENT_SCHEMA>;

function readAttachment(client: Client, id: string): Promise<AttachmentDocument | null> {
  return findDocument<AttachmentDocument>(client, COLLECTIONS.attachments, id);
}

/** The upload in the attachments bucket, complete and within the product's limits. */
function readUpload(client: Client, fileId: string): Promise<Models.File> {
  return readCheckedUpload(client, {
    bucketId: BUCKETS.attachments,
    fileId,
    rule: ATTACHMENT_RULE,
    field: 'fileId',
    missing: 'This upload is not in the attachments. Upload it again.',
    tooOld: 'This upload is more than 50 minutes old. Upload it again.',
  });
}

/**
 * Commits an attachment change with the order's `attachmentCount`, `rev` and activity entry in
 * one transaction, reading the order again after a concurrent change until it lands
 * (`commitUntilLanded`). Throws {@link AlreadyWritten} when a repeated call created the record.
 */
async function commitChange(
  client: Client,
  orderId: string,
  actor: Actor,
  attachment: { id: string; name: string; write: 'create' | 'update'; data: object },
  countDelta: 1 | -1,
): Promise<OrderDocument> {
  const { order } = await commitUntilLanded(client, orderId, async (read, attempt) => {
    // Read after the order: a change of the record committed before this read shows here, one
    // committed after it makes this attempt a conflict.
    if (
      attachment.write === 'create' &&
      attempt > 1 &&
      (await readAttachment(client, attachment.id))
    )
      throw new AlreadyWritten();
    if (attachment.write === 'update' && (await readAttachment(client, attachment.id))?.deleted)
      throw new AlreadyWritten();
    return {
      change: {
        patch: {
          attachmentCount: Math.max(0, (read.attachmentCount ?? 0) + countDelta),
          rev: read.rev + 1,
          updatedById: actor.id,
          updatedByName: actor.name,
        },
        activity: {
          kind: 'attachment',
          data: {
            action: countDelta > 0 ? 'attached' : 'removed',
            attachmentId: attachment.id,
            name: attachment.name,
          },
        },
      },
      author: actor,
      writes: [
        {
          action: attachment.write,
          collectionId: COLLECTIONS.attachments,
          documentId: attachment.id,
          data: { ...attachment.data },
        },
      ],
    };
  });
  return order;
}

async function attach(
  client: Client,
  actor: Actor,
  request: Extract<AttachmentRequest, { action: 'attach' }>,
): Promise<AttachmentAnswer> {
  // The attachment's id is its file's: attaching again answers the same record.
  const existing = await readAttachment(client, request.fileId);
  if (existing) {
    if (existing.deleted === true)
      throw new AppError('VALIDATION', 'This file was removed. Upload it again.', {
        field: 'fileId',
      });
    if (existing.orderId !== request.orderId)
      throw new AppError('VALIDATION', 'This file is attached to another order.', {
        field: 'fileId',
      });
    return { attachment: existing, order: await readOrder(client, request.orderId) };
  }
  const file = await readUpload(client, request.fileId);
  if (!file.$permissions.includes(`delete("user:${actor.id}")`))
    throw new AppError('FORBIDDEN', 'Only the person who uploaded a file can attach it.');
  await readOrder(client, request.orderId);
  const data: Omit<Attachment, 'id' | 'createdAt' | 'updatedAt'> = {
    orderId: request.orderId,
    fileId: file.$id,
    name: file.name,
    sizeBytes: file.sizeOriginal,
    mimeType: file.mimeType,
    uploadedBy: actor.id,
    deleted: false,
  };
  let order: OrderDocument;
  try {
    order = await commitChange(
      client,
      request.orderId,
      actor,
      { id: file.$id, name: data.name, write: 'create', data },
      1,
    );
  } catch (error) {
    // Attached meanwhile by a repeated call: answer that record.
    const raced = await readAttachment(client, request.fileId);
    if (raced?.orderId === request.orderId)
      return { attachment: raced, order: await readOrder(client, request.orderId) };
    if (error instanceof AlreadyWritten)
      throw new AppError('VALIDATION', 'This file is attached to another order.', {
        field: 'fileId',
      });
    throw error;
  }
  // Attached files are the bucket's alone: the uploader can no longer delete this one.
  await new Storage(client)
    .updateFile({ bucketId: BUCKETS.attachments, fileId: file.$id, permissions: [] })
    .catch(() => {});
  return { attachment: (await readAttachment(client, file.$id))!, order };
}

async function remove(
  client: Client,
  actor: Actor,
  request: Extract<AttachmentRequest, { action: 'remove' }>,
  log: (message: string) => void,
): Promise<AttachmentAnswer> {
  const attachment = await readAttachment(client, request.attachmentId);
  if (!attachment) throw new AppError('NOT_FOUND', 'This attachment does not exist.');
  const orderId = attachment.orderId;
  if (attachment.deleted === true) return { attachment, order: await readOrder(client, orderId) };
  if (attachment.uploadedBy !== actor.id && !hasAtLeast(actor.role, 'manager'))
    throw new AppError('FORBIDDEN', 'You don’t have permission to remove this attachment.');
  let order: OrderDocument;
  try {
    order = await commitChange(
      client,
      orderId,
      actor,
      { id: attachment.$id, name: attachment.name, write: 'update', data: { deleted: true } },
      -1,
    );
  } catch (error) {
    // Removed meanwhile by another call: nothing more to do.
    if (!(error instanceof AlreadyWritten)) throw error;
    return {
      attachment: (await readAttachment(client, attachment.$id))!,
      order: await readOrder(client, orderId),
    };
  }
  try {
    await new Storage(client).deleteFile({
      bucketId: BUCKETS.attachments,
      fileId: attachment.fileId,
    });
  } catch (error) {
    if (!isAppwriteError(error, 404)) log(`file ${attachment.fileId} not deleted: ${error}`);
  }
  return { attachment: (await readAttachment(client, attachment.$id))!, order };
}

/**
 * `attachment-action`: a desk member attaches a complete upload of the `attachments` bucket to
 * an order, or removes an attachment (the uploader, or a manager). The attachment record, the
 * order's `attachmentCount` and `rev`, and the activity entry are written in one transaction, so
 * a refused or abandoned upload never leaves a record. Answers `{attachment, order}` (200) or
 * `{error: {code, message, details?}}` (400/401/403/404/500).
 */
export default async function attachmentAction(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const userId = callerId(ctx.req, 'Sign in to attach files.');
    const request = parseRequest(ctx.req.bodyText);
    const client = functionClient(ctx.req);
    const actor = await loadDeskMember(client, userId);
    const answer =
      request.action === 'attach'
        ? await attach(client, actor, request)
        : await remove(client, actor, request, ctx.log);
    ctx.log(`${actor.name} ${request.action} ${answer.attachment.$id} on ${answer.order.$id}`);
    return ctx.res.json(answer);
  } catch (error) {
    return answerFailure(ctx, error);
  }
}
