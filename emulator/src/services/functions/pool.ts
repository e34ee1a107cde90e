import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostRequest, HostResponse } from './runtime-host.ts';

const HOST_ENTRY = fileURLToPath(new URL('./runtime-host-main.ts', import.meta.url));
/**
 * The script a runtime process runs: `runtime-host-main.ts` from the sources, or — in the
 * bundled backend, where that file does not exist — the bundle itself with `LIVEDESK_RUNTIME_HOST=1`
 * (see `main.ts`).
 */
const HOST = existsSync(HOST_ENTRY)
  ? { script: HOST_ENTRY, env: {} }
  : { script: process.argv[1]!, env: { LIVEDESK_RUNTIME_HOST: '1' } };
/** A worker idle this long is stopped (the next execution starts a new one). */
const IDLE_MS = 10 * 60_000;
/** How long a new process may take to load Node and report ready. */
const START_TIMEOUT_MS = 15_000;
/** Resident memory a worker may use beyond its heap limit (code, buffers, new space). */
const RSS_HEADROOM_MB = 256;
const PAGE_SIZE = 4096;

/** How a runtime's processes are started. */
export interface RuntimeSpec {
  codeDir: string;
  entrypoint: string;
  /** The whole environment of the process (nothing of the backend's leaks in). */
  env: Record<string, string>;
  /** V8 heap limit in MB. */
  memoryMb: number;
}

/** What became of one execution in a worker. */
export type WorkerOutcome =
  | { kind: 'result'; response: HostResponse }
  | { kind: 'timeout' }
  | { kind: 'crash'; reason: string; outOfMemory: boolean };

function residentMb(pid: number): number | null {
  try {
    const statm = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    return (Number(statm[1]) * PAGE_SIZE) / (1024 * 1024);
  } catch {
    return null;
  }
}

/** One child Node process serving one execution at a time. */
class RuntimeWorker {
  private readonly child: ChildProcess;
  private readonly spec: RuntimeSpec;
  readonly ready: Promise<void>;
  private stderrTail = '';
  private exited = false;
  private exitListeners = new Set<(code: number | null, signal: string | null) => void>();
  idleTimer: NodeJS.Timeout | null = null;

  constructor(spec: RuntimeSpec) {
    this.spec = spec;
    // Absolute: the process starts in its code folder, where a relative path means another one.
    const codeDir = resolve(spec.codeDir);
    this.child = fork(HOST.script, [codeDir, spec.entrypoint], {
      cwd: codeDir,
      env: { ...spec.env, ...HOST.env },
      execPath: process.execPath,
      execArgv: [`--max-old-space-size=${spec.memoryMb}`, '--disable-warning=ExperimentalWarning'],
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const keepTail = (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000);
    };
    this.child.stderr!.on('data', keepTail);
    this.child.stdout!.on('data', keepTail);
    this.child.on('error', () => {});
    this.child.once('exit', (code, signal) => {
      this.exited = true;
      for (const listener of this.exitListeners) listener(code, signal);
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new Error('The runtime did not start within 15 s.'));
      }, START_TIMEOUT_MS);
      const onExit = () => {
        clearTimeout(timer);
        reject(new Error(`The runtime exited while starting: ${this.stderrTail.trim()}`));
      };
      this.exitListeners.add(onExit);
      this.child.once('message', (message: { type?: string }) => {
        clearTimeout(timer);
        this.exitListeners.delete(onExit);
        if (message?.type === 'ready') resolve();
        else reject(new Error('The runtime sent an unexpected first message.'));
      });
    });
    this.ready.catch(() => {});
  }

  get alive(): boolean {
    return !this.exited;
  }

  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /** Runs one execution; the process is killed on timeout or when it uses too much memory. */
  run(request: HostRequest, hardTimeoutMs: number): Promise<WorkerOutcome> {
    this.stderrTail = '';
    return new Promise<WorkerOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: WorkerOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(watchdog);
        this.exitListeners.delete(onExit);
        this.child.off('message', onMessage);
        resolve(outcome);
      };
      const onMessage = (message: HostResponse) => {
        if (message?.type === 'result' && message.id === request.id)
          finish({ kind: 'result', response: message });
      };
      const onExit = (code: number | null, signal: string | null) => {
        const tail = this.stderrTail.trim();
        const outOfMemory =
          /heap out of memory|Reached heap limit|Allocation failed/i.test(tail) || memoryKilled;
        finish({
          kind: 'crash',
          outOfMemory,
          reason: `the runtime process exited (${signal ?? `code ${code}`})${tail ? `: ${tail.split('\n').slice(-6).join('\n')}` : ''}`,
        });
      };
      let memoryKilled = false;
      const timer = setTimeout(() => {
        this.kill();
        finish({ kind: 'timeout' });
      }, hardTimeoutMs);
      const limitMb = this.spec.memoryMb + RSS_HEADROOM_MB;
      const watchdog = setInterval(() => {
        const pid = this.child.pid;
        const rss = pid === undefined ? null : residentMb(pid);
        if (rss !== null && rss > limitMb) {
          memoryKilled = true;
          this.kill();
        }
      }, 200);
      this.exitListeners.add(onExit);
      this.child.on('message', onMessage);
      if (this.exited) {
        onExit(this.child.exitCode, this.child.signalCode);
        return;
      }
      this.child.send(request, (error) => {
        if (error) onExit(null, null);
      });
    });
  }
}

interface Waiter {
  resolve: (worker: RuntimeWorker) => void;
  reject: (error: Error) => void;
}

/**
 * Warm runtimes of one deployment (and one set of variables), as Open Runtimes keeps them: up
 * to `max` processes, each serving one execution at a time; idle ones are reused, extra
 * executions wait for one to free up; a timed-out or crashed process is replaced on demand.
 */
export class RuntimePool {
  readonly key: string;
  private readonly spec: RuntimeSpec;
  private readonly max: number;
  private readonly workers = new Set<RuntimeWorker>();
  private readonly idle: RuntimeWorker[] = [];
  private readonly waiters: Waiter[] = [];
  private draining = false;

  constructor(key: string, spec: RuntimeSpec, max: number) {
    this.key = key;
    this.spec = spec;
    this.max = max;
  }

  /** Number of live processes. */
  get size(): number {
    return this.workers.size;
  }

  private async acquire(): Promise<RuntimeWorker> {
    while (this.idle.length) {
      const worker = this.idle.pop()!;
      if (worker.idleTimer) clearTimeout(worker.idleTimer);
      if (worker.alive) return worker;
      this.workers.delete(worker);
    }
    if (this.workers.size < this.max) {
      const worker = new RuntimeWorker(this.spec);
      this.workers.add(worker);
      try {
        await worker.ready;
      } catch (error) {
        this.workers.delete(worker);
        throw error;
      }
      return worker;
    }
    return new Promise<RuntimeWorker>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private release(worker: RuntimeWorker, reusable: boolean): void {
    if (!reusable || this.draining || !worker.alive) {
      worker.kill();
      this.workers.delete(worker);
      const waiter = this.waiters.shift();
      if (waiter && !this.draining) this.acquire().then(waiter.resolve, waiter.reject);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter.resolve(worker);
      return;
    }
    worker.idleTimer = setTimeout(() => {
      const index = this.idle.indexOf(worker);
      if (index >= 0) this.idle.splice(index, 1);
      worker.kill();
      this.workers.delete(worker);
    }, IDLE_MS);
    worker.idleTimer.unref();
    this.idle.push(worker);
  }

  /** Runs one execution in a warm (or new) process of this pool. */
  async execute(request: HostRequest, hardTimeoutMs: number): Promise<WorkerOutcome> {
    let worker: RuntimeWorker;
    try {
      worker = await this.acquire();
    } catch (error) {
      return { kind: 'crash', reason: (error as Error).message, outOfMemory: false };
    }
    const outcome = await worker.run(request, hardTimeoutMs);
    const reusable = outcome.kind === 'result' && !outcome.response.timedOut;
    this.release(worker, reusable);
    return outcome;
  }

  /** Stops idle processes now and busy ones when they finish; the pool takes no more work. */
  drain(): void {
    this.draining = true;
    for (const worker of this.idle.splice(0)) {
      if (worker.idleTimer) clearTimeout(worker.idleTimer);
      worker.kill();
      this.workers.delete(worker);
    }
    for (const waiter of this.waiters.splice(0))
      waiter.reject(new Error('The deployment was replaced.'));
  }

  /** Kills every process at once (backend shutdown). */
  close(): void {
    this.drain();
    for (const worker of this.workers) worker.kill();
    this.workers.clear();
  }
}
