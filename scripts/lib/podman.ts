import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from './env.ts';

/** Where `scripts/setup-podman.sh` serves podman's Docker API unless `PODMAN_SOCKET` says otherwise. */
export const PODMAN_SOCKET = projectPath(process.env.PODMAN_SOCKET ?? '/tmp/podman.sock');

function anotherEngineConfigured(env: NodeJS.ProcessEnv): boolean {
  if (env.DOCKER_HOST || env.TESTCONTAINERS_HOST_OVERRIDE) return true;
  if (existsSync('/var/run/docker.sock')) return true;
  const properties = join(homedir(), '.testcontainers.properties');
  return existsSync(properties) && /^\s*docker\.host\s*=/m.test(readFileSync(properties, 'utf8'));
}

/**
 * Points `DOCKER_HOST` at podman's socket when that socket exists and no other engine is
 * configured (no `DOCKER_HOST`, no `/var/run/docker.sock`, no `docker.host` in
 * `~/.testcontainers.properties`). Returns the value it set, or null when it changed nothing.
 */
export function preferPodmanSocket(env: NodeJS.ProcessEnv = process.env): string | null {
  if (anotherEngineConfigured(env) || !existsSync(PODMAN_SOCKET)) return null;
  env.DOCKER_HOST = `unix://${PODMAN_SOCKET}`;
  return env.DOCKER_HOST;
}
