import { resolve } from 'node:path';

/** The project's root folder (where package.json and .env live). */
export const PROJECT_ROOT = resolve(import.meta.dirname, '../..');

/**
 * A path taken from the environment, made absolute once: a relative one is relative to the
 * project root (where `npm` runs its scripts), whatever the current working directory.
 */
export function projectPath(value: string, root: string = PROJECT_ROOT): string {
  return resolve(root, value);
}

/** Chromium for the browser tests, bench:ui and the README check (`CHROMIUM_PATH`), absolute. */
export const CHROMIUM_PATH = projectPath(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');

/** Where admin scripts reach Appwrite: any Appwrite, or the local backend. */
export interface AdminEnv {
  endpoint: string;
  projectId: string;
  apiKey: string;
}

/**
 * Reads `APPWRITE_ENDPOINT`, `APPWRITE_PROJECT_ID` and `APPWRITE_API_KEY` (npm scripts load `.env`
 * first), failing with one readable list of what is missing.
 */
export function adminEnv(env: NodeJS.ProcessEnv = process.env): AdminEnv {
  const missing: string[] = [];
  const endpoint = env.APPWRITE_ENDPOINT ?? '';
  const projectId = env.APPWRITE_PROJECT_ID ?? '';
  const apiKey = env.APPWRITE_API_KEY ?? '';
  if (!/^https?:\/\/.+\/v1$/.test(endpoint))
    missing.push('APPWRITE_ENDPOINT (e.g. http://127.0.0.1:8787/v1)');
  if (!projectId) missing.push('APPWRITE_PROJECT_ID');
  if (!apiKey) missing.push('APPWRITE_API_KEY');
  if (missing.length) {
    throw new Error(
      `Missing or invalid environment (see .env.example):\n  - ${missing.join('\n  - ')}`,
    );
  }
  return { endpoint, projectId, apiKey };
}

/** Parses `--name value` and `--flag` arguments. */
export function parseArgs(argv: readonly string[]): Map<string, string | true> {
  const args = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    if (inline !== undefined) args.set(name, inline);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--'))
      args.set(name, argv[++i]!);
    else args.set(name, true);
  }
  return args;
}

/** A positive number argument, or `fallback`; throws a readable error on bad input. */
export function numberArg(
  args: Map<string, string | true>,
  name: string,
  fallback: number,
  options: { min?: number; max?: number } = {},
): number {
  const raw = args.get(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  const min = options.min ?? 0;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  if (raw === true || !Number.isFinite(value) || value < min || value > max) {
    throw new Error(
      `--${name} must be a number from ${min} to ${max}, got "${raw === true ? '' : raw}"`,
    );
  }
  return value;
}
