/** Settings of the local backend, from the environment. */
export interface BackendConfig {
  host: string;
  port: number;
  dataDir: string;
  projectId: string;
  apiKey: string;
  /**
   * Appwrite's abuse limits (rate limits; `http/abuse.ts`): on unless `BACKEND_ABUSE` (or
   * Appwrite's own `_APP_OPTIONS_ABUSE`) is `disabled`.
   */
  abuse?: boolean;
}

/** Reads {@link BackendConfig} from environment variables, failing with a readable list of problems. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  const problems: string[] = [];
  const port = Number(env.BACKEND_PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`BACKEND_PORT must be a port number, got "${env.BACKEND_PORT}"`);
  const projectId = env.APPWRITE_PROJECT_ID ?? 'livedesk';
  if (!/^[a-z0-9][a-z0-9-]{0,35}$/.test(projectId))
    problems.push(`APPWRITE_PROJECT_ID must be 1–36 of a-z, 0-9 and -, got "${projectId}"`);
  const apiKey = env.APPWRITE_API_KEY ?? '';
  if (apiKey.length < 16)
    problems.push(
      'APPWRITE_API_KEY must be set to a secret of at least 16 characters (see .env.example)',
    );
  const abuse = env.BACKEND_ABUSE ?? env._APP_OPTIONS_ABUSE ?? 'enabled';
  if (abuse !== 'enabled' && abuse !== 'disabled')
    problems.push(`BACKEND_ABUSE must be "enabled" or "disabled", got "${abuse}"`);
  if (problems.length)
    throw new Error(`Invalid backend configuration:\n  - ${problems.join('\n  - ')}`);
  return {
    host: env.BACKEND_HOST ?? '127.0.0.1',
    port,
    dataDir: env.BACKEND_DATA_DIR ?? '.data/backend',
    projectId,
    apiKey,
    abuse: abuse === 'enabled',
  };
}
