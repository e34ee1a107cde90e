import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The flags every browser test and the benchmark use: one set, so runs compare. Chromium run as
 * root needs `--no-sandbox`; `--disable-background-networking`, `--disable-component-update` and
 * `--disable-sync` stop background traffic that would compete with the page (Playwright passes
 * the first two as well: microsoft/playwright `chromiumSwitches.ts`).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** An error answer of the DevTools protocol, with the method that got it. */
export class CdpError extends Error {
  readonly method: string;
  readonly code: number;

  constructor(method: string, code: number, message: string) {
    super(`${method}: ${message} (${code})`);
    this.method = method;
    this.code = code;
  }
}

type Pending = {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
};
type Listener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

/**
 * A Chrome DevTools Protocol connection to a browser's debugging WebSocket, with flat sessions
 * (`sessionId` on each message). Unlike a Playwright page it enables no domain by itself, so a
 * page driven through it pays for nothing it is not asked for — Playwright's network domain, for
 * one, copies every WebSocket frame a page receives to the driver.
 */
export class CdpConnection {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private nextId = 1;
  private readonly socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener('message', (event) => this.receive(String(event.data)));
    socket.addEventListener('close', () => {
      for (const { method, reject } of this.pending.values())
        reject(new CdpError(method, -1, 'connection closed'));
      this.pending.clear();
    });
  }

  /** Connects to `url` (`ws://…/devtools/browser/…`). */
  static open(url: string): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.addEventListener('open', () => resolve(new CdpConnection(socket)), { once: true });
      socket.addEventListener(
        'error',
        () => reject(new Error(`cannot connect to the DevTools endpoint ${url}`)),
        { once: true },
      );
    });
  }

  /** Sends a command (to the browser, or to a page through its `sessionId`) and returns its result. */
  send<Result = Record<string, unknown>>(
    method: string,
    params: object = {},
    sessionId?: string,
  ): Promise<Result> {
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      if (this.socket.readyState !== WebSocket.OPEN)
        return reject(new CdpError(method, -1, 'connection closed'));
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params, sessionId }));
    });
  }

  /** Calls `listener` for every event named `method`; returns the unsubscribe function. */
  on(method: string, listener: Listener): () => void {
    const set = this.listeners.get(method) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(method, set);
    return () => set.delete(listener);
  }

  /** The next event named `method`. */
  once(method: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const off = this.on(method, (params) => {
        off();
        resolve(params);
      });
    });
  }

  close(): void {
    this.socket.close();
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as {
      id?: number;
      result?: unknown;
      error?: { code: number; message: string };
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
    };
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if (message.error)
        pending.reject(new CdpError(pending.method, message.error.code, message.error.message));
      else pending.resolve(message.result);
      return;
    }
    if (message.method)
      for (const listener of this.listeners.get(message.method) ?? [])
        listener(message.params ?? {}, message.sessionId);
  }
}

/** A Chromium process listening for DevTools connections. */
export interface DebuggableChromium {
  /** The browser's DevTools WebSocket URL. */
  wsEndpoint: string;
  /** Ends the process and removes its throwaway profile. */
  close(): Promise<void>;
}

/**
 * Starts Chromium with `args`, a throwaway profile and a DevTools port of its choosing, and
 * resolves once it listens (rejects with its output if it exits or stays silent for 30 s).
 */
export function launchDebuggableChromium(
  executablePath: string,
  args: readonly string[],
): Promise<DebuggableChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'livedesk-chromium-'));
  const child = spawn(
    executablePath,
    [...args, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(profile, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    let output = '';
    let listening = false;
    const fail = (why: string) => {
      if (listening) return;
      clearTimeout(timer);
      void close().then(() => reject(new Error(`${why}; Chromium said: ${output.trim()}`)));
    };
    const timer = setTimeout(() => fail('Chromium did not open a DevTools port in 30 s'), 30_000);
    child.once('error', (error) => fail(`cannot start ${executablePath}: ${error.message}`));
    child.once('exit', (code) => fail(`Chromium exited with code ${code}`));
    child.stderr!.on('data', (chunk: Buffer) => {
      if (listening) return;
      output += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (!found) return;
      listening = true;
      clearTimeout(timer);
      resolve({ wsEndpoint: found[1]!, close });
    });
  });
}

/** The protocol's `Runtime.ExceptionDetails`, as far as they are read here. */
interface ExceptionDetails {
  text: string;
  exception?: { description?: string };
}

/** An exception's message with its stack when the page gave one. */
const describe = (details: ExceptionDetails): string =>
  details.exception?.description ?? details.text;

/**
 * A page target driven over a {@link CdpConnection} (its own flat session). Only the Runtime
 * domain is enabled, for exceptions thrown in the page.
 */
export class CdpPage {
  readonly connection: CdpConnection;
  readonly sessionId: string;
  readonly targetId: string;

  private constructor(connection: CdpConnection, sessionId: string, targetId: string) {
    this.connection = connection;
    this.sessionId = sessionId;
    this.targetId = targetId;
  }

  /** Opens a new tab at about:blank with a `width` × `height` viewport. */
  static async open(
    connection: CdpConnection,
    viewport: { width: number; height: number },
  ): Promise<CdpPage> {
    const { targetId } = await connection.send<{ targetId: string }>('Target.createTarget', {
      url: 'about:blank',
    });
    const { sessionId } = await connection.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId,
      flatten: true,
    });
    const page = new CdpPage(connection, sessionId, targetId);
    await page.send('Emulation.setDeviceMetricsOverride', {
      ...viewport,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await page.send('Runtime.enable');
    return page;
  }

  send<Result = Record<string, unknown>>(method: string, params: object = {}): Promise<Result> {
    return this.connection.send<Result>(method, params, this.sessionId);
  }

  /** Calls `listener` with the message of every exception the page throws and does not catch. */
  onError(listener: (message: string) => void): () => void {
    return this.connection.on('Runtime.exceptionThrown', (params, from) => {
      if (from !== this.sessionId) return;
      listener(describe(params.exceptionDetails as ExceptionDetails));
    });
  }

  /** Closes the tab (its page is hidden and unloaded, as when a person closes it). */
  async close(): Promise<void> {
    await this.connection.send('Target.closeTarget', { targetId: this.targetId });
  }

  async navigate(url: string): Promise<void> {
    const { errorText } = await this.send<{ errorText?: string }>('Page.navigate', { url });
    if (errorText) throw new Error(`cannot open ${url}: ${errorText}`);
  }

  /**
   * Runs `fn` in the page (its source is sent, so it must not close over anything) and returns
   * its JSON value, awaiting a returned promise.
   */
  async evaluate<T>(fn: () => T | Promise<T>): Promise<T> {
    const { result, exceptionDetails } = await this.send<{
      result: { value?: T };
      exceptionDetails?: ExceptionDetails;
    }>('Runtime.evaluate', {
      expression: `(${fn.toString()})()`,
      returnByValue: true,
      awaitPromise: true,
    });
    if (exceptionDetails) throw new Error(`in the page: ${describe(exceptionDetails)}`);
    return result.value as T;
  }

  /** Polls `fn` every `pollMs` until it returns a truthy value; rejects after `timeoutMs`. */
  async waitFor(
    fn: () => unknown,
    { timeoutMs, pollMs = 100 }: { timeoutMs: number; pollMs?: number },
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastError = '';
    for (;;) {
      // While the page navigates there is no context to evaluate in: try again.
      const done = await this.evaluate(fn).catch((error: unknown) => {
        lastError = `; last error: ${error instanceof Error ? error.message : String(error)}`;
        return false;
      });
      if (done) return;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${fn.toString()}${lastError}`);
      await sleep(pollMs);
    }
  }
}
