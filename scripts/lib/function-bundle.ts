import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { create as tar } from 'tar';

/** Where the functions' sources live: `functions/<id>/src/main.ts`. */
export const FUNCTIONS_DIR = resolve(import.meta.dirname, '../../functions');

/** The entrypoint inside every archive. */
export const FUNCTION_ENTRYPOINT = 'main.js';

/** A function built for deployment. */
export interface FunctionBundle {
  /** The tar.gz with `main.js` (one ESM file, dependencies included) and `package.json`. */
  archive: Buffer;
  /** sha256 of what runs (the bundle and its package.json), hex. */
  hash: string;
  /** Size of `main.js` in bytes. */
  size: number;
}

const PACKAGE_JSON = `${JSON.stringify({ type: 'module' })}\n`;

/**
 * Bundles `functions/<id>/src/main.ts` with esbuild into one ESM `main.js` for Node 22
 * (node-appwrite and domain/ included, so the deployment needs no `npm install`), next to a
 * `package.json` marking it as ESM, packed as a reproducible tar.gz.
 */
export async function bundleFunction(
  functionId: string,
  sourceDir = FUNCTIONS_DIR,
): Promise<FunctionBundle> {
  const entry = join(sourceDir, functionId, 'src/main.ts');
  if (!existsSync(entry)) throw new Error(`Function ${functionId} has no source at ${entry}`);
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    outfile: FUNCTION_ENTRYPOINT,
    // CommonJS dependencies call require() for Node built-ins.
    banner: {
      js: "import { createRequire as __livedeskRequire } from 'node:module'; const require = __livedeskRequire(import.meta.url);",
    },
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const dir = mkdtempSync(join(tmpdir(), `livedesk-fn-${functionId}-`));
  try {
    writeFileSync(join(dir, FUNCTION_ENTRYPOINT), code);
    writeFileSync(join(dir, 'package.json'), PACKAGE_JSON);
    const file = join(dir, 'code.tar.gz');
    await tar({ gzip: true, file, cwd: dir, portable: true, mtime: new Date(0) }, [
      FUNCTION_ENTRYPOINT,
      'package.json',
    ]);
    const hash = createHash('sha256').update(code).update(PACKAGE_JSON).digest('hex');
    return { archive: readFileSync(file), hash, size: code.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
