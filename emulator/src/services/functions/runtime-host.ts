/**
 * The Node runtime inside one child process (started by `pool.ts`), playing Open Runtimes'
 * Node server (`runtimes/node/…/src/server.js`): it loads the deployment's entrypoint and runs
 * one execution at a time, sent over IPC. The user function gets Appwrite's context
 * `{req, res, log, error}`; `log`/`error` and the native `console` are written synchronously to
 * the execution's log files (so they survive the process being killed mid-execution).
 *
 * Started by `runtime-host-main.ts` (or, in the bundled backend, by `main.ts` when
 * `LIVEDESK_RUNTIME_HOST=1`) with `<codeDir> <entrypoint>`. Only Node built-ins are imported here.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** An execution request from the backend. */
export interface HostRequest {
  type: 'execute';
  id: string;
  method: string;
  /** Path with query string, e.g. `/orders?x=1`. */
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Seconds. */
  timeout: number;
  logging: boolean;
  logFile: string;
  errorFile: string;
}

/** The answer to a {@link HostRequest}. */
export interface HostResponse {
  type: 'result';
  id: string;
  statusCode: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** The function did not finish within its timeout (the process should be recycled). */
  timedOut: boolean;
  /** Whether anything was written to the log file and to the error file. */
  logged?: { logs: boolean; errors: boolean };
}

type Output = { body: unknown; statusCode: number; headers: Record<string, unknown> };

let codeDir = process.cwd();
let entrypoint = 'index.js';

class Logger {
  private readonly enabled: boolean;
  private readonly logFile: string;
  private readonly errorFile: string;
  private native = false;
  /** What was written: the backend reads only the files that exist. */
  readonly wrote = { logs: false, errors: false };
  private saved: Pick<Console, 'log' | 'error' | 'info' | 'debug' | 'warn'> | null = null;

  constructor(enabled: boolean, logFile: string, errorFile: string) {
    this.enabled = enabled;
    this.logFile = logFile;
    this.errorFile = errorFile;
  }

  write(messages: unknown[], type: 'log' | 'error', native = false): void {
    if (!this.enabled) return;
    if (native && !this.native) {
      this.native = true;
      this.write(
        ['Native logs detected. Use context.log() or context.error() for better experience.'],
        'log',
      );
    }
    let line = messages
      .map((message) => {
        if (message instanceof Error) return message.stack ?? String(message);
        if (typeof message === 'string') return message;
        try {
          return JSON.stringify(message);
        } catch {
          return String(message);
        }
      })
      .join(' ');
    if (line.length > 8000) {
      line = `${line.slice(0, 8000)}... Log truncated due to size limit (8000 characters)`;
    }
    try {
      if (type === 'error') this.wrote.errors = true;
      else this.wrote.logs = true;
      appendFileSync(type === 'error' ? this.errorFile : this.logFile, `${line}\n`);
    } catch {
      // logging must never break the execution
    }
  }

  overrideNative(): void {
    if (!this.enabled) return;
    this.saved = {
      log: console.log,
      error: console.error,
      info: console.info,
      debug: console.debug,
      warn: console.warn,
    };
    const capture = (...args: unknown[]) => this.write(args, 'log', true);
    console.log = console.error = console.info = console.debug = console.warn = capture;
  }

  revertNative(): void {
    if (!this.saved) return;
    Object.assign(console, this.saved);
    this.saved = null;
  }
}

let loaded: ((context: unknown) => unknown) | null = null;

async function loadFunction(): Promise<(context: unknown) => unknown> {
  if (loaded) return loaded;
  const file = join(codeDir, entrypoint);
  const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  let fn: unknown = module.default ?? module;
  if (fn && typeof fn === 'object' && typeof (fn as { default?: unknown }).default === 'function')
    fn = (fn as { default: unknown }).default;
  if (typeof fn !== 'function')
    throw new TypeError("Function signature invalid. Did you forget to export a 'main' function?");
  loaded = fn as (context: unknown) => unknown;
  return loaded;
}

function toBytes(body: unknown): Uint8Array {
  if (body === null || body === undefined) return new Uint8Array();
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(String(body), 'utf8');
}

function buildContext(request: HostRequest, logger: Logger) {
  const bodyBinary = Buffer.from(request.body);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!name.toLowerCase().startsWith('x-open-runtimes-')) headers[name.toLowerCase()] = value;
  }
  const contentType = (headers['content-type'] ?? 'text/plain').toLowerCase();
  const scheme = headers['x-forwarded-proto'] ?? 'http';
  const defaultPort = scheme === 'https' ? '443' : '80';
  const hostHeader = headers.host ?? 'localhost';
  const host = hostHeader.includes(':') ? hostHeader.split(':')[0]! : hostHeader;
  const port = Number(hostHeader.includes(':') ? hostHeader.split(':')[1] : defaultPort);
  const [path = '/', queryString = ''] = request.url.split(/\?(.*)/s);
  const query: Record<string, string> = {};
  for (const param of queryString.split('&')) {
    const [key, ...rest] = param.split('=');
    if (key) query[key] = rest.join('=');
  }
  const url = `${scheme}://${host}${String(port) === defaultPort ? '' : `:${port}`}${path}${queryString ? `?${queryString}` : ''}`;
  const res = {
    send(body: unknown, statusCode = 200, responseHeaders: Record<string, unknown> = {}): Output {
      return { body, statusCode, headers: responseHeaders };
    },
    text(body: string, statusCode = 200, responseHeaders: Record<string, unknown> = {}): Output {
      return res.binary(Buffer.from(body, 'utf8'), statusCode, responseHeaders);
    },
    binary(
      bytes: Uint8Array,
      statusCode = 200,
      responseHeaders: Record<string, unknown> = {},
    ): Output {
      return { body: bytes, statusCode, headers: responseHeaders };
    },
    json(value: unknown, statusCode = 200, responseHeaders: Record<string, unknown> = {}): Output {
      responseHeaders['content-type'] = 'application/json';
      return res.text(JSON.stringify(value), statusCode, responseHeaders);
    },
    empty(): Output {
      return res.text('', 204, {});
    },
    redirect(
      location: string,
      statusCode = 301,
      responseHeaders: Record<string, unknown> = {},
    ): Output {
      responseHeaders.location = location;
      return res.text('', statusCode, responseHeaders);
    },
  };
  return {
    req: {
      get body(): unknown {
        if (contentType.startsWith('application/json'))
          return bodyBinary.length > 0 ? this.bodyJson : {};
        return this.bodyText;
      },
      get bodyRaw(): string {
        return this.bodyText;
      },
      get bodyText(): string {
        return bodyBinary.toString();
      },
      get bodyJson(): unknown {
        return JSON.parse(this.bodyText);
      },
      get bodyBinary(): Buffer {
        return bodyBinary;
      },
      headers,
      method: request.method,
      host,
      scheme,
      query,
      queryString,
      port,
      url,
      path,
    },
    res,
    log: (...messages: unknown[]) => logger.write(messages, 'log'),
    error: (...messages: unknown[]) => logger.write(messages, 'error'),
  };
}

async function execute(request: HostRequest): Promise<HostResponse> {
  const logger = new Logger(request.logging, request.logFile, request.errorFile);
  const context = buildContext(request, logger);
  let output: Output | null = null;
  let timedOut = false;
  let fn: ((context: unknown) => unknown) | null = null;
  if (!existsSync(join(codeDir, entrypoint))) {
    context.error(`Failed to load entrypoint, file ${entrypoint} does not exist.`);
    output = context.res.text('', 503, {});
  } else {
    try {
      fn = await loadFunction();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof SyntaxError) context.error(`Syntax error in ${entrypoint}: ${message}`);
      else if (error instanceof TypeError) context.error(message);
      else context.error(`Failed to load module: ${message}`);
      output = context.res.text('', 503, {});
    }
  }
  if (fn) {
    logger.overrideNative();
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        Promise.resolve().then(() => fn(context)),
        new Promise<symbol>((resolve) => {
          timer = setTimeout(() => resolve(TIMEOUT), request.timeout * 1000);
        }),
      ]);
      if (result === TIMEOUT) {
        timedOut = true;
        context.error('Execution timed out.');
        output = context.res.text('', 500, {});
      } else {
        output = (result as Output | null | undefined) ?? null;
        if (output === null) {
          context.error(
            'Return statement missing. return context.res.empty() if no response is expected.',
          );
          output = context.res.text('', 500, {});
        }
      }
    } catch (error) {
      context.error(error instanceof Error ? (error.stack ?? String(error)) : error);
      output = context.res.text('', 500, {});
    } finally {
      clearTimeout(timer);
      logger.revertNative();
    }
  }
  const final = output ?? context.res.text('', 500, {});
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(final.headers ?? {})) {
    if (name.toLowerCase().startsWith('x-open-runtimes-')) continue;
    headers[name.toLowerCase()] = String(value);
  }
  const type = (headers['content-type'] ?? 'text/plain').toLowerCase();
  if (!type.startsWith('multipart/') && !type.includes('charset='))
    headers['content-type'] = `${type}; charset=utf-8`;
  return {
    type: 'result',
    id: request.id,
    statusCode: typeof final.statusCode === 'number' ? final.statusCode : 200,
    headers,
    body: toBytes(final.body),
    timedOut,
    logged: logger.wrote,
  };
}

const TIMEOUT = Symbol('timeout');

/**
 * Ends this process when the backend that started it is gone, even while the function blocks
 * the main thread (an endless loop): a worker thread watches the parent pid and kills the process.
 */
const ORPHAN_WATCHDOG = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid !== workerData.parent) process.kill(workerData.self, 'SIGKILL');
}, 500);
`;

/** Serves executions over IPC until the backend disconnects; `args` = `[codeDir, entrypoint]`. */
export function startRuntimeHost(args: readonly string[]): void {
  codeDir = args[0] ?? process.cwd();
  entrypoint = args[1] ?? 'index.js';
  delete process.env.LIVEDESK_RUNTIME_HOST;
  process.on('message', (message: HostRequest) => {
    if (message?.type !== 'execute') return;
    void execute(message).then(
      (response) => process.send?.(response),
      (error: unknown) =>
        process.send?.({
          type: 'result',
          id: message.id,
          statusCode: 500,
          headers: {},
          body: Buffer.from(String(error)),
          timedOut: false,
        } satisfies HostResponse),
    );
  });
  // A backend that goes away takes its runtimes with it.
  process.on('disconnect', () => process.exit(0));
  new Worker(ORPHAN_WATCHDOG, {
    eval: true,
    workerData: { parent: process.ppid, self: process.pid },
  }).unref();
  process.send?.({ type: 'ready' });
}
