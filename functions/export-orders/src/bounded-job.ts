import { openAsBlob } from 'node:fs';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Storage, type Client } from 'node-appwrite';
import type { ExportFilter } from '../../../domain/exports.ts';
import { BUCKETS } from '../../../domain/ids.ts';
import { KeepAliveClient } from '../../_shared/keep-alive-client.ts';
import { writeOrdersCsv } from './write-csv.ts';

/** What the file part of an export needs: where to reach Appwrite, what to write, where. */
export interface FileJob {
  endpoint: string;
  project: string;
  key: string;
  exportId: string;
  filter: ExportFilter;
  /** The temporary CSV file. */
  path: string;
  fileName: string;
}

/** The file part's end: the rows written and the uploaded file's id. */
export interface FileJobResult {
  rowCount: number;
  fileId: string;
}

type WorkerMessage = { rows: number } | { result: FileJobResult } | { error: string };

/**
 * The worker's heap: the rows pass through it one page at a time (a few MB live), and a small
 * limit makes V8 collect each page's garbage soon instead of growing the heap towards the
 * function's 512 MB first (the resident memory is what a runtime is charged for).
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

/**
 * Writes the CSV of the matching orders to `job.path` (page by page) and uploads it as the
 * export's file, streamed from disk in the SDK's 5 MB chunks; `onRows` hears the running count.
 */
export async function runFileJob(
  client: Client,
  job: FileJob,
  onRows: (rowCount: number) => void,
): Promise<FileJobResult> {
  const rowCount = await writeOrdersCsv(client, job.filter, job.path, onRows);
  const file = await new Storage(client).createFile({
    bucketId: BUCKETS.exports,
    fileId: job.exportId,
    // A file-backed Blob: the SDK's 5 MB chunks are read from disk as they are sent.
    file: new File([await openAsBlob(job.path)], job.fileName),
  });
  return { rowCount, fileId: file.$id };
}

/**
 * Runs {@link runFileJob} in a worker thread with {@link WORKER_LIMITS}: the function's module is
 * loaded again in the worker, which starts the job when it sees its `workerData`.
 */
export function runFileJobInWorker(
  job: FileJob,
  onRows: (rowCount: number) => void,
): Promise<FileJobResult> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { livedeskExportJob: job },
    resourceLimits: WORKER_LIMITS,
  });
  return new Promise<FileJobResult>((resolve, reject) => {
    worker.on('message', (message: WorkerMessage) => {
      if ('rows' in message) onRows(message.rows);
      else if ('result' in message) resolve(message.result);
      else reject(new Error(message.error));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the export's worker stopped (${code})`)));
  }).finally(() => void worker.terminate());
}

/** In the worker: the job of `workerData`, its progress and end posted to the function. */
async function workerMain(job: FileJob): Promise<void> {
  const client = new KeepAliveClient()
    .setEndpoint(job.endpoint)
    .setProject(job.project)
    .setKey(job.key);
  try {
    const result = await runFileJob(client, job, (rows) => parentPort!.postMessage({ rows }));
    parentPort!.postMessage({ result } satisfies WorkerMessage);
  } catch (error) {
    parentPort!.postMessage({
      error: error instanceof Error ? error.message : String(error),
    } satisfies WorkerMessage);
  } finally {
    client.close();
  }
}

const started = (workerData as { livedeskExportJob?: FileJob } | null)?.livedeskExportJob;
if (!isMainThread && started) void workerMain(started);
