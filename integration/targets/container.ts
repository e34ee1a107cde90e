import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  GenericContainer,
  Wait,
  type ContainerRuntimeClient,
  type StartedTestContainer,
} from 'testcontainers';
import { containerEngine, type ContainerEngine } from './engine.ts';
import { freePort, waitForHealth } from '../../scripts/lib/free-port.ts';
import { localBackendImage, nodeBinary } from './local-image.ts';
import type { BackendTarget, StartedBackend } from './types.ts';

/** Labels on every local-backend container, so that orphans of a killed run can be found. */
const LABEL = 'livedesk.backend';
const OWNER_PID = 'livedesk.owner-pid';
const OWNER_HOST = 'livedesk.owner-host';
/** How many times a start whose container exits before it is ready is tried. */
const START_ATTEMPTS = 3;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes local-backend containers whose owning process on this host is gone (a run that was
 * killed before its teardown). Stands in for Ryuk, which cannot run where podman serves the API.
 */
async function removeOrphans(client: ContainerRuntimeClient): Promise<void> {
  const dockerode = client.container.dockerode;
  const containers = await dockerode.listContainers({
    all: true,
    filters: { label: [LABEL] },
  });
  for (const info of containers) {
    const pid = Number(info.Labels[OWNER_PID]);
    if (info.Labels[OWNER_HOST] !== hostname() || !pid || processAlive(pid)) continue;
    await dockerode
      .getContainer(info.Id)
      .remove({ force: true, v: true })
      .catch(() => {});
  }
}

/**
 * The local backend's own image (see local-image.ts) in a container, through testcontainers:
 * host networking, listening on a free 127.0.0.1 port, its data in the container at `/data`.
 *
 * ```ts
 * await using backend = await new LocalBackendContainer().withProjectId('p1').start();
 * ```
 */
export class LocalBackendContainer implements BackendTarget {
  readonly kind = 'container' as const;
  private projectId = 'livedesk-test';
  private apiKey = `test-${randomBytes(16).toString('hex')}`;
  /** Abuse limits off, as for the local process target (see `LocalBackendOptions.abuse`). */
  private environment: Record<string, string> = { BACKEND_ABUSE: 'disabled' };
  private startupTimeoutMs = 60_000;
  private image: string | null = null;

  withProjectId(projectId: string): this {
    this.projectId = projectId;
    return this;
  }

  withApiKey(apiKey: string): this {
    this.apiKey = apiKey;
    return this;
  }

  /** Extra environment for the backend process. */
  withEnvironment(environment: Record<string, string>): this {
    this.environment = { ...this.environment, ...environment };
    return this;
  }

  /** Uses an image built earlier (e.g. by the global setup) instead of building or checking one. */
  withImage(image: string): this {
    this.image = image;
    return this;
  }

  withStartupTimeout(startupTimeoutMs: number): this {
    this.startupTimeoutMs = startupTimeoutMs;
    return this;
  }

  async unavailableReason(): Promise<string | null> {
    if (process.platform !== 'linux')
      return `the local backend image is made from this machine's Node binary, which needs Linux (this is ${process.platform})`;
    if (!nodeBinary()) return 'no Node ≥ 24 binary to put into the local backend image';
    try {
      await containerEngine();
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  async start(): Promise<StartedLocalBackendContainer> {
    const engine = await containerEngine();
    await removeOrphans(engine.client);
    const image =
      this.image ??
      (await localBackendImage(engine.client, (line) => console.log(`[container] ${line}`)));
    for (let attempt = 1; ; attempt += 1) {
      const output: string[] = [];
      try {
        return await this.launch(engine, image, output);
      } catch (error) {
        // With host networking, a port picked free can be taken before the backend binds it
        // (another test's backend or function runtime): the container exits before it is ready.
        // Such a start is tried again on fresh ports; any other failure is final.
        const exitedEarly = /Log stream ended/.test(String(error));
        if (!exitedEarly || attempt >= START_ATTEMPTS) {
          const tail = output.slice(-20).join('');
          throw new Error(`${String(error)}${tail ? `; its last output:\n${tail}` : ''}`, {
            cause: error,
          });
        }
        console.log(
          `[container] the local backend exited before it was ready (attempt ${attempt} of ${START_ATTEMPTS}); starting it again on fresh ports. Its last output:\n${output.slice(-5).join('')}`,
        );
      }
    }
  }

  private async launch(
    engine: ContainerEngine,
    image: string,
    output: string[],
  ): Promise<StartedLocalBackendContainer> {
    const port = await freePort();
    // The Stripe API double keeps one port across restarts: provisioned functions hold its address.
    const stripeDoublePort = String(await freePort());
    const container = await new GenericContainer(image)
      .withNetworkMode('host')
      .withEnvironment({
        STRIPE_DOUBLE_PORT: stripeDoublePort,
        ...this.environment,
        BACKEND_HOST: '127.0.0.1',
        BACKEND_PORT: String(port),
        BACKEND_DATA_DIR: '/data',
        APPWRITE_PROJECT_ID: this.projectId,
        APPWRITE_API_KEY: this.apiKey,
      })
      .withLabels({
        [LABEL]: 'local-image',
        [OWNER_PID]: String(process.pid),
        [OWNER_HOST]: hostname(),
      })
      .withLogConsumer((stream) => stream.on('data', (chunk) => output.push(String(chunk))))
      .withWaitStrategy(Wait.forLogMessage(/local backend .* ready/))
      .withStartupTimeout(this.startupTimeoutMs)
      .start();
    const started = new StartedLocalBackendContainer(container, engine.client, {
      port,
      image,
      projectId: this.projectId,
      apiKey: this.apiKey,
      engine: engine.description,
    });
    await waitForHealth(started.endpoint);
    return started;
  }
}

interface ContainerSettings {
  port: number;
  image: string;
  projectId: string;
  apiKey: string;
  engine: string;
}

/** A running local-backend container. Its data lives in the container, so restarts keep it. */
export class StartedLocalBackendContainer implements StartedBackend {
  readonly kind = 'container' as const;
  readonly endpoint: string;
  readonly projectId: string;
  readonly apiKey: string;
  readonly image: string;
  private readonly container: StartedTestContainer;
  private readonly client: ContainerRuntimeClient;
  private readonly engine: string;
  /** Bumped by every intended stop, so a watcher of an older run of the container stays quiet. */
  private generation = 0;
  private stopped = false;
  private readonly exitListeners = new Set<(reason: string) => void>();

  constructor(
    container: StartedTestContainer,
    client: ContainerRuntimeClient,
    settings: ContainerSettings,
  ) {
    this.container = container;
    this.client = client;
    this.endpoint = `http://127.0.0.1:${settings.port}/v1`;
    this.projectId = settings.projectId;
    this.apiKey = settings.apiKey;
    this.image = settings.image;
    this.engine = settings.engine;
  }

  /** The container's id (for `docker`/`podman` commands while debugging). */
  get id(): string {
    return this.container.getId();
  }

  describe(): string {
    return `container ${this.id.slice(0, 12)} of ${this.image} on ${this.engine}`;
  }

  private get handle() {
    return this.client.container.dockerode.getContainer(this.id);
  }

  /** The last lines the backend printed (for failure messages). */
  async recentOutput(lines = 30): Promise<string> {
    const stream = await this.container.logs({ tail: lines });
    let text = '';
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 3_000);
      stream.on('data', (chunk: string) => (text += chunk));
      stream.on('end', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    stream.destroy?.();
    return text.trimEnd();
  }

  /** Calls `listener` once if the container stops without being asked to (killed, crashed). */
  onUnexpectedExit(listener: (reason: string) => void): () => void {
    this.exitListeners.add(listener);
    if (this.exitListeners.size === 1) this.watch();
    return () => this.exitListeners.delete(listener);
  }

  private watch(): void {
    const generation = this.generation;
    const current = () => generation === this.generation && !this.stopped;
    exitOf(this.handle, current).then(
      async (code) => {
        if (code === null || !current()) return;
        const how = code === 137 ? 'killed (SIGKILL, exit code 137)' : `exit code ${code}`;
        const output = await this.recentOutput(10).catch(() => '');
        const reason = `${this.describe()} stopped unexpectedly: ${how}${output ? `; its last output:\n${output}` : ''}`;
        for (const listener of this.exitListeners) listener(reason);
      },
      () => {},
    );
  }

  private async relaunch(): Promise<void> {
    await this.handle.start();
    await waitForHealth(this.endpoint);
    if (this.exitListeners.size) this.watch();
  }

  async restart(): Promise<void> {
    this.generation += 1;
    await this.handle.stop({ t: 10 }).catch(ignoreNotModified);
    await this.relaunch();
  }

  async crashAndRestart(): Promise<void> {
    this.generation += 1;
    await this.handle.kill({ signal: 'SIGKILL' });
    await exitOf(this.handle, () => true);
    await this.relaunch();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.generation += 1;
    // A frozen (paused) container cannot be stopped or removed until it is unpaused.
    const state = await this.handle.inspect().then(
      (info) => info.State,
      () => null,
    );
    if (state?.Paused) await this.handle.unpause().catch(() => {});
    await this.container.stop({ timeout: 5_000, remove: true });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}

/** How often {@link exitOf} asks the engine for the container's state. */
const EXIT_POLL_MS = 500;

/**
 * The container's exit code once it has stopped, asked with `inspect` every {@link EXIT_POLL_MS}
 * while `wanted()` holds (null when it stops holding or the container is gone). Not the engine's `wait`: podman before 4.5
 * answers the Docker API's wait by polling every microsecond, which kept a core busy for as long
 * as a container ran (podman PR #18149).
 */
async function exitOf(
  handle: { inspect(): Promise<{ State: { Status: string; ExitCode: number } }> },
  wanted: () => boolean,
): Promise<number | null> {
  while (wanted()) {
    const state = await handle.inspect().then(
      (info) => info.State,
      (error: { statusCode?: number }) => (error.statusCode === 404 ? 'gone' : null),
    );
    if (state === 'gone') return null;
    if (state && (state.Status === 'exited' || state.Status === 'dead')) return state.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, EXIT_POLL_MS).unref());
  }
  return null;
}

function ignoreNotModified(error: { statusCode?: number }): void {
  if (error.statusCode !== 304) throw error;
}
