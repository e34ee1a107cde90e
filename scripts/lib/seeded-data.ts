import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'node-appwrite';
import { schema } from '../schema.ts';
import { LocalBackend, type StartedLocalBackend } from './local-backend.ts';
import { Provisioner } from './provisioner.ts';
import { Seeder } from './seeder.ts';

/** A local backend's data folder seeded by {@link seededData}, and the API key it answers to. */
export interface SeededData {
  dataDir: string;
  apiKey: string;
  projectId: string;
  /** Whether the folder is kept for later runs (then each run works on a copy of it). */
  kept: boolean;
}

/** How long a kept seed is reused: its oldest orders must stay inside the desk's 30 days. */
const KEPT_FOR_MS = 12 * 3600_000;

/**
 * The collections' attributes and indexes, the buckets and the functions' settings: a kept seed
 * of another schema is seeded again.
 */
const SCHEMA_FINGERPRINT = createHash('sha256')
  .update(JSON.stringify([schema.collections, schema.buckets, schema.functions]))
  .digest('hex')
  .slice(0, 16);

/**
 * A data folder with the whole schema (functions too), the demo catalog and accounts, and
 * `orders` orders over 29 days (as `bench:ui` seeds). With `kept` (a folder): reused as it is
 * when an earlier run seeded it with as many orders and the same collections less than 12 hours
 * ago, else seeded there and kept; without, seeded in a folder of its own.
 */
export async function seededData(options: {
  kept: string | null;
  projectId: string;
  orders: number;
  log: (line: string) => void;
}): Promise<SeededData> {
  const { kept, projectId, orders, log } = options;
  const about = kept ? join(kept, 'seed.json') : null;
  if (about && existsSync(about)) {
    const seed = JSON.parse(readFileSync(about, 'utf8')) as Partial<SeededData> & {
      orders?: number;
      seededAt?: number;
      schema?: string;
    };
    if (
      seed.orders === orders &&
      seed.schema === SCHEMA_FINGERPRINT &&
      seed.projectId === projectId &&
      typeof seed.apiKey === 'string' &&
      Date.now() - (seed.seededAt ?? 0) < KEPT_FOR_MS
    ) {
      log(`reusing the seeded data in ${kept} (${orders.toLocaleString('en-US')} orders)`);
      return { dataDir: kept!, apiKey: seed.apiKey, projectId, kept: true };
    }
  }
  if (kept) {
    rmSync(kept, { recursive: true, force: true });
    mkdirSync(kept, { recursive: true });
  }
  const backend = await new LocalBackend({ projectId, ...(kept ? { dataDir: kept } : {}) }).start();
  try {
    const client = new Client()
      .setEndpoint(backend.endpoint)
      .setProject(backend.projectId)
      .setKey(backend.apiKey);
    log(`provisioning and seeding ${orders.toLocaleString('en-US')} orders…`);
    await new Provisioner(client).apply(schema);
    const seeder = new Seeder(client);
    await seeder.ensureCatalog();
    await seeder.ensureAccounts();
    // Over 29 days: every seeded order stays inside the desk's 30-day history while a run lasts.
    const { seconds } = await seeder.seedOrders(orders, { days: 29 });
    log(`seeded ${orders.toLocaleString('en-US')} orders in ${seconds.toFixed(1)} s`);
  } catch (error) {
    await backend.stop();
    throw error;
  }
  await backend.halt();
  if (about)
    writeFileSync(
      about,
      JSON.stringify({
        apiKey: backend.apiKey,
        projectId,
        orders,
        seededAt: Date.now(),
        schema: SCHEMA_FINGERPRINT,
      }),
    );
  return { dataDir: backend.dataDir, apiKey: backend.apiKey, projectId, kept: kept !== null };
}

/**
 * A backend on `seed`: on a copy of its folder (`copy`, by default for a kept one), else on the
 * folder itself, which is deleted when the backend stops.
 */
export async function startSeeded(
  seed: SeededData,
  options: { nice?: number; copy?: boolean } = {},
): Promise<StartedLocalBackend> {
  let dataDir = seed.dataDir;
  if (options.copy ?? seed.kept) {
    dataDir = mkdtempSync(join(tmpdir(), 'livedesk-seeded-'));
    cpSync(seed.dataDir, dataDir, { recursive: true });
  }
  return new LocalBackend({
    projectId: seed.projectId,
    apiKey: seed.apiKey,
    dataDir,
    nice: options.nice ?? 0,
  }).start();
}
