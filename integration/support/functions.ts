import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Functions, type Models } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import { create as tar } from 'tar';
import type { BackendConnection } from '../targets/types.ts';
import { backend, serverClient } from './clients.ts';

/** Packs `files` (name → source) as a tar.gz code archive. */
export async function codeArchive(files: Record<string, string>): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'livedesk-test-fn-'));
  try {
    for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
    const file = join(dir, 'code.tar.gz');
    await tar({ gzip: true, file, cwd: dir, portable: true }, Object.keys(files));
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Settings of a test function. */
export interface TestFunctionOptions {
  id: string;
  /** The ESM source of `main.js`. */
  code: string;
  /** The whole archive instead (name → source), for code that cannot run; `code` is then unused. */
  files?: Record<string, string>;
  /** Build commands (none by default). */
  commands?: string;
  /** Resolve with a deployment whose build failed instead of throwing. */
  allowFailedBuild?: boolean;
  execute?: string[];
  events?: string[];
  schedule?: string;
  timeout?: number;
  scopes?: string[];
  variables?: Record<string, string>;
  connection?: BackendConnection;
}

/** Polls `read` until `done(value)`; returns the value. */
export async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}: ${JSON.stringify(value)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Creates a function through the API (runtime `node-22`), sets its variables, deploys `code` as
 * `main.js` (an ESM package) and waits until the deployment is active.
 */
export async function deployTestFunction(
  options: TestFunctionOptions,
): Promise<{ functions: Functions; fn: Models.Function; deployment: Models.Deployment }> {
  const functions = new Functions(serverClient(options.connection ?? backend()));
  await functions.create({
    functionId: options.id,
    name: options.id,
    runtime: 'node-22' as never,
    execute: options.execute ?? ['any'],
    events: options.events ?? [],
    schedule: options.schedule ?? '',
    timeout: options.timeout ?? 15,
    scopes: (options.scopes ?? []) as never[],
    entrypoint: 'main.js',
  });
  for (const [key, value] of Object.entries(options.variables ?? {}))
    await functions.createVariable({
      functionId: options.id,
      variableId: 'unique()',
      key,
      value,
      secret: false,
    });
  const archive = await codeArchive(
    options.files ?? {
      'main.js': options.code,
      'package.json': JSON.stringify({ type: 'module' }),
    },
  );
  const created = await functions.createDeployment({
    functionId: options.id,
    code: InputFile.fromBuffer(archive, 'code.tar.gz'),
    activate: true,
    entrypoint: 'main.js',
    commands: options.commands ?? '',
  });
  const deployment = await poll(
    () => functions.getDeployment({ functionId: options.id, deploymentId: created.$id }),
    (d) => d.status === 'ready' || d.status === 'failed',
    120_000,
    `deployment of ${options.id}`,
  );
  if (deployment.status !== 'ready') {
    if (options.allowFailedBuild)
      return { functions, fn: await functions.get({ functionId: options.id }), deployment };
    throw new Error(`build failed: ${deployment.buildLogs}`);
  }
  const fn = await poll(
    () => functions.get({ functionId: options.id }),
    (f) => f.deploymentId === created.$id,
    60_000,
    `activation of ${options.id}`,
  );
  return { functions, fn, deployment };
}

/** Waits until an execution is `completed` or `failed`. */
export function finishedExecution(
  functions: Functions,
  functionId: string,
  executionId: string,
  timeoutMs = 20_000,
): Promise<Models.Execution> {
  return poll(
    () => functions.getExecution({ functionId, executionId }),
    (e) => e.status === 'completed' || e.status === 'failed',
    timeoutMs,
    `execution ${executionId}`,
  );
}

/**
 * The start of the UTC minute `ahead` minutes from now (2 or more: the backend's own minute timer
 * never reaches it first), moved off a quarter hour: a tick there would also fire desk-snapshot
 * (every 15 minutes), whose run would change the file another suite is checking.
 */
export function tickMinute(ahead: number): Date {
  const minute = Math.floor(Date.now() / 60_000) + ahead;
  return new Date((minute % 15 === 0 ? minute + 1 : minute) * 60_000);
}

/** `POST /_emulator/functions/tick` on the local backend: runs the scheduler as of `at`. */
export async function tickScheduler(
  at?: Date,
  connection: BackendConnection = backend(),
): Promise<string[]> {
  const response = await fetch(connection.endpoint.replace(/\/v1$/, '/_emulator/functions/tick'), {
    method: 'POST',
    headers: { 'x-appwrite-key': connection.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(at ? { at: at.toISOString() } : {}),
  });
  if (!response.ok) throw new Error(`tick failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { executions: string[] }).executions;
}

/** The URL of a function on the local backend (its "function domain"). */
export function functionUrl(functionId: string, path = '/', connection = backend()): string {
  return `${connection.endpoint.replace(/\/v1$/, '')}/_functions/${functionId}${path}`;
}
