import { execFile } from 'node:child_process';
import { getContainerRuntimeClient, type ContainerRuntimeClient } from 'testcontainers';
import { preferPodmanSocket } from '../../scripts/lib/podman.ts';

/** The container engine testcontainers talks to. */
export interface ContainerEngine {
  client: ContainerRuntimeClient;
  /** `docker` or `podman` (podman serves the Docker API; it cannot run Ryuk or compose here). */
  kind: 'docker' | 'podman';
  /** e.g. `podman 4.3.1`. */
  description: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let engine: Promise<ContainerEngine> | null = null;

async function connect(): Promise<ContainerEngine> {
  preferPodmanSocket();
  let client: ContainerRuntimeClient;
  try {
    client = await withTimeout(getContainerRuntimeClient(), 30_000, 'the container engine');
  } catch (error) {
    const where = process.env.DOCKER_HOST
      ? `DOCKER_HOST=${process.env.DOCKER_HOST}`
      : 'the default Docker socket';
    throw new Error(
      `no container engine answers the Docker API at ${where} (${(error as Error).message}); ` +
        `start Docker, or run scripts/setup-podman.sh on a machine without Docker`,
      { cause: error },
    );
  }
  const version = await client.container.dockerode.version();
  const podman = version.Components?.find((c) => /podman/i.test(c.Name));
  if (podman && process.env.TESTCONTAINERS_RYUK_DISABLED === undefined) {
    // Ryuk's image cannot be pulled where podman stands in for Docker; containers are
    // removed by their handles instead (and orphans by the next run, see container.ts).
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  }
  return {
    client,
    kind: podman ? 'podman' : 'docker',
    description: podman ? `podman ${podman.Version}` : `docker ${version.Version}`,
  };
}

/** The container engine, connected once per process; rejects with one readable sentence. */
export function containerEngine(): Promise<ContainerEngine> {
  engine ??= connect();
  engine.catch(() => {
    engine = null;
  });
  return engine;
}

/** Runs a command, resolving its stdout, or rejecting with its stderr (bounded by `timeoutMs`). */
export function run(command: string, args: string[], timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error((stderr || error.message).trim().split('\n')[0]));
      else resolve(stdout);
    });
  });
}
