/**
 * Benchmarks the CSV export: a throwaway local backend provisioned by the provisioner, --orders
 * demo orders (100,000 by default) of the last 30 days, and the demo manager exporting them all
 * through `export-orders` (a synchronous call that queues it; the record's event runs it).
 * Measured: the time from the call to the finished file as a realtime subscriber sees it, the
 * progress updates it sees (how many, the longest gap between two while running), and the peak
 * resident memory of the function's runtime processes (read from /proc: VmRSS sampled every
 * 20 ms and their VmHWM). The CSV is downloaded and its rows counted. --runs exports one after
 * another (the first starts the runtime process). Appends a section to docs/benchmarks.md unless
 * --no-record. Targets (issue 18): ≤ 10 s to the file, an update at least every second, ≤ 200 MB.
 *
 *   npm run bench:export -- [--orders 100000] [--runs 2] [--no-record]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Client, Databases, Functions, ID, Storage, Teams, Users } from 'node-appwrite';
import WebSocket from 'ws';
import { BUCKETS, COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../domain/ids.ts';
import { DEMO_ACCOUNTS } from './lib/demo-data.ts';
import { LocalBackend } from './lib/local-backend.ts';
import { Provisioner } from './lib/provisioner.ts';
import { Seeder } from './lib/seeder.ts';
import { schema } from './schema.ts';
import { machineLine, recordEntry } from './lib/bench-record.ts';
import { median } from './lib/stats.ts';
import { processMemory } from './lib/process-memory.ts';
import { stopDescendantsOnSignal } from './lib/processes.ts';

stopDescendantsOnSignal();

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '2' },
    'no-record': { type: 'boolean', default: false },
  },
});
const ORDERS = Number(args.orders);
const RUNS = Number(args.runs);
const DAY = 24 * 3600_000;

/** The runtime processes of a deployment: the backend's children running its build folder. */
function runtimeProcesses(deploymentId: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(deploymentId) && cmdline.includes('runtime-host'))
        pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

interface RunResult {
  seconds: number;
  functionSeconds: number;
  updates: number;
  maxGapSeconds: number;
  peakRssMb: number;
  peakHwmMb: number;
  rows: number;
}

async function exportOnce(
  endpoint: string,
  projectId: string,
  session: string,
  deploymentId: string,
  api: Client,
): Promise<RunResult> {
  const exportId = ID.unique();
  const socket = new WebSocket(
    `${endpoint.replace(/^http/, 'ws')}/realtime?project=${projectId}&channels[]=databases.${DATABASE_ID}.collections.${COLLECTIONS.exports}.documents.${exportId}`,
    { headers: { 'x-appwrite-session': session } },
  );
  await new Promise<void>((ready, fail) => {
    socket.once('message', () => ready());
    socket.once('error', fail);
  });
  const updates: { at: number; status: string; rowCount: number }[] = [];
  let finish: (at: number) => void = () => {};
  const finished = new Promise<number>((resolveFinish) => (finish = resolveFinish));
  socket.on('message', (raw: Buffer) => {
    const message = JSON.parse(raw.toString()) as {
      type: string;
      data?: { payload?: { status: string; rowCount: number } };
    };
    const payload = message.data?.payload;
    if (message.type !== 'event' || !payload) return;
    const at = performance.now();
    updates.push({ at, status: payload.status, rowCount: payload.rowCount });
    if (payload.status === 'done' || payload.status === 'failed') finish(at);
  });

  let peakRssMb = 0;
  const sampler = setInterval(() => {
    for (const pid of runtimeProcesses(deploymentId))
      peakRssMb = Math.max(peakRssMb, processMemory(pid)?.rssMb ?? 0);
  }, 20);
  const user = new Client().setEndpoint(endpoint).setProject(projectId).setSession(session);
  const started = performance.now();
  const execution = await new Functions(user).createExecution({
    functionId: FUNCTIONS.exportOrders,
    body: JSON.stringify({
      exportId,
      filter: {
        statuses: [],
        createdFrom: new Date(Date.now() - 31 * DAY).toISOString(),
        createdBefore: null,
        assignee: 'any',
      },
    }),
  });
  if (execution.responseStatusCode !== 200)
    throw new Error(`export-orders refused: ${execution.responseBody}`);
  const done = await finished;
  clearInterval(sampler);
  const peakHwmMb = Math.max(
    0,
    ...runtimeProcesses(deploymentId).map((pid) => processMemory(pid)?.peakMb ?? 0),
  );
  socket.close();
  const last = updates.at(-1)!;
  if (last.status !== 'done') throw new Error(`export failed: ${JSON.stringify(last)}`);
  const running = updates.filter((u) => u.status === 'running' || u.status === 'done');
  let maxGap = 0;
  for (let i = 1; i < running.length; i++)
    maxGap = Math.max(maxGap, running[i]!.at - running[i - 1]!.at);
  const record = await new Databases(api).getDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.exports,
    documentId: exportId,
  });
  const csv = Buffer.from(
    await new Storage(api).getFileDownload({ bucketId: BUCKETS.exports, fileId: exportId }),
  ).toString('utf8');
  const rows = csv.split('\n').filter((line) => line.length > 0).length - 1;
  return {
    seconds: (done - started) / 1000,
    functionSeconds: (Date.parse(record.$updatedAt) - Date.parse(record.$createdAt)) / 1000,
    updates: running.length,
    maxGapSeconds: maxGap / 1000,
    peakRssMb,
    peakHwmMb,
    rows: last.rowCount === rows ? rows : -rows,
  };
}

async function main(): Promise<void> {
  const backend = await new LocalBackend({ projectId: 'livedesk-bench-export' }).start();
  try {
    const api = new Client()
      .setEndpoint(backend.endpoint)
      .setProject(backend.projectId)
      .setKey(backend.apiKey);
    await new Provisioner(api).apply(schema);
    const seeder = new Seeder(api);
    await seeder.ensureCatalog();
    await seeder.ensureAccounts();
    const seeding = Date.now();
    await seeder.seedOrders(ORDERS, { days: 30 });
    console.log(`seeded ${ORDERS} orders in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);
    const manager = DEMO_ACCOUNTS.find((a) => a.role === 'manager')!;
    const { memberships } = await new Teams(api).listMemberships({ teamId: DESK_TEAM_ID });
    const userId = memberships.find((m) => m.userEmail === manager.email)!.userId;
    const session = (await new Users(api).createSession({ userId })).secret;
    const { deploymentId } = await new Functions(api).get({ functionId: FUNCTIONS.exportOrders });

    const loadBefore = loadavg()[0]!;
    const results: RunResult[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const result = await exportOnce(
        backend.endpoint,
        backend.projectId,
        session,
        deploymentId,
        api,
      );
      if (result.rows !== ORDERS)
        throw new Error(
          `the CSV has ${Math.abs(result.rows)} rows (the record says otherwise when negative), expected ${ORDERS}`,
        );
      console.log(`run ${run}: ${JSON.stringify(result)}`);
      results.push(result);
    }
    const loadAfter = loadavg()[0]!;
    const column = (pick: (r: RunResult) => number, digits = 1) =>
      [
        ...results.map((r) => pick(r).toFixed(digits)),
        median(results.map(pick)).toFixed(digits),
      ].join(' | ');
    const head = `| metric | ${results.map((_, i) => `run ${i + 1}`).join(' | ')} | median | target |`;
    const table = [
      head,
      `|${'---|'.repeat(results.length + 3)}`,
      `| call → finished file (realtime) | ${column((r) => r.seconds, 2)} s | ≤ 10 s |`,
      `| the function's run (record created → done) | ${column((r) => r.functionSeconds, 2)} s | |`,
      `| progress updates seen (running → done) | ${column((r) => r.updates, 0)} | |`,
      `| longest gap between updates | ${column((r) => r.maxGapSeconds, 2)} s | ≤ 1 s |`,
      `| runtime peak RSS (sampled every 20 ms) | ${column((r) => r.peakRssMb, 0)} MB | ≤ 200 MB |`,
      `| runtime VmHWM after the export | ${column((r) => r.peakHwmMb, 0)} MB | ≤ 200 MB |`,
    ].join('\n');
    const section = [
      '',
      `### ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${machineLine()} · ${ORDERS.toLocaleString('en-US')} orders`,
      '',
      `Load average (1 min) ${loadBefore.toFixed(2)} before the first run, ${loadAfter.toFixed(2)} after the last. Every CSV had ${ORDERS.toLocaleString('en-US')} rows.`,
      '',
      table,
      '',
    ].join('\n');
    console.log(section);
    if (!args['no-record']) recordEntry('Exports', section);
  } finally {
    await backend.stop();
  }
}

await main();
