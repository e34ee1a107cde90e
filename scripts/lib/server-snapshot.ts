import { setTimeout as sleep } from 'node:timers/promises';
import { AppwriteException, Functions, Query, Storage, type Client } from 'node-appwrite';
import { BUCKETS, DESK_SNAPSHOT_FILE_ID, FUNCTIONS } from '../../domain/ids.ts';

/** The desk's server-kept snapshot file. */
const FILE = { bucketId: BUCKETS.snapshots, fileId: DESK_SNAPSHOT_FILE_ID } as const;

/** Deletes the desk's server-kept snapshot (a first visit then reads every order); none is fine. */
export async function dropServerSnapshot(client: Client): Promise<void> {
  try {
    await new Storage(client).deleteFile(FILE);
  } catch (error) {
    if (!(error instanceof AppwriteException && error.code === 404)) throw error;
  }
}

/**
 * Runs `desk-snapshot` once (an asynchronous execution with the API key `client` holds) and
 * waits for it: how long it took and the size of the file then kept. Throws when it fails, does
 * not end within `timeoutMs`, or no file is kept after it.
 */
export async function keepServerSnapshot(
  client: Client,
  timeoutMs = 300_000,
): Promise<{ bytes: number; ms: number }> {
  const functions = new Functions(client);
  const started = Date.now();
  const { $id } = await functions.createExecution({
    functionId: FUNCTIONS.deskSnapshot,
    async: true,
  });
  while (Date.now() - started < timeoutMs) {
    const execution = await functions.getExecution({
      functionId: FUNCTIONS.deskSnapshot,
      executionId: $id,
    });
    if (execution.status === 'completed') {
      const ms = Date.now() - started;
      const file = await new Storage(client).getFile(FILE);
      return { bytes: file.sizeOriginal, ms };
    }
    if (execution.status === 'failed')
      throw new Error(`desk-snapshot failed: ${execution.errors || execution.responseBody}`);
    await sleep(200);
  }
  throw new Error(`desk-snapshot did not end within ${timeoutMs / 1000} s`);
}

/**
 * The runs of `desk-snapshot` its schedule started between `from` and `to` (epoch ms; a run
 * counts when it overlaps them): how many, and their time in the function (ms).
 */
export async function scheduledRuns(
  client: Client,
  from: number,
  to: number,
): Promise<{ runs: number; ms: number }> {
  const { executions } = await new Functions(client).listExecutions({
    functionId: FUNCTIONS.deskSnapshot,
    queries: [Query.equal('trigger', 'schedule'), Query.orderDesc('$createdAt'), Query.limit(20)],
  });
  const overlapping = executions.filter((execution) => {
    const started = Date.parse(execution.$createdAt);
    return started <= to && started + execution.duration * 1000 >= from;
  });
  return {
    runs: overlapping.length,
    ms: overlapping.reduce((sum, execution) => sum + execution.duration * 1000, 0),
  };
}
