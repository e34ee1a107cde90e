import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  DockerComposeEnvironment,
  ImageName,
  Wait,
  type ContainerRuntimeClient,
  type StartedDockerComposeEnvironment,
} from 'testcontainers';
import { containerEngine, run } from './engine.ts';
import { freePort, waitForHealth } from '../../scripts/lib/free-port.ts';
import type { BackendTarget, StartedBackend } from './types.ts';

const STACK_DIR = resolve(import.meta.dirname, '../appwrite');

/**
 * The real Appwrite image, read from `integration/appwrite/Dockerfile`: the one place its
 * version is pinned (as testcontainers' own modules pin theirs).
 */
export const APPWRITE_IMAGE = (() => {
  const dockerfile = readFileSync(join(STACK_DIR, 'Dockerfile'), 'utf8');
  const match = /^FROM\s+(\S+)/m.exec(dockerfile);
  if (!match) throw new Error('integration/appwrite/Dockerfile has no FROM line');
  return match[1]!;
})();

/** The API key scopes the suites and the provisioner use (every one Appwrite 1.9.6 knows that they need). */
export const TEST_KEY_SCOPES = [
  'users.read',
  'users.write',
  'sessions.read',
  'sessions.write',
  'teams.read',
  'teams.write',
  'databases.read',
  'databases.write',
  'tables.read',
  'tables.write',
  'columns.read',
  'columns.write',
  'rows.read',
  'rows.write',
  'collections.read',
  'collections.write',
  'attributes.read',
  'attributes.write',
  'indexes.read',
  'indexes.write',
  'documents.read',
  'documents.write',
  'buckets.read',
  'buckets.write',
  'files.read',
  'files.write',
  'tokens.read',
  'tokens.write',
  'functions.read',
  'functions.write',
  'executions.read',
  'executions.write',
  'locale.read',
  'avatars.read',
  'health.read',
];

function shorten(message: string, max = 200): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Pulls `image` through the Docker API, rejecting with the engine's own error. */
async function pull(client: ContainerRuntimeClient, image: string): Promise<void> {
  const dockerode = client.container.dockerode;
  const stream = await dockerode.pull(image);
  await new Promise<void>((resolvePull, reject) => {
    dockerode.modem.followProgress(stream, (error: Error | null, events: { error?: string }[]) => {
      const failure = error?.message ?? events.find((event) => event.error)?.error;
      if (failure) reject(new Error(failure));
      else resolvePull();
    });
  });
}

/** Where a fresh Appwrite was bootstrapped: a project and an API key for the suites. */
export interface AppwriteBootstrap {
  projectId: string;
  apiKey: string;
  consoleEmail: string;
}

/**
 * Bootstraps a fresh Appwrite programmatically, as Appwrite's own end-to-end tests do
 * (appwrite/appwrite `tests/e2e/Scopes/Scope.php` `getRoot()`, `ProjectCustom.php`): console account → console session (cookie) → organization (a team in
 * the console project) → project → API key with {@link TEST_KEY_SCOPES} → a web platform for
 * 127.0.0.1 (for browser tests).
 *
 * Written against Appwrite 1.9.6's routes, and **not exercised on the project machines**, which
 * cannot pull the image: it runs in the hosted CI workflow (`.github/workflows/ci.yml`).
 */
export async function bootstrapAppwrite(
  endpoint: string,
  options: { projectId?: string } = {},
): Promise<AppwriteBootstrap> {
  const email = `root-${randomBytes(4).toString('hex')}@livedesk.test`;
  const password = randomBytes(18).toString('base64url');
  let cookie = '';
  const call = async (
    method: string,
    path: string,
    body: unknown,
  ): Promise<Record<string, unknown>> => {
    const response = await fetch(`${endpoint}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        origin: 'http://localhost',
        'x-appwrite-project': 'console',
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await response.text();
    if (!response.ok)
      throw new Error(
        `Appwrite bootstrap: ${method} ${path} answered ${response.status}: ${shorten(text)}`,
      );
    if (path === '/account/sessions/email') {
      const session = response.headers
        .getSetCookie()
        .map((header) => header.split(';')[0]!)
        .find((pair) => pair.startsWith('a_session_console='));
      if (!session)
        throw new Error('Appwrite bootstrap: the console session set no a_session_console cookie');
      cookie = session;
    }
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };

  await call('POST', '/account', { userId: 'unique()', email, password, name: 'Livedesk tests' });
  await call('POST', '/account/sessions/email', { email, password });
  const team = await call('POST', '/teams', { teamId: 'unique()', name: 'Livedesk tests' });
  const projectId = options.projectId ?? `livedesk-${randomBytes(4).toString('hex')}`;
  await call('POST', '/projects', {
    projectId,
    name: 'Livedesk tests',
    teamId: team.$id,
    region: 'default',
  });
  const key = await call('POST', `/projects/${projectId}/keys`, {
    keyId: 'unique()',
    name: 'livedesk-integration',
    scopes: TEST_KEY_SCOPES,
    expire: null,
  });
  await call('POST', `/projects/${projectId}/platforms`, {
    platformId: 'unique()',
    type: 'web',
    name: 'Livedesk tests',
    hostname: '127.0.0.1',
  });
  if (typeof key.secret !== 'string' || !key.secret)
    throw new Error('Appwrite bootstrap: the new API key has no secret');
  return { projectId, apiKey: key.secret, consoleEmail: email };
}

/**
 * The real `appwrite/appwrite` stack ({@link APPWRITE_IMAGE}, `integration/appwrite/docker-compose.yml`)
 * through testcontainers' `DockerComposeEnvironment`, bootstrapped with {@link bootstrapAppwrite}.
 * Needs a Docker engine with Docker Compose and a registry to pull from; where either is missing
 * {@link unavailableReason} says so in one line. Not exercised on the project machines (no
 * registry, no compose); the hosted CI workflow runs it.
 */
/** Docker Hub's registry host, which the engine pulls Appwrite's image from. */
const REGISTRY_HOST = 'registry-1.docker.io';

/**
 * Why the registry cannot be reached (its name does not resolve within 5 s), or null: asked
 * before a pull, which on a machine without one takes a minute to fail.
 */
async function registryUnreachable(): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      lookup(REGISTRY_HOST),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('i/o timeout')), 5_000);
      }),
    ]);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `lookup ${REGISTRY_HOST}: ${code === 'ENOTFOUND' ? 'no such host' : (code ?? (error as Error).message)}`;
  } finally {
    clearTimeout(timer);
  }
}

export class AppwriteEnvironment implements BackendTarget {
  readonly kind = 'appwrite' as const;
  private startupTimeoutMs = 600_000;
  private pullTimeoutMs = 300_000;

  withStartupTimeout(startupTimeoutMs: number): this {
    this.startupTimeoutMs = startupTimeoutMs;
    return this;
  }

  async unavailableReason(): Promise<string | null> {
    let client: ContainerRuntimeClient;
    try {
      client = (await containerEngine()).client;
    } catch (error) {
      return `the real Appwrite (${APPWRITE_IMAGE}) needs a container engine: ${(error as Error).message}`;
    }
    const problems: string[] = [];
    try {
      await run('docker', ['compose', 'version']);
    } catch (error) {
      problems.push(
        `Docker Compose is not installed (\`docker compose version\`: ${shorten((error as Error).message, 80)})`,
      );
    }
    const registry = await registryUnreachable();
    if (registry && !(await client.image.exists(ImageName.fromString(APPWRITE_IMAGE)))) {
      problems.push(`${APPWRITE_IMAGE} cannot be pulled (no registry reachable: ${registry})`);
    } else if (!(await client.image.exists(ImageName.fromString(APPWRITE_IMAGE)))) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          pull(client, APPWRITE_IMAGE),
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer within ${this.pullTimeoutMs / 1000} s`)),
              this.pullTimeoutMs,
            );
          }),
        ]);
      } catch (error) {
        const message = (error as Error).message;
        const lookup = /lookup (\S+).*?(no such host|server misbehaving|i\/o timeout)/.exec(
          message,
        );
        problems.push(
          `${APPWRITE_IMAGE} cannot be pulled (${lookup ? `no registry reachable: lookup ${lookup[1]}: ${lookup[2]}` : shorten(message, 160)})`,
        );
      } finally {
        clearTimeout(timer);
      }
    }
    return problems.length
      ? `it needs Docker Compose and a registry: ${problems.join('; ')}`
      : null;
  }

  async start(): Promise<StartedAppwriteEnvironment> {
    const stack = `livedesk-appwrite-${randomBytes(3).toString('hex')}`;
    const port = await freePort();
    const environment = await new DockerComposeEnvironment(STACK_DIR, 'docker-compose.yml')
      .withProjectName(stack)
      .withEnvironment({
        APPWRITE_IMAGE,
        APPWRITE_STACK: stack,
        APPWRITE_HTTP_PORT: String(port),
        APPWRITE_SECRET: randomBytes(24).toString('hex'),
      })
      .withWaitStrategy('appwrite-1', Wait.forHealthCheck())
      .withStartupTimeout(this.startupTimeoutMs)
      .up();
    try {
      const endpoint = `http://127.0.0.1:${port}/v1`;
      await waitForHealth(endpoint, 120_000);
      const bootstrap = await bootstrapAppwrite(endpoint);
      return new StartedAppwriteEnvironment(environment, endpoint, bootstrap);
    } catch (error) {
      await environment.down({ removeVolumes: true, timeout: 10_000 }).catch(() => {});
      throw error;
    }
  }
}

/** A running Appwrite stack; `restart()`/`crashAndRestart()` act on its API container, data stays in MariaDB. */
export class StartedAppwriteEnvironment implements StartedBackend {
  readonly kind = 'appwrite' as const;
  readonly endpoint: string;
  readonly projectId: string;
  readonly apiKey: string;
  private readonly environment: StartedDockerComposeEnvironment;

  constructor(
    environment: StartedDockerComposeEnvironment,
    endpoint: string,
    bootstrap: AppwriteBootstrap,
  ) {
    this.environment = environment;
    this.endpoint = endpoint;
    this.projectId = bootstrap.projectId;
    this.apiKey = bootstrap.apiKey;
  }

  describe(): string {
    return `Appwrite ${APPWRITE_IMAGE} stack at ${this.endpoint} (project ${this.projectId})`;
  }

  async restart(): Promise<void> {
    await this.environment.getContainer('appwrite-1').restart({ timeout: 10_000 });
    await waitForHealth(this.endpoint, 120_000);
  }

  async crashAndRestart(): Promise<void> {
    const client = (await containerEngine()).client;
    const api = client.container.dockerode.getContainer(
      this.environment.getContainer('appwrite-1').getId(),
    );
    await api.kill({ signal: 'SIGKILL' });
    await api.wait();
    // The service's restart policy may have started it again already (304 Not Modified).
    await api.start().catch((error: { statusCode?: number }) => {
      if (error.statusCode !== 304) throw error;
    });
    await waitForHealth(this.endpoint, 120_000);
  }

  async stop(): Promise<void> {
    await this.environment.down({ removeVolumes: true, timeout: 10_000 });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }
}
