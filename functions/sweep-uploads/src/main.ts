import { Databases, Query, Storage, type Client, type Models } from 'node-appwrite';
import { BUCKETS, COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import { functionClient, isAppwriteError, serverError } from '../../_shared/appwrite.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';
import { describeSweep, orphansOf, type SweepRun } from './orphans.ts';

/** Files read per page (an `equal` query takes at most 100 values). */
const PAGE = 100;
/** How long one run reads; the next run starts again from the first file. */
const RUN_BUDGET_MS = 45_000;

/** The ids of `fileIds` that a record of the bucket's collection names. */
type NamedBy = (databases: Databases, fileIds: string[]) => Promise<Set<string>>;

const attachmentsNaming: NamedBy = async (databases, fileIds) => {
  const { documents } = await databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.attachments,
    queries: [
      Query.equal('fileId', fileIds),
      Query.equal('deleted', false),
      Query.limit(fileIds.length),
    ],
  });
  return new Set(documents.map((doc) => doc.fileId as string));
};

const productsNaming: NamedBy = async (databases, fileIds) => {
  const { documents } = await databases.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.products,
    queries: [Query.equal('imageFileId', fileIds), Query.limit(1000)],
  });
  return new Set(documents.map((doc) => doc.imageFileId as string));
};

/** The buckets swept, each with the records that keep its files. */
const SWEPT: readonly { bucketId: string; namedBy: NamedBy }[] = [
  { bucketId: BUCKETS.attachments, namedBy: attachmentsNaming },
  { bucketId: BUCKETS.productImages, namedBy: productsNaming },
];

/** Deletes `fileIds` (one already gone is fine): how many of them this call deleted. */
async function deleteFiles(
  storage: Storage,
  bucketId: string,
  fileIds: readonly string[],
): Promise<number> {
  let deleted = 0;
  for (const fileId of fileIds) {
    try {
      await storage.deleteFile({ bucketId, fileId });
      deleted += 1;
    } catch (error) {
      if (!isAppwriteError(error, 404)) throw error;
    }
  }
  return deleted;
}

/** How a sweep runs: its clock, and which files it may look at (all of them in production). */
export interface SweepOptions {
  now: number;
  scope?: (file: Models.File) => boolean;
}

/**
 * Deletes the files of the attachments and product-images buckets that no record names and that
 * nothing touched for an hour ({@link orphansOf}), reading each bucket in pages of {@link PAGE}
 * and deleting a page's orphans before reading the next. A run ends early after
 * {@link RUN_BUDGET_MS}, or when the file it reads on from was deleted meanwhile by someone else;
 * the next one starts over.
 */
export async function sweepUploads(client: Client, options: SweepOptions): Promise<SweepRun> {
  const storage = new Storage(client);
  const databases = new Databases(client);
  const deadline = Date.now() + RUN_BUDGET_MS;
  const run: SweepRun = { checked: 0, deleted: 0, complete: true };
  for (const { bucketId, namedBy } of SWEPT) {
    let cursor: string | null = null;
    for (;;) {
      if (Date.now() > deadline) return { ...run, complete: false };
      let files: Models.File[];
      try {
        ({ files } = await storage.listFiles({
          bucketId,
          queries: [Query.limit(PAGE), ...(cursor ? [Query.cursorAfter(cursor)] : [])],
          total: false,
        }));
      } catch (error) {
        if (cursor && isAppwriteError(error, 400)) return { ...run, complete: false };
        throw error;
      }
      const inScope = options.scope ? files.filter(options.scope) : files;
      run.checked += inScope.length;
      const named =
        inScope.length > 0
          ? await namedBy(
              databases,
              inScope.map((file) => file.$id),
            )
          : new Set<string>();
      const orphans = orphansOf(inScope, named, options.now);
      run.deleted += await deleteFiles(storage, bucketId, orphans);
      const gone = new Set(orphans);
      if (files.length < PAGE) break;
      // Read on after the page's last file still there (none: the next files moved up).
      cursor = files.findLast((file) => !gone.has(file.$id))?.$id ?? cursor;
    }
  }
  return run;
}

/**
 * `sweep-uploads` (every hour): deletes the uploads no record will ever name — an attachment or a
 * product image refused after its upload, or abandoned, whose tab closed before the client could
 * delete it. Answers `{checked, deleted, complete}`.
 */
export default async function sweepUploadsFunction(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const run = await sweepUploads(functionClient(ctx.req), { now: Date.now() });
    ctx.log(describeSweep(run));
    return ctx.res.json(run);
  } catch (error) {
    return serverError(ctx, error);
  }
}
