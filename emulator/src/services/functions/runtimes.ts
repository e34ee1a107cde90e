/**
 * What the local backend can run: Appwrite's Node.js runtime ids (all served by the backend's
 * own Node), the compute specifications, and the scopes a function's API key may hold.
 */

/** Appwrite's Node.js runtime ids (node-appwrite's `Runtime` enum). */
export const NODE_RUNTIMES: readonly string[] = [
  'node-14.5',
  'node-16.0',
  'node-18.0',
  'node-19.0',
  'node-20.0',
  'node-21.0',
  'node-22',
  'node-23',
  'node-24',
  'node-25',
];

/** Whether `runtime` looks like an Appwrite runtime id (`python-3.12`, `node-22`…). */
export function looksLikeRuntime(runtime: string): boolean {
  return /^[a-z][a-z0-9]*-\d+(\.\d+)?$/.test(runtime);
}

/** Appwrite's Runtime model for one Node runtime id. */
export function runtimeModel(id: string): Record<string, unknown> {
  const version = id.slice('node-'.length);
  return {
    $id: id,
    key: 'node',
    name: 'Node.js',
    version,
    base: `node:${process.versions.node}`,
    image: `openruntimes/node:v5-${version}`,
    logo: 'node.png',
    supports: ['amd64', 'arm64'],
  };
}

/** A compute specification: memory in MB and CPUs. */
export interface Specification {
  slug: string;
  memory: number;
  cpus: number;
}

/** Appwrite's specifications (`app/config/specifications.php`). */
export const SPECIFICATIONS: readonly Specification[] = [
  { slug: 's-0.5vcpu-512mb', memory: 512, cpus: 0.5 },
  { slug: 's-1vcpu-512mb', memory: 512, cpus: 1 },
  { slug: 's-1vcpu-1gb', memory: 1024, cpus: 1 },
  { slug: 's-2vcpu-2gb', memory: 2048, cpus: 2 },
  { slug: 's-2vcpu-4gb', memory: 4096, cpus: 2 },
  { slug: 's-4vcpu-4gb', memory: 4096, cpus: 4 },
  { slug: 's-4vcpu-8gb', memory: 8192, cpus: 4 },
  { slug: 's-8vcpu-4gb', memory: 4096, cpus: 8 },
  { slug: 's-8vcpu-8gb', memory: 8192, cpus: 8 },
];

/** Appwrite's default specification. */
export const DEFAULT_SPECIFICATION = 's-1vcpu-512mb';

/** The specification named `slug` (the default one when unknown). */
export function specification(slug: string): Specification {
  return (
    SPECIFICATIONS.find((spec) => spec.slug === slug) ??
    SPECIFICATIONS.find((spec) => spec.slug === DEFAULT_SPECIFICATION)!
  );
}

/** Scopes a project API key (and so a function's key) may hold (`app/config/scopes/project.php`). */
export const PROJECT_SCOPES: readonly string[] = [
  'sessions.write',
  'users.read',
  'users.write',
  'teams.read',
  'teams.write',
  'databases.read',
  'databases.write',
  'collections.read',
  'collections.write',
  'tables.read',
  'tables.write',
  'attributes.read',
  'attributes.write',
  'columns.read',
  'columns.write',
  'indexes.read',
  'indexes.write',
  'documents.read',
  'documents.write',
  'rows.read',
  'rows.write',
  'files.read',
  'files.write',
  'buckets.read',
  'buckets.write',
  'functions.read',
  'functions.write',
  'sites.read',
  'sites.write',
  'log.read',
  'log.write',
  'execution.read',
  'execution.write',
  'executions.read',
  'executions.write',
  'locale.read',
  'avatars.read',
  'health.read',
  'providers.read',
  'providers.write',
  'messages.read',
  'messages.write',
  'topics.read',
  'topics.write',
  'subscribers.read',
  'subscribers.write',
  'targets.read',
  'targets.write',
  'rules.read',
  'rules.write',
  'migrations.read',
  'migrations.write',
  'vcs.read',
  'vcs.write',
  'assistant.read',
  'tokens.read',
  'tokens.write',
  'presences.read',
  'presences.write',
];
