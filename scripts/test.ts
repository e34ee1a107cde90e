import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import type { TargetStatus } from './lib/target-status.ts';
import { PODMAN_SOCKET, preferPodmanSocket } from './lib/podman.ts';
import { CHROMIUM_PATH } from './lib/env.ts';
import { SUITE_ERRORS_FILE_VARIABLE, type SuiteErrors } from './lib/suite-errors-reporter.ts';
import { totalLine, vitestCounts, withSuiteErrors, type VitestReport } from './lib/test-report.ts';

/**
 * `npm test`: every check CI runs, in order, streaming each tool's output, then one table of
 * every stage with its counts (passed / failed / not run) and why anything did not run.
 *
 *   node scripts/test.ts                    # all stages
 *   node scripts/test.ts unit local         # only these stages (ids below)
 *   LIVEDESK_REQUIRE=container,e2e node scripts/test.ts
 *
 * A stage whose prerequisites are missing (no container engine, no registry, no Chromium) is
 * "not run", never "passed". On a stage that should run everything (unit, and the integration
 * suites on `local` and `container`, whose targets have every facility), a test that did not run
 * is a failure. The exit code is non-zero when a stage failed, or when a stage named in
 * `LIVEDESK_REQUIRE` (comma list of stage ids) did not run. The last line adds everything up:
 * `N passed, N failed, N not run` — Vitest's test counts, and one check for each stage without
 * tests (lint, typecheck, the checks). Stopped by SIGINT or SIGTERM, it stops the running stage,
 * counts the rest as not run and still prints the summary.
 */

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'node_modules/.bin');
const CHROMIUM = CHROMIUM_PATH;

type Outcome = 'passed' | 'failed' | 'not run';

interface StageResult {
  outcome: Outcome;
  passed?: number;
  failed?: number;
  notRun?: number;
  seconds: number;
  note?: string;
}

interface Stage {
  id: string;
  title: string;
  timeoutMs: number;
  /** The stage should run every test it has: one that did not run is a failure. */
  complete?: boolean;
  run: (stage: Stage) => Promise<Omit<StageResult, 'seconds'>>;
}

interface Run {
  code: number;
  output: string;
  timedOut: boolean;
}

let current: ReturnType<typeof spawn> | null = null;
/** The signal that stops the run, once one came. */
let stopping: NodeJS.Signals | null = null;

/** Runs a command with Node 24 and the project's tools first on PATH, streaming its output. */
function exec(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; timeoutMs: number },
): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [BIN, dirname(process.execPath), process.env.PATH].join(delimiter),
    ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
    ...options.env,
  };
  delete env.LIVEDESK_REQUIRE; // this runner enforces it, from the stages' outcomes
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    current = child;
    let output = '';
    const tee = (target: NodeJS.WriteStream) => (chunk: Buffer) => {
      target.write(chunk);
      output = (output + chunk.toString()).slice(-200_000);
    };
    child.stdout!.on('data', tee(process.stdout));
    child.stderr!.on('data', tee(process.stderr));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(
        `\n[test] ${command} ${args.join(' ')}: no result after ${options.timeoutMs / 60_000} min; stopping it`,
      );
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    child.once('error', (error) => {
      output += String(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      current = null;
      resolvePromise({ code: code ?? (signal ? 128 : 1), output, timedOut });
    });
  });
}

/**
 * Runs Vitest with its default reporter for people, its JSON reporter for the counts and one
 * for the errors of suites' hooks, which the JSON report leaves out.
 */
async function vitest(
  stage: Stage,
  args: string[],
  env: Record<string, string> = {},
): Promise<Omit<StageResult, 'seconds'>> {
  const work = mkdtempSync(join(tmpdir(), `livedesk-${stage.id}-`));
  const json = join(work, 'report.json');
  const statusFile = join(work, 'status.json');
  const suiteErrorsFile = join(work, 'suite-errors.json');
  try {
    const run = await exec(
      'vitest',
      [
        'run',
        ...args,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${json}`,
        `--reporter=${join(ROOT, 'scripts/lib/suite-errors-reporter.ts')}`,
      ],
      {
        env: {
          ...env,
          LIVEDESK_STATUS_FILE: statusFile,
          [SUITE_ERRORS_FILE_VARIABLE]: suiteErrorsFile,
        },
        timeoutMs: stage.timeoutMs,
      },
    );
    const suiteErrors: SuiteErrors = existsSync(suiteErrorsFile)
      ? (JSON.parse(readFileSync(suiteErrorsFile, 'utf8')) as SuiteErrors)
      : { byFile: {}, unhandled: [] };
    const reported = existsSync(json)
      ? withSuiteErrors(JSON.parse(readFileSync(json, 'utf8')) as VitestReport, suiteErrors)
      : null;
    const report = reported?.report ?? null;
    const status = existsSync(statusFile)
      ? (JSON.parse(readFileSync(statusFile, 'utf8')) as TargetStatus)
      : null;
    const counted = report ? vitestCounts(report, stage.complete === true) : null;
    const counts = counted
      ? { passed: counted.passed, failed: counted.failed, notRun: counted.notRun }
      : {};
    const countNotes = [...(counted?.notes ?? []), ...(reported?.notes ?? [])];
    if (status && !status.ran)
      return {
        outcome: 'not run',
        passed: 0,
        failed: 0,
        notRun: report?.numTotalTests ?? counts.notRun,
        note: status.reason,
      };
    const where = status?.detail ? `on ${status.detail}` : undefined;
    if (run.timedOut)
      return {
        outcome: 'failed',
        ...counts,
        note: `timed out after ${stage.timeoutMs / 60_000} min`,
      };
    if (status?.died)
      return {
        outcome: 'failed',
        ...counts,
        note: `the backend died: ${status.died.split('\n')[0]}`,
      };
    if (run.code !== 0 || (counted?.failed ?? 0) > 0) {
      return {
        outcome: 'failed',
        ...counts,
        note: [...(countNotes.length ? countNotes : [`vitest exited with code ${run.code}`]), where]
          .filter(Boolean)
          .join('; '),
      };
    }
    return {
      outcome: 'passed',
      ...counts,
      note: [
        ...countNotes,
        where,
        status?.provisioning ? `provisioning ${status.provisioning}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function commands(
  stage: Stage,
  steps: [string, string[]][],
): Promise<Omit<StageResult, 'seconds'>> {
  const failures: string[] = [];
  for (const [command, args] of steps) {
    console.log(`$ ${command} ${args.join(' ')}`);
    const run = await exec(command, args, { timeoutMs: stage.timeoutMs });
    if (run.code !== 0)
      failures.push(
        run.timedOut ? `${command} timed out` : `${command} failed (exit code ${run.code})`,
      );
  }
  return failures.length ? { outcome: 'failed', note: failures.join('; ') } : { outcome: 'passed' };
}

/** The names of the Vitest projects in vite.config.ts, or null when they cannot be read. */
async function vitestProjects(): Promise<string[] | null> {
  try {
    const config = (await import('../vite.config.ts')).default as {
      test?: { projects?: ({ test?: { name?: string } } | string)[] };
    };
    const projects = config.test?.projects;
    if (!projects) return null;
    return projects.map((project) =>
      typeof project === 'string' ? project : (project.test?.name ?? ''),
    );
  } catch {
    return null;
  }
}

function integration(
  kind: 'local' | 'container' | 'appwrite',
  title: string,
  timeoutMs: number,
): Stage {
  return {
    id: kind,
    title,
    timeoutMs,
    // The local backend, on the machine or in its image, has every facility the suites use.
    complete: kind !== 'appwrite',
    run: (stage) => vitest(stage, ['--project', 'integration'], { LIVEDESK_TARGET: kind }),
  };
}

/** Runs a check script that writes `{ran, passed, reason}` to `LIVEDESK_STATUS_FILE`: one check. */
async function statusCheck(
  stage: Stage,
  script: string,
  env: Record<string, string> = {},
): Promise<Omit<StageResult, 'seconds'>> {
  const work = mkdtempSync(join(tmpdir(), `livedesk-${stage.id}-`));
  const statusFile = join(work, 'status.json');
  try {
    const run = await exec(process.execPath, [script], {
      env: { ...env, LIVEDESK_STATUS_FILE: statusFile },
      timeoutMs: stage.timeoutMs,
    });
    const status = existsSync(statusFile)
      ? (JSON.parse(readFileSync(statusFile, 'utf8')) as {
          ran: boolean;
          passed: boolean;
          reason: string;
        })
      : null;
    if (!status)
      return {
        outcome: 'failed',
        passed: 0,
        failed: 1,
        notRun: 0,
        note: run.timedOut
          ? `timed out after ${stage.timeoutMs / 60_000} min`
          : `the check exited with code ${run.code} and no result`,
      };
    if (!status.ran) return { outcome: 'not run', notRun: 1, note: status.reason };
    return status.passed
      ? { outcome: 'passed', passed: 1, failed: 0, notRun: 0, note: status.reason }
      : { outcome: 'failed', passed: 0, failed: 1, notRun: 0, note: status.reason };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The keys of Stripe in test mode, which the `stripe` stage needs. */
const STRIPE_KEYS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'VITE_STRIPE_PUBLISHABLE_KEY'];

/** Those keys from the environment, else from `.env` (where the README says to put them). */
function stripeKeys(): Record<string, string> {
  const file = join(ROOT, '.env');
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  return Object.fromEntries(
    STRIPE_KEYS.map((key) => [key, (process.env[key] ?? fromFile[key] ?? '').trim()]),
  );
}

const STAGES: Stage[] = [
  {
    id: 'lint',
    title: 'lint (eslint, prettier)',
    timeoutMs: 10 * 60_000,
    run: (stage) =>
      commands(stage, [
        ['eslint', ['.']],
        ['prettier', ['--check', '.']],
      ]),
  },
  {
    id: 'typecheck',
    title: 'typecheck (tsc)',
    timeoutMs: 10 * 60_000,
    run: (stage) => commands(stage, [['tsc', ['--noEmit', '-p', '.']]]),
  },
  {
    id: 'unit',
    title: 'unit (unit, emulator)',
    timeoutMs: 10 * 60_000,
    complete: true,
    run: (stage) => vitest(stage, ['--project', 'unit', '--project', 'emulator']),
  },
  integration('local', 'integration on local', 40 * 60_000),
  integration('container', 'integration on container', 40 * 60_000),
  {
    id: 'container-kill',
    title: 'container killed mid-suite',
    timeoutMs: 5 * 60_000,
    run: (stage) =>
      statusCheck(stage, 'integration/checks/kill-mid-suite.ts', { LIVEDESK_TARGET: 'container' }),
  },
  integration('appwrite', 'integration on real Appwrite', 30 * 60_000),
  {
    id: 'stripe',
    title: 'the functions’ contract with Stripe (test mode)',
    timeoutMs: 10 * 60_000,
    complete: true,
    run: (stage) => {
      const keys = stripeKeys();
      const missing = STRIPE_KEYS.filter((key) => !keys[key]);
      if (missing.length)
        return Promise.resolve({
          outcome: 'not run' as const,
          note: `${missing.join(', ')} not set (in the environment or .env): it runs against Stripe in test mode only`,
        });
      return vitest(stage, ['--project', 'stripe-contract'], keys);
    },
  },
  {
    id: 'e2e',
    title: 'end-to-end (browser)',
    timeoutMs: 15 * 60_000,
    complete: true,
    run: async (stage) => {
      const projects = await vitestProjects();
      if (projects && !projects.includes('e2e'))
        return { outcome: 'not run', note: 'vite.config.ts has no Vitest project named "e2e" yet' };
      if (!existsSync(CHROMIUM))
        return {
          outcome: 'not run',
          note: `no Chromium at ${CHROMIUM} (Debian package "chromium"; .ci/run installs it)`,
        };
      return vitest(stage, ['--project', 'e2e']);
    },
  },
  {
    id: 'readme',
    title: "the README's npm start, in a clean copy (browser)",
    timeoutMs: 15 * 60_000,
    run: (stage) => statusCheck(stage, 'integration/checks/readme-start.ts'),
  },
];

function cell(value: number | undefined): string {
  return value === undefined ? '—' : String(value);
}

function printSummary(
  results: Map<Stage, StageResult>,
  required: Set<string>,
  seconds: number,
): void {
  const rows = [...results].map(([stage, result]) => [
    stage.id,
    stage.title,
    result.outcome === 'not run' && required.has(stage.id)
      ? 'NOT RUN (required)'
      : result.outcome.toUpperCase(),
    cell(result.passed),
    cell(result.failed),
    cell(result.notRun),
    `${result.seconds.toFixed(1)} s`,
  ]);
  const header = ['id', 'stage', 'result', 'passed', 'failed', 'not run', 'time'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (row: string[]) =>
    row
      .map((value, column) =>
        column >= 3 ? value.padStart(widths[column]!) : value.padEnd(widths[column]!),
      )
      .join('  ');
  console.log(`\n${'═'.repeat(72)}\nSummary (${seconds.toFixed(0)} s)\n`);
  console.log(line(header));
  console.log(widths.map((width) => '─'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
  const notes = [...results].filter(([, result]) => result.note);
  if (notes.length) {
    console.log('');
    for (const [stage, result] of notes) console.log(`${stage.id}: ${result.note}`);
  }

  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    const markdown = [
      `| ${header.join(' | ')} |`,
      `|${header.map(() => '---').join('|')}|`,
      ...rows.map((row) => `| ${row.join(' | ')} |`),
      '',
      ...notes.map(([stage, result]) => `- **${stage.id}**: ${result.note}`),
      '',
    ].join('\n');
    appendFileSync(summaryFile, markdown);
  }
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const ids = STAGES.map((stage) => stage.id);
  const unknown = wanted.filter((id) => !ids.includes(id));
  const required = new Set(
    (process.env.LIVEDESK_REQUIRE ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  );
  const unknownRequired = [...required].filter((id) => !ids.includes(id));
  if (unknown.length || unknownRequired.length) {
    console.error(
      `Unknown stage(s): ${[...unknown, ...unknownRequired].join(', ')}. Stages: ${ids.join(', ')}`,
    );
    return 2;
  }
  const stages = wanted.length ? STAGES.filter((stage) => wanted.includes(stage.id)) : STAGES;

  const podman = preferPodmanSocket();
  console.log(
    `[test] Node ${process.version}; container engine: ${
      podman
        ? `${podman} (podman's socket ${PODMAN_SOCKET}; set by scripts/test.ts)`
        : process.env.DOCKER_HOST
          ? `DOCKER_HOST=${process.env.DOCKER_HOST}`
          : existsSync('/var/run/docker.sock')
            ? 'the Docker socket /var/run/docker.sock'
            : 'none configured (no DOCKER_HOST, no /var/run/docker.sock, no podman socket)'
    }${required.size ? `; required stages: ${[...required].join(', ')}` : ''}`,
  );

  const started = Date.now();
  const results = new Map<Stage, StageResult>();
  for (const stage of stages) {
    if (stopping) {
      results.set(stage, {
        outcome: 'not run',
        seconds: 0,
        note: `not started: stopped by ${stopping}`,
      });
      continue;
    }
    console.log(`\n${'━'.repeat(72)}\n▶ ${stage.title} [${stage.id}]\n${'━'.repeat(72)}`);
    const stageStarted = Date.now();
    let result: Omit<StageResult, 'seconds'>;
    try {
      result = await stage.run(stage);
    } catch (error) {
      result = { outcome: 'failed', note: `the runner failed: ${(error as Error).message}` };
    }
    if (stopping) result = { ...result, outcome: 'failed', note: `stopped by ${stopping}` };
    const seconds = (Date.now() - stageStarted) / 1000;
    results.set(stage, { ...result, seconds });
    console.log(
      `\n◀ ${stage.id}: ${result.outcome.toUpperCase()} in ${seconds.toFixed(1)} s${result.note ? ` — ${result.note}` : ''}`,
    );
  }
  printSummary(results, required, (Date.now() - started) / 1000);

  const failed = [...results]
    .filter(([, result]) => result.outcome === 'failed')
    .map(([stage]) => stage.id);
  const missing = stages
    .filter((stage) => required.has(stage.id) && results.get(stage)?.outcome === 'not run')
    .map((stage) => stage.id);
  const notSelected = [...required].filter((id) => !stages.some((stage) => stage.id === id));
  const problems = [
    stopping ? `stopped by ${stopping}` : '',
    failed.length ? `failed: ${failed.join(', ')}` : '',
    missing.length ? `required but not run: ${missing.join(', ')}` : '',
    notSelected.length ? `required but not selected: ${notSelected.join(', ')}` : '',
  ].filter(Boolean);
  console.log(problems.length ? `\nRESULT: FAILED (${problems.join('; ')})` : '\nRESULT: OK');
  console.log(totalLine([...results.values()]));
  if (stopping) return stopping === 'SIGINT' ? 130 : 143;
  return problems.length ? 1 : 0;
}

/**
 * SIGINT or SIGTERM: the running stage's process group gets SIGTERM (SIGKILL 10 s later if it is
 * still there); the loop then counts it as failed, the rest as not run, and prints the summary.
 * A second signal exits at once.
 */
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
    stopping = signal;
    console.error(`\n[test] ${signal}: stopping the running stage, then the summary`);
    const group = current?.pid;
    if (!group) return;
    const kill = (name: NodeJS.Signals) => {
      try {
        process.kill(-group, name);
      } catch {
        // already gone
      }
    };
    kill('SIGTERM');
    setTimeout(() => kill('SIGKILL'), 10_000).unref();
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
