#!/usr/bin/env -S node --disable-warning=ExperimentalWarning
import { configFromEnv } from './config.ts';
import { startBackend } from './index.ts';

/** Starts the local backend from environment variables and prints its endpoint when ready. */
async function main(): Promise<void> {
  let config;
  try {
    config = configFromEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const backend = await startBackend(config);
  console.log(`Livedesk local backend (Appwrite 1.9-compatible) ready`);
  console.log(`  endpoint: ${backend.endpoint}`);
  console.log(`  project:  ${config.projectId}`);
  console.log(`  data:     ${config.dataDir}`);
  const stop = (signal: string) => {
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
