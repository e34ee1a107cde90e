#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import type { Backend } from './backend.ts';
import { configFromEnv, prepareDataDir } from './config.ts';
import { startBackend } from './index.ts';

/** Starts the local backend from environment variables and prints its endpoint when ready. */
async function main(): Promise<void> {
  let config;
  try {
    config = configFromEnv();
    prepareDataDir(config.dataDir);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  let backend: Backend;
  try {
    backend = await startBackend(config);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    console.error(
      code === 'EADDRINUSE'
        ? `The local backend cannot listen on ${config.host}:${config.port}: the port is in use (BACKEND_PORT).`
        : `The local backend failed to start: ${message}`,
    );
    process.exit(1);
  }
  console.log(`Livedesk local backend (Appwrite 1.9-compatible) ready`);
  console.log(`  endpoint: ${backend.endpoint}`);
  console.log(`  project:  ${config.projectId}`);
  console.log(`  data:     ${config.dataDir}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[backend] ${signal}: shutting down`);
    backend.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

if (process.env.LIVEDESK_RUNTIME_HOST === '1') {
  // A function runtime process of the bundled backend (see services/functions/pool.ts).
  void import('./services/functions/runtime-host.ts').then((host) =>
    host.startRuntimeHost(process.argv.slice(2)),
  );
} else {
  void main();
}
