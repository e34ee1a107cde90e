import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, waitForHealth } from './free-port.ts';
import { withNice } from './nice.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Options of {@link LocalBackend}. */
export interface LocalBackendOptions {
  projectId?: string;
  apiKey?: string;
  /** Extra environment for the backend process. */
  env?: Record<string, string>;
  /** Print the backend's output (for debugging). */
  verbose?: boolean;
  /** Scheduling priority of the backend and its function runtimes (0, the default: as is). */
  nice?: number;
  /**
   * Appwrite's abuse limits (rate limits). Off by default here, as in Appwrite's own CI and the
   * `appwrite` target's compose file: suites, benchmarks and seeders create many sessions and
   * writes from one address. Tests of the limits turn them on. (`npm run backend` has them on.)
   */
  abuse?: boolean;
  /** The data folder to use (one a halted backend left, or a copy of it); deleted by `stop()`. */
  dataDir?: string;
}

/** The local backend (`emulator/`) as a child process on a free 127.0.0.1 port with a throwaway data folder. */
export class LocalBackend {
  readonly kind = 'local' as const;
  private readonly options: LocalBackendOptions;

  constructor(options: LocalBackendOptions = {}) {
    this.options = options;
  }

  async unavailableReason(): Promise<string | null> {
    return null;
  }

  async start(): Promise<StartedLocalBackend> {
    const port = await freePort();
    const dataDir = this.options.dataDir ?? mkdtempSync(join(tmpdir(), 'livedesk-backend-'));
    // The Stripe API double gets a port of its own once: a restart keeps it, so the functions'
    // STRIPE_API_URL (set by provisioning) still points at it afterwards.
    const env = { ...this.options.env };
    env.STRIPE_DOUBLE_PORT ??= String(await freePort());
    const started = new StartedLocalBackend({
      port,
      dataDir,
      projectId: this.options.projectId ?? 'livedesk-test',
      apiKey: this.options.apiKey ?? `test-${randomBytes(16).toString('hex')}`,
      env,
      verbose: this.options.verbose ?? process.env.BACKEND_VERBOSE === '1',
      nice: this.options.nice ?? 0,
      abuse: this.options.abuse ?? false,
    });
    await started.launch();
    return started;
  }
}

interface LaunchSettings {
  port: number;
  dataDir: string;
  projectId: string;
  apiKey: string;
  env: Record<string, string>;
  verbose: boolean;
  nice: number;
  abuse: boolean;
}

/** A running local backend process. */
export class StartedLocalBackend implements AsyncDisposable {
  readonly kind = 'local' as const;
  readonly endpoint: string;
  readonly projectId: string;
  readonly apiKey: string;
  readonly dataDir: string;
  private readonly settings: LaunchSettings;
  private child: ChildProcess | null = null;
  private output = '';
  private readonly exitListeners = new Set<(reason: string) => void>();

  constructor(settings: LaunchSettings) {
    this.settings = settings;
    this.endpoint = `http://127.0.0.1:${settings.port}/v1`;
    this.projectId = settings.projectId;
    this.apiKey = settings.apiKey;
    this.dataDir = settings.dataDir;
  }

  describe(): string {
    return `process ${this.child?.pid ?? '(stopped)'} (${process.version}), data in ${this.dataDir}`;
  }

  /** Calls `listener` once if the process exits without being asked to (killed, crashed). */
  onUnexpectedExit(listener: (reason: string) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** The backend process's id (null while stopped). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** What the process printed so far (for failure messages). */
  get log(): string {
    return this.output;
  }

  async launch(): Promise<void> {
    const [command, ...args] = withNice(this.settings.nice, [
      process.execPath,
      '--disable-warning=ExperimentalWarning',
      join(ROOT, 'emulator/src/main.ts'),
    ]);
    const child = spawn(command!, args, {
      cwd: ROOT,
      env: {
        ...process.env,
        BACKEND_ABUSE: this.settings.abuse ? 'enabled' : 'disabled',
        ...this.settings.env,
        BACKEND_PORT: String(this.settings.port),
        BACKEND_HOST: '127.0.0.1',
        BACKEND_DATA_DIR: this.settings.dataDir,
        APPWRITE_PROJECT_ID: this.settings.projectId,
        APPWRITE_API_KEY: this.settings.apiKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const collect = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
      if (this.settings.verbose) process.stderr.write(chunk);
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(new Error(`local backend exited early (code ${code}):\n${this.output}`)),
      ),
    );
    await Promise.race([waitForHealth(this.endpoint), exited]);
    child.removeAllListeners('exit');
    child.once('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = null;
      const tail = this.output.trimEnd().split('\n').slice(-10).join('\n');
      const reason = `the local backend (pid ${child.pid}) exited unexpectedly (${signal ?? `code ${code}`})${tail ? `; its last output:\n${tail}` : ''}`;
      for (const listener of this.exitListeners) listener(reason);
    });
  }

  private async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  async restart(): Promise<void> {
    await this.kill('SIGTERM');
    await this.launch();
  }

  async crashAndRestart(): Promise<void> {
    await this.kill('SIGKILL');
    await this.launch();
  }

  /** Stops the process (SIGTERM) without deleting its data. */
  async halt(): Promise<void> {
    await this.kill('SIGTERM');
  }

  async stop(): Promise<void> {
    await this.kill('SIGTERM');
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
