import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { create as tar } from 'tar';
import { ImageName, type ContainerRuntimeClient } from 'testcontainers';

const ROOT = resolve(import.meta.dirname, '../..');
const WORK_DIR = join(ROOT, 'node_modules/.cache/livedesk-backend-image');

/** The repository of the local backend's image; the tag is a hash of what goes into it. */
export const LOCAL_BACKEND_REPOSITORY = 'localhost/livedesk-backend';

/** Where the Node binary sits inside the image. */
const NODE_IN_IMAGE = '/usr/local/bin/node';

const DOCKERFILE = `FROM scratch
COPY rootfs/ /
ENV NODE_ENV=production BACKEND_HOST=127.0.0.1 BACKEND_DATA_DIR=/data PATH=/usr/local/bin:/usr/bin:/bin
WORKDIR /app
ENTRYPOINT ["${NODE_IN_IMAGE}", "--disable-warning=ExperimentalWarning", "/app/main.mjs"]
`;

/** A Node ≥ 24 binary on this machine (the one running the tests, or the `node` package's). */
export function nodeBinary(): { path: string; version: string } | null {
  const candidates = [process.execPath, join(ROOT, 'node_modules/node/bin/node')];
  for (const candidate of candidates) {
    try {
      const path = realpathSync(candidate);
      const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
      if (Number(version.slice(1).split('.')[0]) >= 24) return { path, version };
    } catch {
      // try the next one
    }
  }
  return null;
}

/** The shared libraries `ldd` lists for `binary`, as absolute paths (the loader included). */
export function sharedLibraries(binary: string): string[] {
  const output = execFileSync('ldd', [binary], { encoding: 'utf8' });
  const libraries: string[] = [];
  for (const line of output.split('\n')) {
    const match = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (match) libraries.push(match[1]!);
  }
  return libraries;
}

async function bundleBackend(outFile: string): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'emulator/src/main.ts')],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // CommonJS dependencies (ws, …) call require() for Node built-ins.
    banner: {
      js: "import { createRequire as __livedeskCreateRequire } from 'node:module'; const require = __livedeskCreateRequire(import.meta.url);",
    },
    // Optional native speed-ups of ws, loaded inside try/catch; sharp (native, loaded on the
    // first preview) is copied into the image's node_modules instead (NATIVE_PACKAGES).
    external: ['bufferutil', 'utf-8-validate', 'sharp'],
    logLevel: 'silent',
    legalComments: 'none',
  });
}

/** sharp and what it loads at run time (its JS dependencies, its binary and libvips for this platform). */
const NATIVE_PACKAGES = [
  'sharp',
  '@img/colour',
  'detect-libc',
  'semver',
  `@img/sharp-${process.platform}-${process.arch}`,
  `@img/sharp-libvips-${process.platform}-${process.arch}`,
];

/** Every file under `dir` (recursively). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Hard-links (or copies across file systems) `source` to `target`. */
function place(source: string, target: string): void {
  mkdirSync(dirname(target), { recursive: true });
  try {
    linkSync(source, target);
  } catch {
    copyFileSync(source, target);
  }
}

async function buildImage(
  client: ContainerRuntimeClient,
  context: string,
  image: string,
  labels: Record<string, string>,
): Promise<void> {
  const dockerode = client.container.dockerode;
  const stream = await dockerode.buildImage(
    tar({ cwd: context, portable: true }, [
      'Dockerfile',
      'rootfs',
    ]) as unknown as NodeJS.ReadableStream,
    { t: image, labels, rm: true, forcerm: true },
  );
  const output: string[] = [];
  await new Promise<void>((resolvePromise, reject) => {
    dockerode.modem.followProgress(
      stream,
      (error: Error | null, events: { error?: string; stream?: string }[]) => {
        const failure = error?.message ?? events.find((event) => event.error)?.error;
        if (failure) reject(new Error(`building ${image} failed: ${failure}\n${output.join('')}`));
        else resolvePromise();
      },
      (event: { stream?: string }) => {
        if (event.stream) output.push(event.stream);
      },
    );
  });
}

/** Removes earlier builds of the image (each is ~135 MB); those still used by a container stay. */
async function removeOlderImages(client: ContainerRuntimeClient, keep: string): Promise<void> {
  const dockerode = client.container.dockerode;
  const images = await dockerode.listImages({
    filters: { reference: [LOCAL_BACKEND_REPOSITORY] },
  });
  for (const info of images) {
    if ((info.RepoTags ?? []).includes(keep)) continue;
    await dockerode
      .getImage(info.Id)
      .remove()
      .catch(() => {});
  }
}

/**
 * The local backend's container image, built on this machine without any registry: the
 * backend bundled by esbuild, this machine's Node ≥ 24 binary and `/bin/sh`, and the shared
 * libraries they need (at the same paths), `FROM scratch`. There is no npm in the image. Built through the Docker API, so Docker and podman both
 * work. The tag is a hash of everything in the image, so an unchanged backend is not rebuilt.
 */
export async function localBackendImage(
  client: ContainerRuntimeClient,
  log: (line: string) => void = () => {},
): Promise<string> {
  const node = nodeBinary();
  if (!node) throw new Error('no Node ≥ 24 binary found to put into the image');
  // A POSIX shell too: the functions runtime runs a deployment's build commands with /bin/sh.
  const shell = existsSync('/bin/sh') ? realpathSync('/bin/sh') : null;
  const packages = NATIVE_PACKAGES.map((name) => join(ROOT, 'node_modules', name)).filter((dir) =>
    existsSync(dir),
  );
  const packageFiles = packages.flatMap(filesUnder);
  const addons = packageFiles.filter((file) => file.endsWith('.node'));
  const libraries = [
    ...new Set([
      ...sharedLibraries(node.path),
      ...(shell ? sharedLibraries(shell) : []),
      // the system libraries of sharp's binary (libvips itself comes with its package)
      ...addons.flatMap(sharedLibraries).filter((library) => !library.includes('node_modules')),
    ]),
  ];
  mkdirSync(WORK_DIR, { recursive: true });
  const bundle = join(WORK_DIR, 'main.mjs');
  await bundleBackend(bundle);

  const hash = createHash('sha256');
  hash.update(DOCKERFILE);
  hash.update(readFileSync(bundle));
  hash.update(`${node.version}\n${shell}\n${libraries.join('\n')}`);
  for (const dir of packages) hash.update(readFileSync(join(dir, 'package.json')));
  const image = `${LOCAL_BACKEND_REPOSITORY}:${hash.digest('hex').slice(0, 16)}`;
  if (await client.image.exists(ImageName.fromString(image))) return image;

  const started = Date.now();
  const context = join(WORK_DIR, 'context');
  rmSync(context, { recursive: true, force: true });
  const rootfs = join(context, 'rootfs');
  place(node.path, join(rootfs, NODE_IN_IMAGE));
  if (shell) place(shell, join(rootfs, 'bin/sh'));
  for (const library of libraries) place(realpathSync(library), join(rootfs, library));
  place(bundle, join(rootfs, 'app/main.mjs'));
  for (const file of packageFiles)
    place(
      file,
      join(rootfs, 'app/node_modules', file.slice(join(ROOT, 'node_modules').length + 1)),
    );
  mkdirSync(join(rootfs, 'tmp'), { recursive: true });
  mkdirSync(join(rootfs, 'data'), { recursive: true });
  writeFileSync(join(context, 'Dockerfile'), DOCKERFILE);
  await buildImage(client, context, image, {
    'org.opencontainers.image.title': 'Livedesk local backend',
    'livedesk.node-version': node.version,
  });
  rmSync(context, { recursive: true, force: true });
  if (!(await client.image.exists(ImageName.fromString(image))))
    throw new Error(`building ${image} reported success, but the engine does not have it`);
  log(`built ${image} (Node ${node.version}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await removeOlderImages(client, image);
  return image;
}
