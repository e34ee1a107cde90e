import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { machineLine, recordEntry } from './lib/bench-record.ts';
import { numberArg, parseArgs } from './lib/env.ts';
import { withNice } from './lib/nice.ts';
import { stopDescendantsOnSignal, treeCpuSeconds } from './lib/processes.ts';
import { seededData, startSeeded } from './lib/seeded-data.ts';

stopDescendantsOnSignal();

/**
 * `npm run bench:simulator -- [--orders 100000] [--rate 1000] [--duration 20] [--runs 2]
 * [--before DIR] [--also-unbatched] [--traffic-nice 0] [--data DIR] [--no-record]`
 *
 * What `npm run simulate` achieves against a local backend seeded as `bench:ui` seeds it
 * (`--orders` over 29 days, the whole schema with its functions): the data folder is seeded once,
 * and every run gets a copy of it and a backend of its own. Per run: the rate the simulator
 * printed, its conflicts and errors, and the CPU seconds (user + system) of the simulator and of
 * the backend with its function runtimes. `--before DIR`: a checkout of another commit whose
 * `scripts/simulate.ts` runs alternated with this tree's (same data, same settings);
 * `--also-unbatched`: this tree's with `--no-batch` too (a transaction per change). `--data DIR`:
 * keep the seeded folder there and reuse it next time (seeding 100,000 orders takes minutes).
 * Appends the results to docs/benchmarks.md (section "Simulator").
 */

const ROOT = resolve(import.meta.dirname, '..');
const INTRO =
  '`npm run bench:simulator` (scripts/bench-simulator.ts): what `npm run simulate` achieves against a seeded local backend.';
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const log = (line: string) => console.log(`[bench:simulator] ${line}`);

interface RunResult {
  label: string;
  achieved: number;
  summary: string;
  simulatorCpu: number;
  backendCpu: number;
  load: number;
}

/** Runs `simulate.ts` of `dir` and answers its last line and its CPU seconds. */
async function simulate(
  dir: string,
  env: Record<string, string>,
  rate: number,
  duration: number,
  nice: number,
  extra: readonly string[],
): Promise<{ summary: string; cpu: number }> {
  // The shell waits for the simulator, so its own `cutime + cstime` are the simulator's CPU.
  const script = `"$@"; status=$?; echo "CPU $(cut -d' ' -f16,17 /proc/$$/stat)"; exit $status`;
  const command = withNice(nice, [
    process.execPath,
    '--disable-warning=ExperimentalWarning',
    join(dir, 'scripts/simulate.ts'),
    '--rate',
    String(rate),
    '--duration',
    String(duration),
    '--quiet',
    ...extra,
  ]);
  const child = spawn('sh', ['-c', script, 'sh', ...command], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number>((done) => child.once('exit', (c) => done(c ?? 1)));
  const lines = output.trim().split('\n');
  const cpuLine = /^CPU (\d+) (\d+)$/.exec(lines.at(-1) ?? '');
  const summary = lines.findLast((line) => line.startsWith('Done:')) ?? lines.join(' / ');
  if (code !== 0) log(`simulator exited with code ${code}: ${summary}`);
  return { summary, cpu: cpuLine ? (Number(cpuLine[1]) + Number(cpuLine[2])) / 100 : NaN };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const orders = numberArg(args, 'orders', 100_000, { min: 1, max: 1_000_000 });
  const rate = numberArg(args, 'rate', 1000, { min: 1, max: 20_000 });
  const duration = numberArg(args, 'duration', 20, { min: 2, max: 600 });
  const runs = numberArg(args, 'runs', 2, { min: 1, max: 20 });
  const nice = numberArg(args, 'traffic-nice', 0, { min: 0, max: 19 });
  const before = args.get('before');
  if (before !== undefined && (before === true || !existsSync(join(before, 'scripts/simulate.ts'))))
    throw new Error('--before needs a folder holding scripts/simulate.ts');
  const simulators = [
    { label: 'this tree', dir: ROOT, extra: [] as string[] },
    ...(args.has('also-unbatched')
      ? [{ label: 'this tree, --no-batch', dir: ROOT, extra: ['--no-batch'] }]
      : []),
    ...(typeof before === 'string' ? [{ label: 'before', dir: resolve(before), extra: [] }] : []),
  ];
  log(`${machineLine()}; load average ${loads()}`);

  const projectId = 'livedesk-bench-simulator';
  const kept = typeof args.get('data') === 'string' ? resolve(args.get('data') as string) : null;
  const seed = await seededData({ kept, projectId, orders, log });
  try {
    const results: RunResult[] = [];
    for (let run = 0; run < runs; run++) {
      const order = run % 2 === 0 ? simulators : [...simulators].reverse();
      for (const { label, dir, extra } of order) {
        await using backend = await startSeeded(seed, { nice, copy: true });
        await sleep(1000);
        const backendBefore = treeCpuSeconds(backend.pid!);
        const { summary, cpu } = await simulate(
          dir,
          {
            APPWRITE_ENDPOINT: backend.endpoint,
            APPWRITE_PROJECT_ID: projectId,
            APPWRITE_API_KEY: seed.apiKey,
          },
          rate,
          duration,
          nice,
          extra,
        );
        const backendCpu = treeCpuSeconds(backend.pid!) - backendBefore;
        const achieved = Number(/\(([\d.]+)\/s;/.exec(summary)?.[1] ?? NaN);
        const result = {
          label,
          achieved,
          summary,
          simulatorCpu: cpu,
          backendCpu,
          load: loadavg()[0]!,
        };
        results.push(result);
        log(
          `${label}: ${achieved.toFixed(1)}/s of ${rate}; CPU simulator ${cpu.toFixed(1)} s, backend + runtimes ${backendCpu.toFixed(1)} s; load ${loads()}\n    ${summary}`,
        );
      }
    }

    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const table = [
      `| run | simulator | achieved (asked ${rate}/s) | CPU s: simulator / backend + runtimes | load (1 min) after | simulator's summary |`,
      '|---|---|---|---|---|---|',
      ...results.map(
        (r, i) =>
          `| ${Math.floor(i / simulators.length) + 1} | ${r.label} | ${r.achieved.toFixed(1)}/s | ${r.simulatorCpu.toFixed(1)} / ${r.backendCpu.toFixed(1)} | ${r.load.toFixed(2)} | ${r.summary.replace(/^Done: /, '')} |`,
      ),
    ].join('\n');
    const entry = `### ${date} UTC · ${machineLine()} · ${orders.toLocaleString('en-US')} orders, ${duration} s a run, traffic at nice ${nice}\n\nLoad average ${loads()} at the end. The CPU of a run covers the simulator's start (reading the open orders) too.\n\n${table}\n`;
    console.log(`\n${entry}`);
    if (!args.has('no-record')) recordEntry('Simulator', entry, INTRO);
  } finally {
    if (!seed.kept) rmSync(seed.dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(
    `bench:simulator failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
