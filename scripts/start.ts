import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'node-appwrite';
import { createServer, type ViteDevServer } from 'vite';
import { SIMULATED_STAFF } from './lib/demo-data.ts';
import { adminEnv, PROJECT_ROOT, projectPath } from './lib/env.ts';
import { Provisioner } from './lib/provisioner.ts';
import { Seeder } from './lib/seeder.ts';
import { keepServerSnapshot } from './lib/server-snapshot.ts';
import { LEFT_FOR_PEOPLE, Simulator } from './lib/simulator.ts';
import { schema } from './schema.ts';

const ROOT = PROJECT_ROOT;
const ENV_FILE = resolve(ROOT, '.env');
/** The local backend's data folder when `.env` names none (relative to the project root). */
const DEFAULT_DATA_DIR = '.data/backend';

/** Creates `.env` from `.env.example` with a fresh API key when it does not exist yet. */
function ensureEnvFile(): void {
  if (existsSync(ENV_FILE)) return;
  const template = readFileSync(resolve(ROOT, '.env.example'), 'utf8');
  const key = `local_${randomBytes(24).toString('hex')}`;
  writeFileSync(ENV_FILE, template.replace(/^APPWRITE_API_KEY=.*$/m, `APPWRITE_API_KEY=${key}`), {
    mode: 0o600,
  });
  console.log('Created .env with a fresh local API key.');
}

async function waitForBackend(endpoint: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The local backend exited (code ${child.exitCode}); see its output above.`);
    try {
      if ((await fetch(`${endpoint}/health/version`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`The local backend did not answer at ${endpoint} within 30 s.`);
}

/** The backend's data folder, absolute: a relative `BACKEND_DATA_DIR` is relative to the project root. */
function backendDataDir(): string {
  const configured = process.env.BACKEND_DATA_DIR;
  if (configured === undefined) return projectPath(DEFAULT_DATA_DIR);
  // A blank value is passed on as it is, for the backend to refuse in its own words.
  return configured.trim() === '' ? configured : projectPath(configured);
}

/** Waits until `child` has exited, at most `ms`; true when it did. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => resolvePromise(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolvePromise(true);
    });
  });
}

/**
 * Runs `desk-snapshot` once, so that a first visit starts from the orders as seeded (the schedule
 * keeps it fresh every 15 minutes after). A failure is only logged: the desk then loads cold.
 */
async function writeDeskSnapshot(client: Client): Promise<void> {
  try {
    const { ms } = await keepServerSnapshot(client);
    console.log(`Desk snapshot written (${(ms / 1000).toFixed(1)} s).`);
  } catch (error) {
    console.warn(
      `The desk snapshot was not written (a first visit reads every order): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

const children: ChildProcess[] = [];
let vite: ViteDevServer | null = null;
let traffic: { simulator: Simulator; running: Promise<unknown> } | null = null;
let stopping = false;

/**
 * Stops what `npm start` started — on Ctrl-C (SIGINT to the terminal's process group, which the
 * backend is not in), SIGTERM, SIGHUP (the terminal closed), or a failure: the demo traffic
 * first, then the backend, which closes its function runtimes and database; this process waits
 * for it (10 s at most) before it exits with `code`.
 */
async function stopAll(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // The demo traffic first, so that it does not write to a backend that is going away.
  traffic?.simulator.stop();
  await Promise.race([traffic?.running, new Promise((r) => setTimeout(r, 5_000))]);
  for (const child of children) child.kill('SIGTERM');
  const closing = vite?.close().catch(() => {});
  for (const child of children) if (!(await exited(child, 10_000))) child.kill('SIGKILL');
  await closing;
  process.exit(code);
}

/** `npm start`: the local backend, provisioning, demo data on first run, live traffic and the app. */
async function main(): Promise<void> {
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGHUP', () => void stopAll(0));
  // However this process ends, the backend is told to stop: Vite's dev server ends it on SIGTERM
  // itself (its own handler closes the server and exits), before stopAll has stopped anyone.
  process.on('exit', () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });
  ensureEnvFile();
  process.loadEnvFile(ENV_FILE);
  const env = adminEnv();
  const local = new URL(env.endpoint);
  const runsLocal = ['127.0.0.1', 'localhost'].includes(local.hostname);
  if (runsLocal) {
    const backend = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', resolve(ROOT, 'emulator/src/main.ts')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          BACKEND_PORT: local.port || '80',
          BACKEND_HOST: local.hostname === 'localhost' ? '127.0.0.1' : local.hostname,
          BACKEND_DATA_DIR: backendDataDir(),
        },
        stdio: 'inherit',
        // Its own process group: a terminal's Ctrl-C reaches this process alone, which stops the
        // demo traffic before the backend (a checkout or webhook cut off mid-way logged a 500).
        detached: true,
      },
    );
    children.push(backend);
    await waitForBackend(env.endpoint, backend);
  } else {
    console.log(`Using the Appwrite at ${env.endpoint} (not starting the local backend).`);
  }

  const client = new Client()
    .setEndpoint(env.endpoint)
    .setProject(env.projectId)
    .setKey(env.apiKey);
  const report = await new Provisioner(client, () => {}, { progress: console.log }).apply(schema);
  console.log(
    report.changes.length
      ? `Provisioned: ${report.changes.length} change(s).`
      : 'Schema up to date.',
  );

  const seeder = new Seeder(client, console.log);
  await seeder.ensureCatalog();
  await seeder.ensureAccounts();
  await seeder.ensureSimulatedStaff();
  if (!(await seeder.hasOrders())) {
    const count = Number(process.env.SEED_ORDERS ?? 10_000);
    console.log(`First run: seeding ${count} demo orders…`);
    // Handled by the simulated staff: a person signed in as a demo account starts with nothing
    // done in their name.
    await seeder.seedOrders(count, { staff: SIMULATED_STAFF });
  }
  await writeDeskSnapshot(client);

  vite = await createServer({
    root: ROOT,
    server: { host: '127.0.0.1', port: Number(process.env.APP_PORT ?? 5173), strictPort: true },
  });
  await vite.listen();
  const url = vite.resolvedUrls?.local[0] ?? `http://127.0.0.1:${process.env.APP_PORT ?? 5173}/`;

  const rate = Number(process.env.SIMULATE_RATE ?? 1);
  if (rate > 0) {
    // New orders come as customers place them (checkout, the Stripe double, the webhook), so a
    // live order can be refunded like a real one.
    const simulator = new Simulator(client, Date.now(), 'demo', { checkout: true });
    await simulator.prepare();
    const running = simulator
      .run(rate, 365 * 24 * 3600)
      .catch((error: unknown) => console.error('[simulate] stopped:', error));
    traffic = { simulator, running };
  }

  console.log('');
  console.log(`Livedesk is running: ${url}`);
  seeder.describeAccounts();
  if (rate > 0)
    console.log(
      `Live demo traffic: ${rate} event(s)/s by simulated staff (${SIMULATED_STAFF.map((member) => member.name).join(', ')}). ` +
        `They leave alone any order you hold or have open, and ${Math.round(LEFT_FOR_PEOPLE * 100)}% of new orders for you to claim ` +
        `(SIMULATE_RATE in .env; 0 turns it off).`,
    );
  console.log('Press Ctrl-C to stop.');
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
