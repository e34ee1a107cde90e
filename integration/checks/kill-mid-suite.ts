import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { containerEngine } from '../targets/engine.ts';
import { selectTarget, targetKind } from '../targets/select.ts';
import type { TargetStatus } from '../../scripts/lib/target-status.ts';

/**
 * Checks that a backend killed in the middle of a suite makes the run fail with a clear message
 * within {@link BOUND_SECONDS}, instead of hanging: runs `long-running.check.ts` (a test that
 * tolerates errors, as a reconnecting client does, so only the watchdog can end it early) on the
 * target of `LIVEDESK_TARGET` (default `container`), kills the backend (SIGKILL) once the test
 * runs, and asserts that Vitest exits non-zero, soon, saying the backend died.
 *
 *   node integration/checks/kill-mid-suite.ts [--freeze]
 *
 * Writes `{ran, passed, reason, seconds}` to `LIVEDESK_STATUS_FILE` when set (for scripts/test.ts).
 */
const BOUND_SECONDS = 30;
const ROOT = resolve(import.meta.dirname, '../..');
const FATAL = 'FATAL: the backend died during the run';

interface CheckStatus {
  ran: boolean;
  passed: boolean;
  reason: string;
  seconds?: number;
}

function report(status: CheckStatus): never {
  const file = process.env.LIVEDESK_STATUS_FILE;
  if (file) writeFileSync(file, `${JSON.stringify(status)}\n`);
  const verdict = !status.ran ? 'NOT RUN' : status.passed ? 'PASSED' : 'FAILED';
  console.log(`[kill-mid-suite] ${verdict}: ${status.reason}`);
  process.exit(status.ran && !status.passed ? 1 : 0);
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolvePromise) => setTimeout(resolvePromise, ms));
}

/** `--freeze`: freeze the backend (pause, SIGSTOP) instead of killing it: only health checks can tell. */
const FREEZE = process.argv.includes('--freeze');
const ACTION = FREEZE ? 'froze' : 'killed';

async function kill(status: TargetStatus): Promise<string> {
  if (status.kind === 'container') {
    const id = /container ([0-9a-f]{12})/.exec(status.detail ?? '')?.[1];
    if (!id) throw new Error(`no container id in "${status.detail}"`);
    const { client } = await containerEngine();
    const container = client.container.dockerode.getContainer(id);
    if (FREEZE) await container.pause();
    else await container.kill({ signal: 'SIGKILL' });
    return `container ${id}`;
  }
  const pid = Number(/process (\d+)/.exec(status.detail ?? '')?.[1]);
  if (!pid) throw new Error(`no process id in "${status.detail}"`);
  process.kill(pid, FREEZE ? 'SIGSTOP' : 'SIGKILL');
  return `process ${pid}`;
}

async function check(): Promise<CheckStatus> {
  const kind = targetKind(process.env.LIVEDESK_TARGET || 'container');
  if (kind !== 'container' && kind !== 'local')
    return {
      ran: false,
      passed: false,
      reason: `only the local and container targets can be killed (not ${kind})`,
    };
  const unavailable = await (await selectTarget(kind)).unavailableReason();
  if (unavailable)
    return { ran: false, passed: false, reason: `target "${kind}" not available: ${unavailable}` };

  const work = mkdtempSync(join(tmpdir(), 'livedesk-kill-check-'));
  const statusFile = join(work, 'status.json');
  const marker = join(work, 'started');
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'integration/checks/vitest.config.ts',
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        LIVEDESK_TARGET: kind,
        LIVEDESK_STATUS_FILE: statusFile,
        LIVEDESK_KILL_CHECK_MARKER: marker,
        LIVEDESK_REQUIRE: kind,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let exitCode: number | null = null;
  const exited = new Promise<void>((resolvePromise) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? (signal ? 128 : 1);
      resolvePromise();
    }),
  );

  try {
    const startDeadline = Date.now() + 180_000;
    while (!existsSync(marker)) {
      if (exitCode !== null)
        return {
          ran: true,
          passed: false,
          reason: `the run ended (code ${exitCode}) before the long-running test started`,
        };
      if (Date.now() > startDeadline)
        return {
          ran: true,
          passed: false,
          reason: 'the long-running test did not start within 180 s',
        };
      await sleep(100);
    }
    await sleep(1_500);
    const status = JSON.parse(readFileSync(statusFile, 'utf8')) as TargetStatus;
    const what = await kill(status);
    const killedAt = Date.now();
    console.log(
      `[kill-mid-suite] ${ACTION} ${what} during the test; waiting up to ${BOUND_SECONDS} s for the run to fail`,
    );

    const bounded = await Promise.race([
      exited.then(() => true),
      sleep(BOUND_SECONDS * 1_000).then(() => false),
    ]);
    const seconds = (Date.now() - killedAt) / 1000;
    if (!bounded) {
      process.kill(-child.pid!, 'SIGKILL');
      return {
        ran: true,
        passed: false,
        seconds,
        reason: `the run was still going ${BOUND_SECONDS} s after ${what} was ${ACTION} (it hangs)`,
      };
    }
    const fatal = output.split('\n').find((line) => line.includes(FATAL));
    if (exitCode === 0)
      return {
        ran: true,
        passed: false,
        seconds,
        reason: `the run exited 0 although ${what} was ${ACTION}`,
      };
    if (!fatal)
      return {
        ran: true,
        passed: false,
        seconds,
        reason: `the run failed (code ${exitCode}) but did not say "${FATAL}"`,
      };
    return {
      ran: true,
      passed: true,
      seconds,
      reason: `${ACTION} ${what} mid-test; the run failed ${seconds.toFixed(1)} s later (exit code ${exitCode}, bound ${BOUND_SECONDS} s), saying the backend died: ${fatal.split('so the run fails: ')[1]?.split(';')[0] ?? fatal.trim()}`,
    };
  } finally {
    if (exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
}

check().then(report, (error: unknown) =>
  report({
    ran: true,
    passed: false,
    reason: `the check itself failed: ${(error as Error).stack ?? String(error)}`,
  }),
);
