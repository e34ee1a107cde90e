import { writeFileSync } from 'node:fs';
import { Client } from 'node-appwrite';
import type { TestProject } from 'vitest/node';
import { Provisioner } from '../scripts/lib/provisioner.ts';
import { schema } from '../scripts/schema.ts';
import { selectTarget, targetKind, TARGET_DESCRIPTIONS } from './targets/select.ts';
import type { TargetStatus } from '../scripts/lib/target-status.ts';
import type { BackendConnection, StartedBackend, TargetKind } from './targets/types.ts';
import { watchBackend } from './targets/watchdog.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    backend: BackendConnection;
    /** Why the chosen target cannot run here (every test is then skipped), or null. */
    backendUnavailable: string | null;
    /** The local backend's image on the `container` target (for tests that start their own). */
    backendImage: string | null;
  }
}

const PREFIX = '[integration]';
let started: StartedBackend | null = null;
let stopWatching: (() => void) | null = null;
let death: string | null = null;

function report(status: TargetStatus): void {
  const file = process.env.LIVEDESK_STATUS_FILE;
  if (file) writeFileSync(file, `${JSON.stringify(status, null, 2)}\n`);
}

function required(kind: TargetKind): boolean {
  return (process.env.LIVEDESK_REQUIRE ?? '')
    .split(',')
    .map((name) => name.trim())
    .includes(kind);
}

/**
 * Applies the schema as code (`npm run provision`'s code) to the started backend. Skipped, with
 * one line saying why, only while the backend has no Databases API at all (the local backend
 * before its Databases module lands); any other failure fails the run.
 */
async function provision(connection: BackendConnection): Promise<string> {
  const probe = await fetch(`${connection.endpoint}/databases`, {
    headers: { 'x-appwrite-project': connection.projectId, 'x-appwrite-key': connection.apiKey },
  });
  const body = (await probe.json().catch(() => ({}))) as { type?: string };
  if (probe.status === 404 && body.type === 'general_route_not_found')
    return 'skipped: this backend has no Databases API yet (GET /v1/databases → general_route_not_found); suites that need the schema will fail';
  const client = new Client()
    .setEndpoint(connection.endpoint)
    .setProject(connection.projectId)
    .setKey(connection.apiKey);
  const started = Date.now();
  try {
    const result = await new Provisioner(client).apply(schema);
    return `schema applied (${result.changes.length} change(s), ${((Date.now() - started) / 1000).toFixed(1)} s)`;
  } catch (error) {
    throw new Error(
      `${PREFIX} provisioning ${connection.endpoint} failed: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/**
 * Starts the backend chosen by `LIVEDESK_TARGET` once for the whole run, provisions it, watches
 * it, and hands its connection to tests (`inject('backend')`). A target that cannot run here is
 * reported in one line and every test is skipped (counted as not run), unless `LIVEDESK_REQUIRE`
 * names it: then the run fails.
 */
export async function setup(project: TestProject): Promise<void> {
  const kind = targetKind();
  const target = await selectTarget(kind);
  const reason = await target.unavailableReason();
  if (reason) {
    const line = `${PREFIX} target "${kind}" (${TARGET_DESCRIPTIONS[kind]}) NOT RUN: ${reason}`;
    console.warn(line);
    report({ kind, ran: false, reason });
    if (required(kind)) throw new Error(`${line} — and LIVEDESK_REQUIRE requires it`);
    project.provide('backend', { kind, endpoint: '', projectId: '', apiKey: '' });
    project.provide('backendUnavailable', reason);
    project.provide('backendImage', null);
    return;
  }

  const startedAt = Date.now();
  started = await target.start();
  const detail = started.describe();
  console.log(
    `${PREFIX} target "${kind}": ${detail} at ${started.endpoint}, started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  const connection: BackendConnection = {
    kind,
    endpoint: started.endpoint,
    projectId: started.projectId,
    apiKey: started.apiKey,
  };
  let provisioning: string;
  try {
    provisioning = await provision(connection);
  } catch (error) {
    await started.stop();
    started = null;
    throw error;
  }
  console.log(`${PREFIX} provisioning: ${provisioning}`);
  report({ kind, ran: true, detail, provisioning });

  // A backend on this machine answers health checks in milliseconds; a real or remote Appwrite
  // under load gets more slack before it counts as dead.
  const nearby = kind === 'local' || kind === 'container';
  const watchdog = nearby
    ? { intervalMs: 1_000, probeTimeoutMs: 3_000, failures: 3 }
    : { intervalMs: 2_000, probeTimeoutMs: 10_000, failures: 3 };
  stopWatching = watchBackend(
    started,
    (reason) => {
      death = reason;
      console.error(
        `\n${PREFIX} FATAL: the backend died during the run, so the run fails: ${reason}\n`,
      );
      report({ kind, ran: true, detail, provisioning, died: reason });
      process.exitCode = 1;
      void project.vitest.cancelCurrentRun('test-failure');
    },
    watchdog,
  );

  project.provide('backend', connection);
  project.provide('backendUnavailable', null);
  project.provide('backendImage', 'image' in started ? String(started.image) : null);
}

export async function teardown(): Promise<void> {
  stopWatching?.();
  await started?.stop();
  started = null;
  if (death) {
    // Repeated after Vitest's summary (which counts the cancelled tests as skipped), and fails the run.
    console.error(`${PREFIX} FAILED: the backend died during the run: ${death.split('\n')[0]}`);
    process.exitCode = 1;
  }
}
