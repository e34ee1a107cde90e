import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Databases, Query } from 'node-appwrite';
import { chromium, type Browser, type Page } from 'playwright-core';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import { CHROMIUM_ARGS } from '../../scripts/lib/cdp.ts';
import { DEMO_PASSWORD } from '../../scripts/lib/demo-data.ts';
import { CHROMIUM_PATH } from '../../scripts/lib/env.ts';
import { listProcesses, processesOf, type ProcessInfo } from '../../scripts/lib/processes.ts';
import { leftForPeople, PEOPLE_GRACE_MS } from '../../scripts/lib/simulator.ts';

/**
 * The README's run command, as a newcomer runs it: a clean copy of the repository (its tracked
 * files, as they are in the working tree), `npm start` in it with no `.env` (so it makes the
 * default one from `.env.example`, relative paths and all), on the default ports 8787 and 5173.
 * Then, in Chromium, Ana (staff) claims a paid order, starts it and marks it ready while the
 * manager, signed in in another browser context, sees it move; then Ctrl-C (SIGINT to the
 * process group) and no process of the run may be left; then `npm start` once more, stopped with
 * SIGTERM to its node process alone, and again no process may be left.
 *
 *   node integration/checks/readme-start.ts [--npm-ci] [--keep]
 *
 * `node_modules` is copied from this checkout as hard links (what `npm ci` makes of the same
 * package-lock.json, in a second instead of a minute, with no registry); `--npm-ci` runs the
 * README's `npm ci` in the copy instead. `--keep` keeps the copy. Writes `{ran, passed, reason}`
 * to `LIVEDESK_STATUS_FILE` when set (for scripts/test.ts).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const PORTS = { backend: 8787, app: 5173 };
const START_TIMEOUT_MS = 6 * 60_000;
const STEP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** Settings a newcomer's shell does not have; they must not leak from the runner into the copy. */
const FOREIGN_ENV =
  /^(npm_|APPWRITE_|BACKEND_|VITE_|LIVEDESK_|SEED_ORDERS$|SIMULATE_RATE$|APP_PORT$)/;

interface CheckStatus {
  ran: boolean;
  passed: boolean;
  reason: string;
}

function report(status: CheckStatus): never {
  const file = process.env.LIVEDESK_STATUS_FILE;
  if (file) writeFileSync(file, `${JSON.stringify(status)}\n`);
  const verdict = !status.ran ? 'NOT RUN' : status.passed ? 'PASSED' : 'FAILED';
  console.log(`[readme-start] ${verdict}: ${status.reason}`);
  process.exit(status.ran && !status.passed ? 1 : 0);
}

function say(line: string): void {
  console.log(`[readme-start] ${line}`);
}

/** Why a port on 127.0.0.1 cannot be listened on, or null when it is free. */
function portProblem(port: number): Promise<string | null> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      resolvePromise(error.code === 'EADDRINUSE' ? 'in use' : error.message),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(null)));
  });
}

/** Copies the tracked files of `root` (as they are in the working tree) into `dest`. */
function copyTrackedFiles(root: string, dest: string): number {
  const files = execFileSync('git', ['-C', root, 'ls-files', '-z', '--cached'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\0')
    .filter(Boolean);
  let copied = 0;
  for (const file of files) {
    const from = join(root, file);
    const stat = lstatSync(from, { throwIfNoEntry: false });
    if (!stat) continue; // deleted in the working tree, not yet committed
    const to = join(dest, file);
    mkdirSync(dirname(to), { recursive: true });
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else copyFileSync(from, to);
    copied++;
  }
  return copied;
}

/** The environment of a newcomer's shell: no project settings, no project tools on PATH. */
function newcomerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!FOREIGN_ENV.test(name)) env[name] = value;
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => entry && !entry.startsWith(`${ROOT}/`))
    .join(delimiter);
  return env;
}

/** The lines each run has printed so far. */
const printed = new WeakMap<ChildProcess, string[]>();

/** Runs `command` in `cwd` as the README says, in a process group of its own. */
function run(command: string, cwd: string, log: NodeJS.WritableStream): ChildProcess {
  const child = spawn('/bin/sh', ['-c', command], {
    cwd,
    env: newcomerEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  printed.set(child, lines);
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => {
      log.write(chunk);
      for (const line of chunk.toString().split('\n'))
        if (line) {
          lines.push(line);
          console.log(`  │ ${line}`);
        }
    });
  return child;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise(code)));
}

/** Waits until `child` prints a line matching `pattern`; fails when it exits first or takes too long. */
function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs: number,
): Promise<RegExpExecArray> {
  return new Promise((resolvePromise, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`no line matching ${pattern} within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-20_000);
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (code ${code}) before printing ${pattern}`));
    });
  });
}

/** Reads `KEY=value` lines of a .env file. */
function readEnvFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) out[match[1]!] = match[2]!;
  }
  return out;
}

/**
 * A paid order nobody holds that the demo traffic leaves to people and will not take while the
 * check works on it (paid within the last minutes), as the API key reads them.
 */
async function orderLeftForPeople(
  env: Record<string, string>,
  except: readonly string[] = [],
): Promise<{ id: string; number: number }> {
  const databases = new Databases(
    new Client()
      .setEndpoint(env.APPWRITE_ENDPOINT!)
      .setProject(env.APPWRITE_PROJECT_ID!)
      .setKey(env.APPWRITE_API_KEY!),
  );
  const deadline = Date.now() + 3 * 60_000;
  while (Date.now() < deadline) {
    const { documents } = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [
        Query.equal('status', 'paid'),
        Query.isNull('assigneeId'),
        Query.orderDesc('paidAt'),
        Query.limit(100),
      ],
    });
    const order = (documents as unknown as { $id: string; number: number; paidAt: string }[]).find(
      (doc) =>
        !except.includes(doc.$id) &&
        leftForPeople(doc.$id) &&
        Date.now() - Date.parse(doc.paidAt) < PEOPLE_GRACE_MS - 90_000,
    );
    if (order) return { id: order.$id, number: order.number };
    await sleep(2_000);
  }
  throw new Error('no paid order left for people appeared within 3 minutes of demo traffic');
}

async function signIn(browser: Browser, appUrl: string, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${email}] page error: ${error.message}`));
  await page.goto(`${appUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  return page;
}

/** Clicks an action in the open drawer and waits for `done`, failing at once on the desk's error. */
async function act(page: Page, action: string, done: () => Promise<void>): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: action, exact: true }).click();
  const error = page.getByTestId('action-error');
  const failed = error.waitFor({ timeout: STEP_TIMEOUT_MS }).then(
    async () => {
      throw new Error(`"${action}" failed on the desk: ${(await error.innerText()).trim()}`);
    },
    // No error shown: `done` decides (and times out by itself).
    () => new Promise<never>(() => {}),
  );
  await Promise.race([done(), failed]);
}

/**
 * The walk through the desk on two screens: Ana claims an order, starts it, marks it ready and
 * hands it over while the manager's table shows each step; then the manager cancels a second order
 * while Ana's table shows it. Each step is timed from the click to the other screen showing it.
 */
async function walkThrough(
  appUrl: string,
  order: { id: string; number: number },
  second: { id: string; number: number },
): Promise<string> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const ana = await signIn(browser, appUrl, 'ana@livedesk.test');
    const manager = await signIn(browser, appUrl, 'manager@livedesk.test');
    say(
      `signed in as ana@livedesk.test and manager@livedesk.test; orders #${order.number}, #${second.number}`,
    );
    const rowOn = (page: Page, number: number) =>
      page.locator(`[data-testid="order-row"][data-order-number="${number}"]`);
    await manager.goto(`${appUrl}/orders?q=${order.number}`);
    const row = rowOn(manager, order.number);
    await row.filter({ hasText: 'Paid' }).waitFor({ timeout: STEP_TIMEOUT_MS });

    await ana.goto(`${appUrl}/orders/${order.id}?view=board`);
    await ana.getByRole('dialog').getByTestId('assignee').waitFor({ timeout: STEP_TIMEOUT_MS });
    // Ana's own screen changes at once (optimistically); the other screen only once the backend
    // took the change: each step is done when the other screen shows it.
    const steps: string[] = [];
    const timed = async (label: string, page: Page, action: string, seen: () => Promise<void>) => {
      const clicked = Date.now();
      await act(page, action, seen);
      steps.push(`${label} ${Date.now() - clicked} ms`);
    };
    const seenOn = (target: ReturnType<typeof rowOn>, text: string) => () =>
      target.filter({ hasText: text }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await timed('claim', ana, 'Claim', seenOn(row, 'Ana Silva'));
    await timed('start', ana, 'Start preparing', seenOn(row, 'Preparing'));
    await timed('ready', ana, 'Mark ready', seenOn(row, 'Ready'));
    await timed('hand over', ana, 'Hand over', seenOn(row, 'Done'));

    await ana.goto(`${appUrl}/orders?q=${second.number}`);
    const anaRow = rowOn(ana, second.number);
    await anaRow.filter({ hasText: 'Paid' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await manager.goto(`${appUrl}/orders/${second.id}?view=board`);
    const drawer = manager.getByRole('dialog');
    await drawer.getByRole('button', { name: /^Cancel (order|with refund)$/ }).click();
    await timed('cancel (manager)', manager, 'Yes, cancel', seenOn(anaRow, 'Canceled'));
    return `orders #${order.number} and #${second.number} through the desk; click → the other screen: ${steps.join(', ')}`;
  } finally {
    await browser.close();
  }
}

/** The `node scripts/start.ts` process of a run (npm's shell and npm itself are its parents). */
function startProcessOf(group: number, folder: string): ProcessInfo | undefined {
  return processesOf(listProcesses(), group, folder).find((info) =>
    /^\S*node\s.*scripts\/start\.ts/.test(info.command),
  );
}

/**
 * Stops a run and returns what it left: `ctrl-c` is SIGINT to the whole process group (a terminal's
 * Ctrl-C); `sigterm` is SIGTERM to `npm start`'s own node process alone (`kill`, a process manager),
 * which has to stop what it started itself. No process of the run may be left either way.
 */
async function stop(
  child: ChildProcess,
  folder: string,
  how: 'ctrl-c' | 'sigterm' = 'ctrl-c',
): Promise<ProcessInfo[]> {
  const group = child.pid!;
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // gone
    }
  };
  const start = how === 'sigterm' ? startProcessOf(group, folder) : undefined;
  if (how === 'sigterm' && !start) throw new Error('no node process of npm start to send SIGTERM');
  if (start) signal(start.pid, 'SIGTERM');
  else signal(-group, 'SIGINT');
  const exited = await Promise.race([
    exitOf(child).then(() => true),
    sleep(STOP_TIMEOUT_MS).then(() => false),
  ]);
  if (!exited)
    say(
      `npm start did not exit within ${STOP_TIMEOUT_MS / 1000} s of ${start ? 'SIGTERM' : 'SIGINT'}`,
    );
  // Children that are still shutting down get the same 30 s.
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  let left = processesOf(listProcesses(), group, folder);
  while (left.length && Date.now() < deadline) {
    await sleep(250);
    left = processesOf(listProcesses(), group, folder);
  }
  for (const info of left) {
    try {
      process.kill(info.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  return left;
}

async function main(): Promise<void> {
  const npmCi = process.argv.includes('--npm-ci');
  const keep = process.argv.includes('--keep');
  if (!existsSync(CHROMIUM_PATH))
    report({ ran: false, passed: false, reason: `no Chromium at ${CHROMIUM_PATH}` });
  if (!existsSync(join(ROOT, '.git')))
    report({
      ran: false,
      passed: false,
      reason: `${ROOT} is not a git checkout (no tracked files to copy)`,
    });
  for (const [what, port] of Object.entries(PORTS)) {
    const problem = await portProblem(port);
    if (problem)
      report({
        ran: true,
        passed: false,
        reason: `port ${port} (the ${what}'s default) is ${problem}: the README check runs npm start on the default ports; stop what uses it first`,
      });
  }

  const work = mkdtempSync(join(tmpdir(), 'livedesk-readme-'));
  const copy = join(work, 'livedesk');
  const logFile = join(work, 'npm-start.log');
  let child: ChildProcess | null = null;
  let outcome: CheckStatus;
  try {
    const files = copyTrackedFiles(ROOT, copy);
    say(`clean copy: ${files} tracked files in ${copy}`);
    const log = createWriteStream(logFile);
    let command = 'npm start';
    if (npmCi) command = 'npm ci && npm start';
    else {
      execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(copy, 'node_modules')]);
      rmSync(join(copy, 'node_modules/.vite'), { recursive: true, force: true });
      say('node_modules: hard links to this checkout’s (what npm ci makes of the same lock file)');
    }
    say(`$ ${command}   (in ${copy}, no .env)`);
    child = run(command, copy, log);
    const running = await waitForLine(
      child,
      /Livedesk is running: (http:\/\/\S+?)\/?\s/,
      START_TIMEOUT_MS,
    );
    const appUrl = running[1]!.replace(/\/$/, '');
    const env = readEnvFile(join(copy, '.env'));
    if (env.BACKEND_DATA_DIR !== '.data/backend')
      throw new Error(
        `the .env npm start made names BACKEND_DATA_DIR=${env.BACKEND_DATA_DIR}, not .env.example's relative .data/backend`,
      );
    say(`app at ${appUrl}; .env made from .env.example (BACKEND_DATA_DIR=${env.BACKEND_DATA_DIR})`);
    const order = await orderLeftForPeople(env);
    const second = await orderLeftForPeople(env, [order.id]);
    const walked = await walkThrough(appUrl, order, second);
    say(walked);
    const leftOf = (left: ProcessInfo[]) =>
      left.map((info) => `${info.pid} ${info.command.slice(0, 120)}`).join('; ');
    const before = printed.get(child)!.length;
    const left = await stop(child, copy);
    // The demo traffic stops before the backend: nothing cut off mid-way says it failed.
    const complaints = printed
      .get(child)!
      .slice(before)
      .filter((line) => /error|fail|\b5\d\d\b/i.test(line));
    child = null;
    if (left.length) throw new Error(`processes left after Ctrl-C (killed now): ${leftOf(left)}`);
    if (complaints.length)
      throw new Error(`Ctrl-C made npm start print: ${complaints.join(' / ')}`);
    say('Ctrl-C left no process behind; npm start again, to be stopped with SIGTERM');
    child = run('npm start', copy, log);
    await waitForLine(child, /Livedesk is running: /, START_TIMEOUT_MS);
    const leftByTerm = await stop(child, copy, 'sigterm');
    child = null;
    outcome = leftByTerm.length
      ? {
          ran: true,
          passed: false,
          reason: `processes left after SIGTERM to npm start's node (killed now): ${leftOf(leftByTerm)}`,
        }
      : {
          ran: true,
          passed: true,
          reason: `${walked}; Ctrl-C, and SIGTERM to npm start's node, left no process behind`,
        };
  } catch (error) {
    outcome = { ran: true, passed: false, reason: (error as Error).message.split('\n')[0]! };
  } finally {
    if (child) await stop(child, copy);
    if (keep) say(`the copy is kept in ${work} (npm start's output: ${logFile})`);
    else rmSync(work, { recursive: true, force: true });
  }
  report(outcome);
}

void main().catch((error: unknown) =>
  report({ ran: true, passed: false, reason: `the check failed: ${(error as Error).message}` }),
);
