import { createHash } from 'node:crypto';
import { Storage, type Client, type Models } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import { BUCKETS, DESK_SNAPSHOT_FILE_ID } from '../../../domain/ids.ts';
import { isAppwriteError } from '../../_shared/appwrite.ts';

/** The desk's snapshot file. */
const FILE = { bucketId: BUCKETS.snapshots, fileId: DESK_SNAPSHOT_FILE_ID } as const;

/**
 * The snapshot file's name: its watermark in it, so that a run can tell the stored file is
 * current without reading it (the bucket allows this extension only).
 */
export function snapshotFileName(watermark: number): string {
  return `orders.${watermark}.snapshot`;
}

/** The watermark a stored file's name gives (a whole file's only), else null. */
export function watermarkOfStored(
  file: Pick<Models.File, 'name' | 'chunksTotal' | 'chunksUploaded'>,
): number | null {
  const match = /^orders\.(\d+)\.snapshot$/.exec(file.name);
  return match && file.chunksUploaded === file.chunksTotal ? Number(match[1]) : null;
}

/** The watermark of the stored snapshot file (null: none, or not one to tell by its name). */
export async function storedWatermark(client: Client): Promise<number | null> {
  try {
    return watermarkOfStored(await new Storage(client).getFile(FILE));
  } catch (error) {
    if (isAppwriteError(error, 404)) return null;
    throw error;
  }
}

/** What the backend says of a stored file, as far as telling whose bytes it holds goes. */
export type StoredFile = Pick<
  Models.File,
  'sizeOriginal' | 'chunksTotal' | 'chunksUploaded' | 'signature'
>;

/** Whether `file` is complete and holds exactly `bytes` (its signature is their MD5). */
export function holdsBytes(file: StoredFile, bytes: Uint8Array): boolean {
  return (
    file.chunksUploaded === file.chunksTotal &&
    file.sizeOriginal === bytes.length &&
    file.signature === createHash('md5').update(bytes).digest('hex')
  );
}

/**
 * Replaces the snapshot file with `bytes`: Appwrite never overwrites a file, so the old one is
 * deleted (none is fine) and the new one created, in the SDK's 5 MB chunks when larger. Answers
 * whether this run's bytes are the ones stored: a 409 means another run created it in between
 * (its snapshot is as good). Bytes that are neither this run's nor whole (chunks of two uploads
 * mixed) are deleted, and the run fails: a desk then loads cold until the next run.
 */
export async function replaceSnapshotFile(
  client: Client,
  bytes: Uint8Array,
  watermark: number,
): Promise<boolean> {
  const storage = new Storage(client);
  try {
    await storage.deleteFile(FILE);
  } catch (error) {
    if (!isAppwriteError(error, 404)) throw error;
  }
  let file: Models.File;
  try {
    file = await storage.createFile({
      ...FILE,
      file: InputFile.fromBuffer(bytes, snapshotFileName(watermark)),
    });
  } catch (error) {
    if (isAppwriteError(error, 409)) return false;
    throw error;
  }
  if (holdsBytes(file, bytes)) return true;
  await storage.deleteFile(FILE).catch(() => {});
  throw new Error(
    `the stored snapshot is not the one uploaded (${file.sizeOriginal} bytes, ${file.chunksUploaded}/${file.chunksTotal} chunks, MD5 ${file.signature}): another upload of it ran at the same time`,
  );
}
