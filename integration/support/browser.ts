import type { Realtime } from 'appwrite';

/**
 * The few browser globals the `appwrite` SDK's realtime client needs in Node: `window`
 * (timers, `localStorage`, `console`) and `WebSocket`. The socket is Node's own WebSocket
 * (a real connection to the backend), subclassed only to record what arrives, so tests can
 * wait for the server's `response` acknowledgements the SDK ignores.
 */

/** A message received by a {@link RecordingWebSocket}, parsed. */
export interface ReceivedMessage {
  type: string;
  data?: Record<string, unknown> & {
    to?: string;
    code?: number;
    message?: string;
    subscriptions?: unknown;
  };
}

const NativeWebSocket = globalThis.WebSocket;

/** Node's WebSocket, recording every message and its close code. */
export class RecordingWebSocket extends NativeWebSocket {
  static readonly all: RecordingWebSocket[] = [];
  readonly received: ReceivedMessage[] = [];
  closeCode: number | null = null;
  private readonly waiters = new Set<() => void>();

  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    RecordingWebSocket.all.push(this);
    this.addEventListener('message', (event) => {
      try {
        this.received.push(JSON.parse(String(event.data)) as ReceivedMessage);
      } catch {
        this.received.push({ type: 'unparsable' });
      }
      this.wake();
    });
    this.addEventListener('close', (event) => {
      this.closeCode = event.code;
      this.wake();
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Resolves with the first message (already received or not) that `predicate` accepts. */
  waitFor(
    predicate: (message: ReceivedMessage) => boolean,
    timeoutMs = 15_000,
  ): Promise<ReceivedMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.received.find(predicate);
        if (found) {
          done();
          resolve(found);
        } else if (this.closeCode !== null && this.readyState === NativeWebSocket.CLOSED) {
          // keep waiting only while the socket can still receive
          done();
          reject(new Error(`socket closed (${this.closeCode}) before the expected message`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.received)}`),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolves once the socket is closed, with its close code. */
  closed(timeoutMs = 15_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.readyState !== NativeWebSocket.CLOSED) return;
        done();
        resolve(this.closeCode ?? 1005);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`socket still open after ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** An in-memory `localStorage`. */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
}

/** The `localStorage` of the fake window (the SDK keeps its `cookieFallback` there). */
export const storage = new MemoryStorage();

/** Defines `window` and swaps in {@link RecordingWebSocket}; call once at the top of a suite file. */
export function installBrowserGlobals(): void {
  const target = globalThis as unknown as Record<string, unknown>;
  target.window = {
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    localStorage: storage,
    console,
    location: { host: 'localhost', href: 'http://localhost/' },
  };
  target.WebSocket = RecordingWebSocket;
}

/** The socket a `Realtime` instance currently uses (a private field of the SDK). */
export function socketOf(realtime: Realtime): RecordingWebSocket {
  const socket = (realtime as unknown as { socket?: RecordingWebSocket }).socket;
  if (!socket) throw new Error('this Realtime has no socket yet');
  return socket;
}

/** Waits until `predicate()` is true, polling every 20 ms. */
export async function until(
  predicate: () => boolean,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
