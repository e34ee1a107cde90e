import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'node-appwrite';
import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../scripts/lib/demo-data.ts';
import { CHROMIUM_PATH } from '../../scripts/lib/env.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { Seeder } from '../../scripts/lib/seeder.ts';
import { schema } from '../../scripts/schema.ts';
import { freePort } from '../../scripts/lib/free-port.ts';
import { LocalBackend, type StartedLocalBackend } from '../../scripts/lib/local-backend.ts';
import type { BackendConnection } from '../targets/types.ts';

/** What the browser tests get from this setup (`inject('e2e')`). */
export interface E2eContext {
  /** The app, built for production and served by `vite preview`. */
  appUrl: string;
  backend: BackendConnection;
  /** `POST /restart` restarts the backend (same address and data); `GET /log` is its output. */
  controlUrl: string;
  chromium: string;
  accounts: { id: string; name: string; email: string; role: string }[];
  password: string;
  /** Where tests write screenshots. */
  artifacts: string;
  /** Why the whole suite cannot run here (no Chromium), or null. */
  unavailable: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eContext;
  }
}

const ROOT = resolve(import.meta.dirname, '../..');
const CHROMIUM = CHROMIUM_PATH;
const SEED_ORDERS = Number(process.env.E2E_SEED_ORDERS ?? 100);
const log = (line: string) => console.log(`[e2e] ${line}`);

let backend: StartedLocalBackend | null = null;
let app: PreviewServer | null = null;
let control: Server | null = null;
let outDir: string | null = null;

/**
 * Starts a throwaway local backend, provisions and seeds it (demo accounts, catalog, a few
 * hundred orders), builds the app against it and serves it on a free port, and opens a small
 * control endpoint for the restart test.
 */
export async function setup(project: TestProject): Promise<void> {
  const artifacts = join(import.meta.dirname, 'artifacts');
  mkdirSync(artifacts, { recursive: true });
  const base = {
    chromium: CHROMIUM,
    accounts: DEMO_ACCOUNTS.map((a) => ({ ...a })),
    password: DEMO_PASSWORD,
    artifacts,
  };
  if (!existsSync(CHROMIUM)) {
    const reason = `no Chromium at ${CHROMIUM} (Debian package "chromium")`;
    log(`NOT RUN: ${reason}`);
    project.provide('e2e', {
      ...base,
      appUrl: '',
      controlUrl: '',
      backend: { kind: 'local', endpoint: '', projectId: '', apiKey: '' },
      unavailable: reason,
    });
    return;
  }

  const started = Date.now();
  backend = await new LocalBackend({ projectId: 'livedesk-e2e' }).start();
  const connection: BackendConnection = {
    kind: 'local',
    endpoint: backend.endpoint,
    projectId: backend.projectId,
    apiKey: backend.apiKey,
  };
  const client = new Client()
    .setEndpoint(connection.endpoint)
    .setProject(connection.projectId)
    .setKey(connection.apiKey);
  await new Provisioner(client).apply(schema);
  const seeder = new Seeder(client);
  await seeder.ensureCatalog();
  await seeder.ensureAccounts();
  // 29 days, not 30: an order seeded near the 30-day edge would leave the server's window during
  // the run while the open desk keeps it, and the tests that compare the two would be off by one.
  await seeder.seedOrders(SEED_ORDERS, { days: 29 });
  log(`backend ${connection.endpoint} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  outDir = mkdtempSync(join(tmpdir(), 'livedesk-e2e-app-'));
  process.env.VITE_APPWRITE_ENDPOINT = connection.endpoint;
  process.env.VITE_APPWRITE_PROJECT_ID = connection.projectId;
  await build({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
  const port = await freePort();
  app = await preview({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true },
  });
  const appUrl = `http://127.0.0.1:${port}`;
  log(`app ${appUrl} (production build) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  control = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/log') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(backend!.log);
      return;
    }
    if (request.method !== 'POST' || request.url !== '/restart') {
      response.writeHead(404).end();
      return;
    }
    backend!
      .restart()
      .then(() => response.writeHead(204).end())
      .catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  const controlPort = await freePort();
  await new Promise<void>((ready) => control!.listen(controlPort, '127.0.0.1', ready));

  project.provide('e2e', {
    ...base,
    appUrl,
    backend: connection,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    unavailable: null,
  });
}

export async function teardown(): Promise<void> {
  await new Promise<void>((done) => (control ? control.close(() => done()) : done()));
  await app?.close();
  await backend?.stop();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
}
