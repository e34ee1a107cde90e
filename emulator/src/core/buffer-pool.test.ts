import { describe, expect, it } from 'vitest';
import { BufferPool } from './buffer-pool.ts';

describe('BufferPool', () => {
  it('gives buffers of its size and reuses those given back, last in first out', () => {
    const pool = new BufferPool(1024, 2);
    const a = pool.take();
    const b = pool.take();
    expect(a.length).toBe(1024);
    expect(a).not.toBe(b);
    expect(a.buffer).not.toBe(b.buffer);
    pool.give(a);
    pool.give(b);
    expect(pool.available).toBe(2);
    expect(pool.take()).toBe(b);
    expect(pool.take()).toBe(a);
    expect(pool.available).toBe(0);
  });

  it('keeps at most `keep` free buffers', () => {
    const pool = new BufferPool(16, 1);
    const a = pool.take();
    const b = pool.take();
    pool.give(a);
    pool.give(b);
    expect(pool.available).toBe(1);
    expect(pool.take()).toBe(a);
    expect(pool.take()).not.toBe(b);
  });

  it('refuses a buffer given back twice, of another size, or a view into one', () => {
    const pool = new BufferPool(16, 4);
    const a = pool.take();
    pool.give(a);
    expect(() => pool.give(a)).toThrow(/twice/);
    expect(() => pool.give(Buffer.alloc(8))).toThrow(/not a buffer/);
    expect(() => pool.give(pool.take().subarray(0, 8))).toThrow(/not a buffer/);
    expect(() => pool.give(Buffer.alloc(16))).toThrow(/not a buffer/);
  });

  it('refuses a size or a count that is not a positive integer', () => {
    expect(() => new BufferPool(0, 1)).toThrow(RangeError);
    expect(() => new BufferPool(10, -1)).toThrow(RangeError);
  });
});
