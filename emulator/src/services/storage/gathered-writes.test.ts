import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Limiter } from '../../core/limiter.ts';
import { GatheredWrites } from './gathered-writes.ts';

const KIB = 1024;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gathered-writes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Splits `bytes` into pieces of 1 … 64 KiB, as a request body arrives. */
function pieces(bytes: Buffer): Buffer[] {
  const list: Buffer[] = [];
  for (let at = 0, step = 1; at < bytes.length; step = (step * 7919) % (64 * KIB) || 1) {
    list.push(bytes.subarray(at, at + step));
    at += step;
  }
  return list;
}

/** A file handle whose `writev` records its calls and writes at most `most` bytes each time. */
function recordingHandle(real: FileHandle, most: number) {
  const calls: { position: number; length: number }[] = [];
  const handle = {
    writev: async (buffers: Uint8Array[], position: number) => {
      const length = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
      calls.push({ position, length });
      const taken: Uint8Array[] = [];
      let left = Math.min(length, most);
      for (const buffer of buffers) {
        if (left === 0) break;
        taken.push(buffer.subarray(0, Math.min(left, buffer.length)));
        left -= Math.min(left, buffer.length);
      }
      return real.writev(taken, position);
    },
  };
  return { handle: handle as unknown as FileHandle, calls };
}

describe('GatheredWrites', () => {
  it('writes the pieces at their positions, 1 MiB per writev', async () => {
    const path = join(dir, 'f');
    const bytes = randomBytes(3 * 1024 * KIB + 333);
    const real = await open(path, 'w+');
    try {
      const { handle, calls } = recordingHandle(real, Infinity);
      const out = new GatheredWrites(handle, 100);
      for (const piece of pieces(bytes)) await out.write(piece);
      expect(await out.end()).toBe(bytes.length);
      expect(calls.length).toBeLessThanOrEqual(4);
      for (const call of calls.slice(0, -1)) expect(call.length).toBeGreaterThanOrEqual(1024 * KIB);
      expect(calls.reduce((sum, call) => sum + call.length, 0)).toBe(bytes.length);
    } finally {
      await real.close();
    }
    const written = readFileSync(path);
    expect(written.subarray(0, 100).every((byte) => byte === 0)).toBe(true);
    expect(written.subarray(100).equals(bytes)).toBe(true);
  });

  it('runs the writes of writers sharing a limiter at most `limit` at a time', async () => {
    const path = join(dir, 'shared');
    const bytes = randomBytes(4 * 1024 * KIB);
    const real = await open(path, 'w+');
    let running = 0;
    let most = 0;
    const handle = {
      writev: async (buffers: Uint8Array[], position: number) => {
        most = Math.max(most, ++running);
        try {
          await new Promise((done) => setImmediate(done));
          return await real.writev(buffers, position);
        } finally {
          running--;
        }
      },
    } as unknown as FileHandle;
    try {
      const limiter = new Limiter(1);
      const halves = [0, 2 * 1024 * KIB].map(async (start) => {
        const out = new GatheredWrites(handle, start, limiter);
        for (const piece of pieces(bytes.subarray(start, start + 2 * 1024 * KIB)))
          await out.write(piece);
        return out.end();
      });
      expect(await Promise.all(halves)).toEqual([2 * 1024 * KIB, 2 * 1024 * KIB]);
    } finally {
      await real.close();
    }
    expect(most).toBe(1);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('writes again what a short write left', async () => {
    const path = join(dir, 'short');
    const bytes = randomBytes(2 * 1024 * KIB + 5);
    const real = await open(path, 'w+');
    try {
      const { handle, calls } = recordingHandle(real, 300 * KIB + 1);
      const out = new GatheredWrites(handle, 0);
      for (const piece of pieces(bytes)) await out.write(piece);
      expect(await out.end()).toBe(bytes.length);
      expect(calls.length).toBeGreaterThan(3);
    } finally {
      await real.close();
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('rejects the next write or the end once a write failed', async () => {
    const failing = {
      writev: () => Promise.reject(new Error('ENOSPC: no space left on device')),
    } as unknown as FileHandle;
    const out = new GatheredWrites(failing, 0);
    const write = async () => {
      for (const piece of pieces(randomBytes(4 * 1024 * KIB))) await out.write(piece);
    };
    await expect(write()).rejects.toThrow(/ENOSPC/);
    const other = new GatheredWrites(failing, 0);
    await other.write(randomBytes(10));
    await expect(other.end()).rejects.toThrow(/ENOSPC/);
  });
});
