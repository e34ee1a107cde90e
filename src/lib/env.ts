/** The app's configuration, read once from Vite's `import.meta.env`. */
export interface AppConfig {
  /** Appwrite endpoint ending in `/v1`, e.g. `http://127.0.0.1:8787/v1`. */
  endpoint: string;
  projectId: string;
}

/** Thrown when the build-time environment is missing or invalid; its message lists every problem. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(
      `Livedesk is not configured (set these in .env, see .env.example):\n  - ${problems.join('\n  - ')}`,
    );
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Validates `VITE_APPWRITE_ENDPOINT` and `VITE_APPWRITE_PROJECT_ID`, reporting every problem at once. */
export function parseConfig(env: Record<string, unknown>): AppConfig {
  const problems: string[] = [];
  const endpoint = typeof env.VITE_APPWRITE_ENDPOINT === 'string' ? env.VITE_APPWRITE_ENDPOINT : '';
  const projectId =
    typeof env.VITE_APPWRITE_PROJECT_ID === 'string' ? env.VITE_APPWRITE_PROJECT_ID.trim() : '';
  if (!/^https?:\/\/[^\s]+\/v1$/.test(endpoint))
    problems.push(
      `VITE_APPWRITE_ENDPOINT must be an http(s) URL ending in /v1 (got ${endpoint ? `"${endpoint}"` : 'nothing'})`,
    );
  if (!/^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/.test(projectId))
    problems.push(
      `VITE_APPWRITE_PROJECT_ID must be a project id (got ${projectId ? `"${projectId}"` : 'nothing'})`,
    );
  if (problems.length) throw new ConfigError(problems);
  return { endpoint, projectId };
}

let cached: AppConfig | null = null;

/** The validated configuration (parsed on first use). */
export function config(): AppConfig {
  cached ??= parseConfig(import.meta.env as Record<string, unknown>);
  return cached;
}
