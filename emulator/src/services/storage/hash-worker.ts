import { Worker } from 'node:worker_threads';

/**
 * The worker's code, plain JavaScript run with `eval` (no file to find: the same in the bundled
 * backend as in the sources). It keeps an MD5 per key, fed with byte ranges of files read 1 MiB
 * at a time with synchronous reads (its own thread: nothing else waits on them, and libuv's
 * thread pool stays free for the uploads' writes). Messages are handled in order: `add` feeds a
 * key's MD5 (a read failure is kept and reported by `digest`), `digest` answers the hex MD5 (or
 * the error) and forgets the key, `drop` forgets it.
 */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { closeSync, openSync, readSync } = require('node:fs');
const buffer = Buffer.allocUnsafeSlow(1024 * 1024);
const hashes = new Map();
function add(state, path, start, end) {
  const fd = openSync(path, 'r');
  try {
    for (let position = start; position < end; ) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
      if (read === 0) throw new Error('the file ends at ' + position + ', before ' + end);
      state.hash.update(buffer.subarray(0, read));
      position += read;
    }
  } finally {
    closeSync(fd);
  }
}
parentPort.on('message', (message) => {
  if (message.op === 'add') {
    let state = hashes.get(message.key);
    if (!state) hashes.set(message.key, (state = { hash: createHash('md5'), error: null }));
    if (state.error) return;
    try {
      add(state, message.path, message.start, message.end);
    } catch (error) {
      state.error = String(error && error.message ? error.message : error);
    }
  } else if (message.op === 'digest') {
    const state = hashes.get(message.key) || { hash: createHash('md5'), error: null };
    hashes.delete(message.key);
    if (state.error) parentPort.postMessage({ id: message.id, error: state.error });
    else parentPort.postMessage({ id: message.id, md5: state.hash.digest('hex') });
  } else if (message.op === 'drop') {
    hashes.delete(message.key);
  }
});
`;

type Reply = { id: number; md5: string } | { id: number; error: string };

/**
 * MD5s computed on a worker thread from bytes on disk (the page cache), so that hashing an
 * upload's chunks — read back once recorded, in order — takes nothing from the event loop that
 * receives them, and keeps pace with them: the chunk that completes an upload finds the MD5 of
 * the others done. Per key, {@link add}s are hashed in the order they were made; {@link digest}
 * answers once every earlier add is hashed. The worker starts on first use, does not keep the
 * process alive, and is started again if it dies (the digests it held then fail: callers read
 * the file whole instead).
 */
export class HashWorker {
  private worker: Worker | null = null;
  /** Counts the workers started: a key's adds all went to one of them, or its digest fails. */
  private generation = 0;
  /** The worker (generation) each key's adds went to; -1 once they went to more than one. */
  private readonly keys = new Map<string, number>();
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (md5: string) => void; reject: (error: Error) => void }
  >();

  /** Adds bytes `start … end - 1` of the file at `path` to the MD5 of `key` (a new one if none). */
  add(key: string, path: string, start: number, end: number): void {
    if (end <= start) return;
    this.post({ op: 'add', key, path, start, end });
    const before = this.keys.get(key);
    this.keys.set(key, before === undefined || before === this.generation ? this.generation : -1);
  }

  /**
   * The MD5 (hex) of everything added to `key`, once hashed; `key` is then forgotten. Rejects
   * when a read failed (the file went or is shorter) or the worker died.
   */
  digest(key: string): Promise<string> {
    const generation = this.keys.get(key);
    this.keys.delete(key);
    if (generation !== undefined && (generation !== this.generation || !this.worker)) {
      this.drop(key);
      return Promise.reject(new Error('MD5 not computed: the hash worker was restarted'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.post({ op: 'digest', key, id });
    });
  }

  /** Forgets the MD5 of `key`. */
  drop(key: string): void {
    this.keys.delete(key);
    if (this.worker) this.worker.postMessage({ op: 'drop', key });
  }

  /** Stops the worker (digests waiting fail). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
    this.failAll(new Error('the hash worker was stopped'));
  }

  private post(message: Record<string, unknown>): void {
    this.started().postMessage(message);
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(SOURCE, { eval: true, name: 'storage-md5' });
    this.generation++;
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if ('md5' in reply) waiter.resolve(reply.md5);
      else waiter.reject(new Error(`MD5 not computed: ${reply.error}`));
    });
    const died = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(error);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`the hash worker exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
