/**
 * Benchmarks file storage in the local backend: a file of --size-mb (200 by default) uploaded
 * through the web SDK in Chromium and through node-appwrite (5 MiB chunks, the first alone, then
 * 8 asked in flight), each against one plain multipart request of the same bytes to the same
 * backend from the same place; each SDK against a server that only reads the bodies (its own
 * limit, so the ratio to the backend is honest); the backend's resident memory above its idle
 * size; beside every rate the CPU time per MiB of the server (backend or sink, from /proc) and of
 * the client (Node: process.cpuUsage; Chromium: the sum of its processes through CDP
 * `SystemInfo.getProcessInfo`); the download against reading the stored file from disk. Medians
 * of --runs interleaved runs, checked against the bytes they name (size and MD5), after a warm-up
 * of one untimed full-size upload of each way (printed and recorded, not counted: without it run 1
 * of every way was the slowest — the backend's chunk path, the SDKs and the page cache were cold
 * at full size). Appends a section to docs/benchmarks.md unless --no-record.
 *
 *   npm run bench:storage -- [--size-mb 200] [--runs 3] [--no-record] [--emulator-root <dir>]
 *
 * --emulator-root runs the backend of another checkout (its emulator/src/main.ts; e.g. a copy of
 * an older commit), to compare builds in runs interleaved on the same machine.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, request, type IncomingMessage } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { Client, ID, Permission, Role, Storage, Users } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import { chromium } from 'playwright-core';
import { freePort, waitForHealth } from './lib/free-port.ts';
import { CHROMIUM_ARGS } from './lib/cdp.ts';
import type { PageUpload } from './lib/bench-storage-page.ts';
import { cpuModel, recordEntry } from './lib/bench-record.ts';
import { chromiumCpuMs, ownCpuMs, processCpuMs, type ProcessInfo } from './lib/process-cpu.ts';
import { median } from './lib/stats.ts';
import { stopDescendantsOnSignal } from './lib/processes.ts';

stopDescendantsOnSignal();

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const { values: args } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    'no-record': { type: 'boolean', default: false },
    'emulator-root': { type: 'string', default: ROOT },
  },
});
const EMULATOR_ROOT = resolve(args['emulator-root']);
const SIZE = Math.round(Number(args['size-mb']) * 1024 * 1024);
const RUNS = Number(args.runs);
const SEED = 20261123;
const MB = 1024 * 1024;

/** The page's bytes: xorshift32 words, little-endian (scripts/lib/bench-storage-page.ts). */
function benchBytes(size: number, seed: number): Buffer {
  const words = new Uint32Array(Math.ceil(size / 4));
  let state = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[i] = state >>> 0;
  }
  return Buffer.from(words.buffer, 0, size);
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const mbps = (bytes: number, ms: number) => bytes / MB / (ms / 1000);

function rssKb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** What one measured step cost: the server's peak RSS (MB) and CPU time (ms) of server and client. */
interface Cost {
  peakMb: number;
  serverCpuMs: number;
  clientCpuMs: number;
}

/**
 * Runs `work`, sampling the server `pid`'s resident memory every 20 ms; resolves with work's
 * result and what it cost: the peak RSS and the CPU time server and client (`clientCpu`, a
 * counter in ms) spent meanwhile — figures other load on the machine moves far less than a rate.
 */
async function measured<T>(
  pid: number,
  clientCpu: () => Promise<number>,
  work: () => Promise<T>,
): Promise<[T, Cost]> {
  let peak = rssKb(pid);
  const serverBefore = processCpuMs(pid);
  const clientBefore = await clientCpu();
  const timer = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 20);
  try {
    const result = await work();
    peak = Math.max(peak, rssKb(pid));
    const serverCpuMs = processCpuMs(pid) - serverBefore;
    const clientCpuMs = (await clientCpu()) - clientBefore;
    return [result, { peakMb: peak / 1024, serverCpuMs, clientCpuMs }];
  } finally {
    clearInterval(timer);
  }
}

/** The commit of the backend measured (`+ changes` when its tree differs from it). */
function commitOf(root: string): string {
  try {
    const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
    }).trim();
    const dirty = execFileSync(
      'git',
      ['-C', root, 'status', '--porcelain', '--untracked-files=no'],
      {
        encoding: 'utf8',
      },
    ).trim();
    return dirty === '' ? head : `${head} + changes`;
  } catch {
    return `${root} (not a git checkout)`;
  }
}

/** One multipart request streaming `bytes` as the file part, from Node. */
function plainUpload(
  endpoint: string,
  headers: Record<string, string>,
  bucketId: string,
  bytes: Buffer,
): Promise<string> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="fileId"\r\n\r\nunique()\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolvePromise, reject) => {
    const req = request(
      `${endpoint}/storage/buckets/${bucketId}/files`,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + bytes.length + tail.length),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const body = JSON.parse(text) as { $id: string; message?: string };
          if (res.statusCode !== 201)
            reject(new Error(`plain upload: ${res.statusCode} ${body.message}`));
          else resolvePromise(body.$id);
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    for (let offset = 0; offset < bytes.length; offset += MB)
      req.write(bytes.subarray(offset, offset + MB));
    req.end(tail);
  });
}

/** A GET answered 200, as a stream of its body (node:http: no web-stream layer in the way). */
function httpGet(url: string, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolvePromise, reject) => {
    get(url, { headers }, (res) => {
      if (res.statusCode === 200) resolvePromise(res);
      else reject(new Error(`GET ${url}: ${res.statusCode}`));
    }).on('error', reject);
  });
}

/** Streams a URL or a file to its end, counting bytes (and hashing when asked). */
async function drain(
  source: AsyncIterable<Uint8Array>,
  hash: boolean,
): Promise<{ bytes: number; md5: string | null }> {
  const digest = hash ? createHash('md5') : null;
  let bytes = 0;
  for await (const chunk of source) {
    bytes += chunk.length;
    digest?.update(chunk);
  }
  return { bytes, md5: digest?.digest('hex') ?? null };
}

async function pageBundle(): Promise<string> {
  const result = await build({
    entryPoints: [join(ROOT, 'scripts/lib/bench-storage-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** What the backend's `GET /_emulator/storage/timings` answers (emulator/src/services/storage/timings.ts). */
interface BackendTimings {
  chunkAnswer: { count: number; median: number; p90: number; max: number };
  finishes: { writers: number; truncate: number; md5: number; flush: number; total: number }[];
}

interface Row {
  label: string;
  values: number[];
  unit: string;
  target?: string;
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const bytes = benchBytes(SIZE, SEED);
  const expected = md5(bytes);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'livedesk-bench-storage-'));
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const projectId = 'livedesk-bench';
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', join(EMULATOR_ROOT, 'emulator/src/main.ts')],
    {
      cwd: EMULATOR_ROOT,
      env: {
        ...process.env,
        BACKEND_PORT: String(port),
        BACKEND_HOST: '127.0.0.1',
        BACKEND_DATA_DIR: dataDir,
        APPWRITE_PROJECT_ID: projectId,
        APPWRITE_API_KEY: apiKey,
      },
      stdio: 'ignore',
    },
  );
  const endpoint = `http://127.0.0.1:${port}/v1`;
  // The SDKs' own limit: the same uploads to a server (its own process) that only reads the bodies.
  const sinkPort = await freePort();
  const sink = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      join(ROOT, 'scripts/lib/bench-sink-server.ts'),
      String(sinkPort),
    ],
    { cwd: ROOT, stdio: 'ignore' },
  );
  const sinkEndpoint = `http://127.0.0.1:${sinkPort}/v1`;
  const page = createServer((_request, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>bench:storage</title>');
  });
  const pagePort = await freePort();
  await new Promise<void>((done) => page.listen(pagePort, '127.0.0.1', done));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const browserCdp = await browser.newBrowserCDPSession();
  const chromiumCpu = () =>
    chromiumCpuMs(() => browserCdp.send('SystemInfo.getProcessInfo') as Promise<ProcessInfo>);
  const nodeCpu = () => Promise.resolve(ownCpuMs());
  try {
    await waitForHealth(endpoint);
    await waitForHealth(sinkEndpoint);
    const admin = new Client().setEndpoint(endpoint).setProject(projectId).setKey(apiKey);
    const storage = new Storage(admin);
    const bucketId = (
      await storage.createBucket({
        bucketId: ID.unique(),
        name: 'Bench',
        permissions: [Permission.create(Role.users()), Permission.read(Role.users())],
      })
    ).$id;
    const users = new Users(admin);
    const user = await users.create({
      userId: ID.unique(),
      email: `bench-${Date.now()}@example.test`,
      password: 'bench-password-1',
    });
    const session = (await users.createSession({ userId: user.$id })).secret;
    const browserPage = await browser.newPage();
    // a request Chromium gives up on is named (net::ERR_…) rather than left as "Failed to fetch"
    browserPage.on('requestfailed', (failed) =>
      console.error(
        `Chromium: ${failed.method()} ${failed.url()} failed: ${failed.failure()?.errorText}`,
      ),
    );
    await browserPage.goto(`http://127.0.0.1:${pagePort}/`);
    await browserPage.addScriptTag({ content: await pageBundle() });
    // The page uploads a file picked in a file input, as a person does: a File on disk (a
    // 200 MiB Blob made in the page is held in memory, which Chromium first copies out of the
    // renderer while the upload would run, and several of them overflow its blob storage).
    const pickedFile = join(dataDir, 'picked.bin');
    writeFileSync(pickedFile, bytes);
    await browserPage.evaluate(() => {
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'bench-file';
      document.body.append(input);
    });
    await browserPage.setInputFiles('#bench-file', pickedFile);
    const chromeVersion = browser.version();

    // A small upload (modules loaded), then the idle size.
    const warm = benchBytes(6 * MB, 1);
    await storage.createFile({
      bucketId,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(warm, 'warm.bin'),
    });
    await new Promise((done) => setTimeout(done, 500));
    const idleMb = rssKb(child.pid!) / 1024;

    const task = { endpoint, project: projectId, session, bucketId, size: SIZE };
    type Way =
      'web-sdk' | 'web-plain' | 'web-sdk-sink' | 'node-sdk' | 'node-plain' | 'node-sdk-sink';
    const WAYS: Way[] = [
      'web-sdk',
      'web-plain',
      'web-sdk-sink',
      'node-sdk',
      'node-plain',
      'node-sdk-sink',
    ];
    /** One list of figures per way. */
    const perWay = () =>
      Object.fromEntries(WAYS.map((way) => [way, [] as number[]])) as Record<Way, number[]>;
    const speeds = perWay();
    const serverCpu = perWay();
    const clientCpu = perWay();
    const peaks = perWay();
    /** Chunk requests the sink saw in flight at most, per SDK (how many each really sends at once). */
    const sinkInFlight = { web: [] as number[], node: [] as number[] };
    const sinkStats = async () =>
      (await (await fetch(`${sinkEndpoint}/_sink/stats`)).json()) as { maxInFlight: number };
    /** Where each SDK upload's time went on the backend (its test switch, since the last call). */
    const backendTimings = async (): Promise<BackendTimings | null> => {
      const response = await fetch(`${endpoint.replace(/\/v1$/, '')}/_emulator/storage/timings`, {
        headers: { 'x-appwrite-key': apiKey },
      });
      // an older backend (--emulator-root) has no such switch
      return response.ok ? ((await response.json()) as BackendTimings) : null;
    };
    type SdkWay = 'web-sdk' | 'node-sdk';
    const emptyTimings = () => ({
      median: [] as number[],
      p90: [] as number[],
      md5: [] as number[],
      flush: [] as number[],
    });
    const timings: Record<SdkWay, ReturnType<typeof emptyTimings>> = {
      'web-sdk': emptyTimings(),
      'node-sdk': emptyTimings(),
    };
    const sinkAdmin = new Client().setEndpoint(sinkEndpoint).setProject(projectId).setKey(apiKey);
    const download: number[] = [];
    const downloadServerCpu: number[] = [];
    const downloadClientCpu: number[] = [];
    const disk: number[] = [];
    const diskClientCpu: number[] = [];
    let checked = 0;
    const perMib = (ms: number) => ms / (SIZE / MB);

    const check = async (fileId: string) => {
      const file = await storage.getFile({ bucketId, fileId });
      if (file.sizeOriginal !== SIZE || file.signature !== expected)
        throw new Error(
          `file ${fileId}: ${file.sizeOriginal} bytes, md5 ${file.signature}; expected ${SIZE}, ${expected}`,
        );
      checked++;
    };
    /** One upload of `upload` in Chromium, through the web SDK or one plain request (the page's `bench`). */
    const inPage = (how: 'sdk' | 'plain', upload: PageUpload) =>
      browserPage.evaluate(
        ({ how, upload }) =>
          (
            window as unknown as {
              bench: Record<
                'sdk' | 'plain',
                (x: PageUpload) => Promise<{ ms: number; id: string }>
              >;
            }
          ).bench[how](upload),
        { how, upload },
      );
    const ways: Record<Way, () => Promise<{ ms: number; id: string }>> = {
      'web-sdk': () => inPage('sdk', task),
      'web-plain': () => inPage('plain', task),
      'web-sdk-sink': () => inPage('sdk', { ...task, endpoint: sinkEndpoint }),
      'node-sdk-sink': async () => {
        const started = performance.now();
        const file = await new Storage(sinkAdmin).createFile({
          bucketId,
          fileId: ID.unique(),
          file: InputFile.fromBuffer(bytes, 'bench.bin'),
        });
        return { ms: performance.now() - started, id: file.$id };
      },
      'node-sdk': async () => {
        const started = performance.now();
        const file = await storage.createFile({
          bucketId,
          fileId: ID.unique(),
          file: InputFile.fromBuffer(bytes, 'bench.bin'),
        });
        return { ms: performance.now() - started, id: file.$id };
      },
      'node-plain': async () => {
        const started = performance.now();
        const id = await plainUpload(
          endpoint,
          { 'x-appwrite-project': projectId, 'x-appwrite-key': apiKey },
          bucketId,
          bytes,
        );
        return { ms: performance.now() - started, id };
      },
    };

    // One untimed full-size upload of each way first: run 1 was the slowest of every way (the
    // 6 MiB warm-up above leaves the 200 MiB paths cold — JIT of the chunk loop in the backend and
    // the SDKs, the backend's heap and the page cache grown), so it measured a cold start.
    const warmUp: string[] = [];
    for (const way of WAYS) {
      const { ms, id } = await ways[way]();
      if (!way.endsWith('-sink')) {
        await check(id);
        await storage.deleteFile({ bucketId, fileId: id });
      }
      warmUp.push(`${way} ${mbps(SIZE, ms).toFixed(0)}`);
      process.stdout.write(`warm-up ${way}: ${mbps(SIZE, ms).toFixed(1)} MB/s (not counted)\n`);
    }

    for (let run = 1; run <= RUNS; run++) {
      for (const way of WAYS) {
        const sinkWay = way.endsWith('-sink');
        const sdkWay = way === 'web-sdk' || way === 'node-sdk' ? way : null;
        if (sinkWay) await sinkStats();
        if (sdkWay) await backendTimings();
        const [result, cost] = await measured(
          sinkWay ? sink.pid! : child.pid!,
          way.startsWith('web') ? chromiumCpu : nodeCpu,
          ways[way],
        );
        speeds[way].push(mbps(SIZE, result.ms));
        peaks[way].push(cost.peakMb - idleMb);
        serverCpu[way].push(perMib(cost.serverCpuMs));
        clientCpu[way].push(perMib(cost.clientCpuMs));
        const cpuNote = `CPU/MiB server ${serverCpu[way].at(-1)!.toFixed(1)} ms, client ${clientCpu[way].at(-1)!.toFixed(1)} ms`;
        if (sinkWay) {
          const { maxInFlight } = await sinkStats();
          sinkInFlight[way === 'web-sdk-sink' ? 'web' : 'node'].push(maxInFlight);
          process.stdout.write(
            `run ${run} ${way}: ${speeds[way].at(-1)!.toFixed(1)} MB/s, ${cpuNote}, ${maxInFlight} chunks in flight at most\n`,
          );
          continue;
        }
        if (sdkWay) {
          const report = await backendTimings();
          const last = report?.finishes.at(-1);
          const row = timings[sdkWay];
          row.median.push(report?.chunkAnswer.median ?? NaN);
          row.p90.push(report?.chunkAnswer.p90 ?? NaN);
          row.md5.push(last?.md5 ?? NaN);
          row.flush.push(last?.flush ?? NaN);
          if (report && last)
            process.stdout.write(
              `run ${run} ${way}: backend, chunk's last byte read → answer ready median ${report.chunkAnswer.median.toFixed(1)} ms, p90 ${report.chunkAnswer.p90.toFixed(1)} ms (${report.chunkAnswer.count} chunks); last chunk waited ${last.md5.toFixed(1)} ms for the MD5, ${last.flush.toFixed(1)} ms for the flush, ${last.total.toFixed(1)} ms in all\n`,
            );
        }
        await check(result.id);
        if (way !== 'node-plain') await storage.deleteFile({ bucketId, fileId: result.id });
        else {
          const path = join(dataDir, 'storage', 'files', bucketId, result.id);
          const url = `${endpoint}/storage/buckets/${bucketId}/files/${result.id}/download`;
          const headers = { 'x-appwrite-project': projectId, 'x-appwrite-key': apiKey };
          let started = performance.now();
          let clientBefore = ownCpuMs();
          const fromDisk = await drain(createReadStream(path, { highWaterMark: MB }), false);
          disk.push(mbps(fromDisk.bytes, performance.now() - started));
          diskClientCpu.push(perMib(ownCpuMs() - clientBefore));
          const [got, downloadCost] = await measured(child.pid!, nodeCpu, async () => {
            started = performance.now();
            clientBefore = ownCpuMs();
            const drained = await drain(await httpGet(url, headers), false);
            return { ...drained, ms: performance.now() - started };
          });
          download.push(mbps(got.bytes, got.ms));
          downloadServerCpu.push(perMib(downloadCost.serverCpuMs));
          downloadClientCpu.push(perMib(downloadCost.clientCpuMs));
          if (got.bytes !== SIZE || fromDisk.bytes !== SIZE)
            throw new Error('a read returned the wrong length');
          if (run === 1) {
            const verified = await drain(await httpGet(url, headers), true);
            if (verified.md5 !== expected) throw new Error('the download differs from the upload');
          }
          await storage.deleteFile({ bucketId, fileId: result.id });
          process.stdout.write(
            `run ${run} download: ${download.at(-1)!.toFixed(1)} MB/s, CPU/MiB server ${downloadServerCpu.at(-1)!.toFixed(2)} ms, client ${downloadClientCpu.at(-1)!.toFixed(2)} ms; disk read ${disk.at(-1)!.toFixed(0)} MB/s\n`,
          );
        }
        process.stdout.write(
          `run ${run} ${way}: ${speeds[way].at(-1)!.toFixed(1)} MB/s, ${cpuNote}, RSS +${peaks[way].at(-1)!.toFixed(0)} MB\n`,
        );
      }
    }

    const ratio = (a: number[], b: number[]) => a.map((value, i) => value / b[i]!);
    /** A rate's row and, beside it, the CPU time per MiB of its server and client. */
    const rateRows = (
      label: string,
      way: Way,
      server: string,
      client: string,
      target?: string,
    ): Row[] => [
      { label, values: speeds[way], unit: 'MB/s', target },
      { label: `… CPU per MiB, ${server}`, values: serverCpu[way], unit: 'ms' },
      { label: `… CPU per MiB, ${client}`, values: clientCpu[way], unit: 'ms' },
    ];
    const backendTimingRows = (name: string, way: SdkWay): Row[] => [
      {
        label: `${name}: backend, a chunk's last byte read → its answer ready, median`,
        values: timings[way].median,
        unit: 'ms',
      },
      {
        label: `${name}: backend, a chunk's last byte read → its answer ready, p90`,
        values: timings[way].p90,
        unit: 'ms',
      },
      {
        label: `${name}: backend, last chunk waiting for the MD5`,
        values: timings[way].md5,
        unit: 'ms',
      },
      {
        label: `${name}: backend, last chunk waiting for the flush (beside the MD5)`,
        values: timings[way].flush,
        unit: 'ms',
      },
    ];
    const rows: Row[] = [
      ...rateRows(
        'web SDK in Chromium (5 MiB chunks, 8 asked in flight)',
        'web-sdk',
        'backend',
        'Chromium',
        '≥ 100',
      ),
      ...rateRows(
        'plain request from Chromium (one multipart POST)',
        'web-plain',
        'backend',
        'Chromium',
      ),
      {
        label: 'web SDK ÷ plain (Chromium)',
        values: ratio(speeds['web-sdk'], speeds['web-plain']),
        unit: '×',
        target: '≥ 0.5',
      },
      ...rateRows(
        "web SDK to a server that only reads the bodies (the SDK's own limit)",
        'web-sdk-sink',
        'sink',
        'Chromium',
      ),
      {
        label: 'web SDK chunks in flight at most (seen by the sink)',
        values: sinkInFlight.web,
        unit: 'requests',
      },
      {
        label: 'web SDK to the backend ÷ its own limit',
        values: ratio(speeds['web-sdk'], speeds['web-sdk-sink']),
        unit: '×',
      },
      ...backendTimingRows('web SDK', 'web-sdk'),
      ...rateRows(
        'node-appwrite (5 MiB chunks, 8 asked in flight)',
        'node-sdk',
        'backend',
        'Node client',
        '≥ 100',
      ),
      ...rateRows(
        'plain request from Node (one multipart POST)',
        'node-plain',
        'backend',
        'Node client',
      ),
      {
        label: 'node-appwrite ÷ plain (Node)',
        values: ratio(speeds['node-sdk'], speeds['node-plain']),
        unit: '×',
        target: '≥ 0.5',
      },
      ...rateRows(
        "node-appwrite to a server that only reads the bodies (the SDK's own limit)",
        'node-sdk-sink',
        'sink',
        'Node client',
      ),
      {
        label: 'node-appwrite chunks in flight at most (seen by the sink)',
        values: sinkInFlight.node,
        unit: 'requests',
      },
      {
        label: 'node-appwrite to the backend ÷ its own limit',
        values: ratio(speeds['node-sdk'], speeds['node-sdk-sink']),
        unit: '×',
      },
      ...backendTimingRows('node-appwrite', 'node-sdk'),
      {
        label: 'backend RSS above idle, web SDK upload (peak)',
        values: peaks['web-sdk'],
        unit: 'MB',
        target: '≤ 100',
      },
      {
        label: 'backend RSS above idle, node-appwrite upload (peak)',
        values: peaks['node-sdk'],
        unit: 'MB',
        target: '≤ 100',
      },
      {
        label: 'backend RSS above idle, plain upload from Node (peak)',
        values: peaks['node-plain'],
        unit: 'MB',
        target: '≤ 100',
      },
      { label: 'download (node:http, whole file)', values: download, unit: 'MB/s' },
      { label: '… CPU per MiB, backend', values: downloadServerCpu, unit: 'ms' },
      { label: '… CPU per MiB, Node client', values: downloadClientCpu, unit: 'ms' },
      { label: 'reading the stored file from disk', values: disk, unit: 'MB/s' },
      { label: '… CPU per MiB, reader', values: diskClientCpu, unit: 'ms' },
      { label: 'download ÷ disk read', values: ratio(download, disk), unit: '×' },
    ];
    const loadAfter = loadavg()[0]!;
    const format = (value: number, unit: string) =>
      unit === '×' || value < 1
        ? value.toFixed(2)
        : value < 10
          ? value.toFixed(1)
          : value.toFixed(0);
    const header = `| metric | ${Array.from({ length: RUNS }, (_, i) => `run ${i + 1}`).join(' | ')} | median | target |`;
    const lines = [
      header,
      `|---|${'---|'.repeat(RUNS)}---|---|`,
      ...rows.map(
        (row) =>
          `| ${row.label} (${row.unit}) | ${row.values.map((v) => format(v, row.unit)).join(' | ')} | ${format(median(row.values), row.unit)} | ${row.target ?? ''} |`,
      ),
    ];
    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const section = [
      `### ${date} UTC · ${cpus().length} × ${cpuModel()} · Node ${process.version} · Chromium ${chromeVersion} headless · ${commitOf(EMULATOR_ROOT)} · ${(SIZE / MB).toFixed(0)} MiB file, ${RUNS} run(s)`,
      '',
      `Load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; backend idle RSS ${idleMb.toFixed(0)} MB. ${checked} uploads checked (size and MD5), the download of run 1 checked byte for byte (MD5). Warm-up, one full-size upload of each way before the runs (MB/s, not counted): ${warmUp.join(', ')}.`,
      '',
      ...lines,
      '',
    ].join('\n');
    console.log(`\n${section}`);
    if (!args['no-record']) recordEntry('Storage', section, INTRO);
  } finally {
    await browserCdp.detach().catch(() => {});
    await browser.close();
    page.close();
    child.kill('SIGTERM');
    sink.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const INTRO = `\`npm run bench:storage\` (scripts/bench-storage.ts): a file uploaded to a fresh local backend
through the web SDK in headless Chromium and through node-appwrite (5 MiB chunks: the first
alone, then 8 asked in flight — Chromium sends 6 at once, its connections per host), each against
one plain multipart request of the same bytes to the same backend from the same client; each
SDK's uploads to a server (its own process) that only reads the bodies — the SDK's own limit, what
the SDK could reach with a backend costing nothing; the backend's resident memory above its idle
size during each upload (sampled every 20 ms); beside every rate the CPU time per MiB of its server
(backend or sink, from /proc) and of its client (Node: \`process.cpuUsage\`; Chromium: the sum of
its processes through CDP \`SystemInfo.getProcessInfo\`) — figures other load on the machine moves
far less than a rate; for each SDK upload, what the backend's test switch
\`GET /_emulator/storage/timings\` reports (a chunk's last byte read → its answer ready, median and
p90; the last chunk's waits for the MD5 and the flush); the download (node:http) against reading
the stored file from disk. Runs
interleave the six uploads, after a warm-up of one untimed full-size upload of each way (its rates
are recorded beside the load, not counted; without it run 1 of every way was the slowest: the
6 MiB warm-up left the 200 MiB paths cold); every upload to the backend is checked (size and MD5 signature
against the bytes sent). \`--emulator-root <dir>\` runs another checkout's backend (A/B runs of two
builds, interleaved). Targets (issue 18): the SDK path at ≥ 50% of the plain one and ≥ 100 MB/s;
RSS ≤ 100 MB above idle.
`;

await main();
