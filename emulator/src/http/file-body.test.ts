import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BufferPool } from '../core/buffer-pool.ts';
import { FileBody } from './file-body.ts';

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** An answer's body and how its writing ended. */
interface Sent {
  body: FileBody;
  done: Promise<'written' | 'failed'>;
}

let dir: string;
let server: Server | null = null;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'file-body-'));
});
afterEach(async () => {
  if (server) await new Promise((done) => server!.close(done));
  server = null;
  rmSync(dir, { recursive: true, force: true });
});

/** A server answering `GET /<name>?start=&length=` with those bytes of the file, through `pool`. */
async function serve(pool: BufferPool, finished: Sent[] = []): Promise<string> {
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost');
    const start = Number(url.searchParams.get('start') ?? 0);
    const length = Number(url.searchParams.get('length'));
    void open(join(dir, url.pathname.slice(1)), 'r').then((handle) => {
      res.writeHead(200, { 'Content-Length': String(length) });
      const body = new FileBody(handle, start, length, pool);
      const done = body.writeTo(res).then(
        () => 'written' as const,
        () => {
          res.destroy();
          return 'failed' as const;
        },
      );
      finished.push({ body, done });
    });
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

function request(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, resolve).on('error', reject));
}

/** Reads an answer slowly (a pause after every piece), so the server's writes wait on the socket. */
async function readSlowly(res: IncomingMessage): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of res as AsyncIterable<Buffer>) {
    pieces.push(piece);
    await sleep(1);
  }
  return Buffer.concat(pieces);
}

describe('FileBody', () => {
  it('gives two slow readers at once each its own bytes, buffers reused only once written', async () => {
    const size = 24 * 1024 * 1024 + 12345;
    const a = randomBytes(size);
    const b = randomBytes(size);
    writeFileSync(join(dir, 'a'), a);
    writeFileSync(join(dir, 'b'), b);
    // Small buffers and a pool that hands back the last buffer given: a buffer reused before the
    // socket wrote it would put one file's bytes (or later bytes) into the other's answer.
    const pool = new BufferPool(64 * 1024, 4);
    const base = await serve(pool);
    const [gotA, gotB] = await Promise.all([
      request(`${base}/a?length=${size}`).then(readSlowly),
      request(`${base}/b?length=${size}`).then(readSlowly),
    ]);
    expect(gotA.length).toBe(size);
    expect(gotB.length).toBe(size);
    expect(md5(gotA)).toBe(md5(a));
    expect(md5(gotB)).toBe(md5(b));
    expect(pool.available).toBeGreaterThan(0);
  });

  it('sends a range of the file, of any length', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 7);
    writeFileSync(join(dir, 'f'), bytes);
    const base = await serve(new BufferPool(1024 * 1024, 2));
    for (const [start, length] of [
      [0, 0],
      [0, 1],
      [5, 1024 * 1024],
      [1024 * 1024 - 3, 2 * 1024 * 1024 + 9],
      [0, bytes.length],
    ] as const) {
      const got = await readSlowly(await request(`${base}/f?start=${start}&length=${length}`));
      expect(md5(got)).toBe(md5(bytes.subarray(start, start + length)));
    }
  });

  it('cuts the answer short, never pads it, when the file is shorter than the body', async () => {
    writeFileSync(join(dir, 'short'), randomBytes(1000));
    const finished: Sent[] = [];
    const base = await serve(new BufferPool(256, 2), finished);
    const res = await request(`${base}/short?length=5000`);
    const received: Buffer[] = [];
    await new Promise<void>((resolve) => {
      res.on('data', (piece: Buffer) => received.push(piece));
      res.on('error', () => resolve());
      res.on('close', () => resolve());
    });
    expect(res.complete).toBe(false);
    expect(Buffer.concat(received).length).toBeLessThanOrEqual(1000);
    expect(await finished[0]!.done).toBe('failed');
    expect(finished[0]!.body.handle.fd).toBe(-1);
  });

  it('stops and closes the file when the client goes away mid-body', async () => {
    const size = 32 * 1024 * 1024;
    writeFileSync(join(dir, 'big'), randomBytes(size));
    const finished: Sent[] = [];
    const pool = new BufferPool(64 * 1024, 4);
    const base = await serve(pool, finished);
    const res = await request(`${base}/big?length=${size}`);
    await new Promise<void>((resolve) => res.once('data', () => resolve()));
    res.destroy();
    await expect.poll(() => finished.length).toBe(1);
    expect(await finished[0]!.done).toBe('failed');
    expect(finished[0]!.body.handle.fd).toBe(-1);
  });
});
