import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Databases, type Client } from 'node-appwrite';
import type { EXPORT_SCHEMA } from '../../../domain/entities.ts';
import { AppError } from '../../../domain/errors.ts';
import { exportFileName, parseExportFilter } from '../../../domain/exports.ts';
import { COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import { hasAtLeast } from '../../../domain/roles.ts';
import type { DocumentOf } from '../../../domain/schema.ts';
import {
  answerFailure,
  callerId,
  functionClient,
  isAppwriteError,
  updateDocumentIfUnchanged,
} from '../../_shared/appwrite.ts';
import { loadDeskActor } from '../../_shared/desk-actor.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';
import { runFileJobInWorker } from './bounded-job.ts';

const ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

/** How often a running export writes its progress (`rowCount`) to its record, at most. */
export const PROGRESS_INTERVAL_MS = 500;

/** An `exports` document (its `filter` as stored: JSON text). */
type ExportDocument = DocumentOf<typeof EXPORT_SCHEMA>;

const EXPORTS = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.exports } as const;

/** Validates a start request: `{exportId, filter}`. */
export function parseStart(bodyText: string): { exportId: string; filter: object } {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new AppError('VALIDATION', 'The request body must be JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('VALIDATION', 'The request body must be a JSON object.');
  const { exportId, filter } = body as Record<string, unknown>;
  if (typeof exportId !== 'string' || !ID.test(exportId))
    throw new AppError('VALIDATION', 'exportId must be an id.', { field: 'exportId' });
  return { exportId, filter: parseExportFilter(filter) };
}

/** A manager starts an export: its `queued` record, which the record's create event runs. */
async function start(ctx: FunctionContext, userId: string): Promise<FunctionOutput> {
  const { exportId, filter } = parseStart(ctx.req.bodyText);
  const client = functionClient(ctx.req);
  const actor = await loadDeskActor(client, userId);
  if (!hasAtLeast(actor.role, 'manager'))
    throw new AppError('FORBIDDEN', 'You don’t have permission to export orders.');
  const databases = new Databases(client);
  try {
    const created = await databases.createDocument({
      ...EXPORTS,
      documentId: exportId,
      data: {
        requestedBy: actor.id,
        filter: JSON.stringify(filter),
        status: 'queued',
        rowCount: 0,
      },
    });
    ctx.log(`${actor.name} queued export ${exportId}`);
    return ctx.res.json(created);
  } catch (error) {
    // The same start sent again answers the record it made.
    if (!isAppwriteError(error, 409)) throw error;
    const existing = await databases.getDocument({ ...EXPORTS, documentId: exportId });
    if (existing.requestedBy !== actor.id)
      throw new AppError('VALIDATION', 'This export id is taken.', { field: 'exportId' });
    return ctx.res.json(existing);
  }
}

/**
 * Writes `rowCount` to the record every {@link PROGRESS_INTERVAL_MS} until `stop()` (also while it
 * does not move, during the upload: the page sees the export alive), one write at a time; `stop()`
 * waits for the last.
 */
function progressWriter(databases: Databases, exportId: string) {
  let rows = 0;
  let writing: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (writing) return;
    writing = databases
      .updateDocument({ ...EXPORTS, documentId: exportId, data: { rowCount: rows } })
      .catch(() => {})
      .finally(() => (writing = null));
  }, PROGRESS_INTERVAL_MS);
  return {
    set(count: number) {
      rows = count;
    },
    async stop() {
      clearInterval(timer);
      await writing;
    },
  };
}

/** A failure as the manager reads it on the exports page. */
function failureMessage(error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `The export stopped: ${reason}`.slice(0, 1024);
}

/**
 * Runs a queued export: the CSV to a temporary file and its upload in a worker thread with a small
 * heap (`bounded-job.ts`), its progress written meanwhile, then `done`.
 */
async function run(ctx: FunctionContext, job: ExportDocument): Promise<FunctionOutput> {
  const client = functionClient(ctx.req);
  const databases = new Databases(client);
  const claimed = await claim(client, job);
  if (!claimed) return ctx.res.json({ skipped: `export ${job.$id} is ${String(job.status)}` });
  const started = Date.now();
  const path = join(tmpdir(), `livedesk-export-${job.$id}.csv`);
  const progress = progressWriter(databases, job.$id);
  try {
    const { rowCount, fileId } = await runFileJobInWorker(
      {
        endpoint: client.config.endpoint,
        project: client.config.project,
        key: ctx.req.headers['x-appwrite-key'] ?? '',
        exportId: job.$id,
        filter: parseExportFilter(JSON.parse(job.filter ?? '{}')),
        path,
        fileName: exportFileName(job.$id, started),
      },
      progress.set,
    );
    await progress.stop();
    await databases.updateDocument({
      ...EXPORTS,
      documentId: job.$id,
      data: { status: 'done', rowCount, fileId, error: null },
    });
    ctx.log(`export ${job.$id}: ${rowCount} rows in ${Date.now() - started} ms`);
    return ctx.res.json({ exportId: job.$id, rowCount, fileId });
  } catch (error) {
    await progress.stop();
    ctx.error(`export ${job.$id} failed:`, error instanceof Error ? (error.stack ?? error) : error);
    await databases
      .updateDocument({
        ...EXPORTS,
        documentId: job.$id,
        data: { status: 'failed', error: failureMessage(error) },
      })
      .catch(() => {});
    return ctx.res.json({ exportId: job.$id, failed: failureMessage(error) });
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * Moves a queued export to `running` only if its record is still as the event carried it, so a
 * repeated event runs it once.
 */
async function claim(client: Client, job: ExportDocument): Promise<boolean> {
  if (job.status !== 'queued') return false;
  try {
    await updateDocumentIfUnchanged(
      client,
      COLLECTIONS.exports,
      job.$id,
      { status: 'running', rowCount: 0 },
      job.$updatedAt,
    );
    return true;
  } catch (error) {
    if (isAppwriteError(error, 404) || isAppwriteError(error, 409)) return false;
    throw error;
  }
}

/**
 * `export-orders`. Called by a manager (`{exportId, filter}`): creates the export's `queued`
 * record and answers it (200), or refuses (400/401/403). Triggered by that record's create event:
 * runs the export — the matching orders streamed as CSV into a temporary file page by page
 * (`rowCount` written to the record every half second), uploaded to the `exports` bucket, and the
 * record marked `done` with its `fileId`, or `failed` with the reason.
 */
export default async function exportOrders(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    if (ctx.req.headers['x-appwrite-trigger'] === 'event')
      return await run(ctx, ctx.req.bodyJson as ExportDocument);
    const userId = callerId(ctx.req, 'Sign in to export orders.');
    return await start(ctx, userId);
  } catch (error) {
    return answerFailure(ctx, error);
  }
}
