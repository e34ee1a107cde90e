import { Storage, type Client, type Models } from 'node-appwrite';
import { AppError } from '../../domain/errors.ts';
import { checkFile, uploadTooOld, type FileRule } from '../../domain/files.ts';
import { isAppwriteError } from './appwrite.ts';

/** Which upload to read, by which rule, and what a caller is told when it is not there. */
export interface UploadCheck {
  bucketId: string;
  fileId: string;
  /** The bucket's rule (domain/files.ts): extension, the type read from the content, size. */
  rule: FileRule;
  /** The request field that named the file (`details.field` of a refusal). */
  field: string;
  /** The message for a file that is not in the bucket. */
  missing: string;
  /** The message for a file last written over `ATTACH_WITHIN_MS` ago (the sweep may delete it soon). */
  tooOld: string;
}

/**
 * Reads an upload a function is asked to use (an attachment, a product image): it must be in its
 * bucket, complete (`chunksUploaded = chunksTotal`) and within the bucket's rule — checked on the
 * MIME type the backend read from the file's content, so a text file named `.png` is refused with
 * `UPLOAD_TYPE` (the bucket itself checks only the extension and the size) — and last written
 * within `ATTACH_WITHIN_MS` of `now`, so that the sweep never deletes a file being attached.
 * Throws the refusal as an {@link AppError}: `VALIDATION` (missing, incomplete, too old),
 * `UPLOAD_TYPE`, `UPLOAD_TOO_LARGE`.
 */
export async function readCheckedUpload(
  client: Client,
  check: UploadCheck,
  now = Date.now(),
): Promise<Models.File> {
  let file: Models.File;
  try {
    file = await new Storage(client).getFile({ bucketId: check.bucketId, fileId: check.fileId });
  } catch (error) {
    if (isAppwriteError(error, 404))
      throw new AppError('VALIDATION', check.missing, { field: check.field });
    throw error;
  }
  if (file.chunksUploaded < file.chunksTotal)
    throw new AppError('VALIDATION', 'This upload is not complete yet.', { field: check.field });
  if (uploadTooOld(file.$updatedAt, now))
    throw new AppError('VALIDATION', check.tooOld, { field: check.field });
  const problem = checkFile(check.rule, {
    name: file.name,
    size: file.sizeOriginal,
    mimeType: file.mimeType,
  });
  if (problem) throw problem;
  return file;
}
