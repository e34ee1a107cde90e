import { accessSync, constants, mkdirSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** Settings of the local backend, from the environment. */
export interface BackendConfig {
  host: string;
  port: number;
  /** Absolute path of the data folder (see {@link configFromEnv}). */
  dataDir: string;
  projectId: string;
  apiKey: string;
  /**
   * Appwrite's abuse limits (rate limits; `http/abuse.ts`): on unless `BACKEND_ABUSE` (or
   * Appwrite's own `_APP_OPTIONS_ABUSE`) is `disabled`.
   */
  abuse?: boolean;
}

/** The data folder when `BACKEND_DATA_DIR` is not set (relative to the working directory). */
export const DEFAULT_DATA_DIR = '.data/backend';

/**
 * Reads {@link BackendConfig} from environment variables, failing with a readable list of problems.
 * A relative `BACKEND_DATA_DIR` is resolved once, here, against `cwd` (the process's working
 * directory: the project root under `npm run backend` and `npm start`), so that nothing later —
 * a function runtime started in its own folder, a build — sees a relative path.
 */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): BackendConfig {
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
  const dataDir = env.BACKEND_DATA_DIR ?? DEFAULT_DATA_DIR;
  if (dataDir.trim() === '') problems.push('BACKEND_DATA_DIR must name a folder, got ""');
  const abuse = env.BACKEND_ABUSE ?? env._APP_OPTIONS_ABUSE ?? 'enabled';
  if (abuse !== 'enabled' && abuse !== 'disabled')
    problems.push(`BACKEND_ABUSE must be "enabled" or "disabled", got "${abuse}"`);
  if (problems.length)
    throw new Error(`Invalid backend configuration:\n  - ${problems.join('\n  - ')}`);
  return {
    host: env.BACKEND_HOST ?? '127.0.0.1',
    port,
    dataDir: isAbsolute(dataDir) ? resolve(dataDir) : resolve(cwd, dataDir),
    projectId,
    apiKey,
    abuse: abuse === 'enabled',
  };
}

/**
 * Creates the data folder if needed and checks that the backend may write in it; throws one
 * line naming the folder and the reason otherwise (e.g. `EACCES`, a file in the way).
 */
export function prepareDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK | constants.X_OK);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const reason =
      code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EEXIST' || code === 'ENOTDIR'
          ? 'a file is in the way'
          : code === 'EROFS'
            ? 'read-only file system'
            : message;
    throw new Error(
      `The data folder ${dataDir} (BACKEND_DATA_DIR) cannot be created or written: ${reason}${code ? ` (${code})` : ''}.`,
      { cause: error },
    );
  }
}
