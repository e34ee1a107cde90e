import { describe, expect, it } from 'vitest';
import { loadSize } from './load-size.ts';

describe('loadSize', () => {
  it('keeps the full size on local and a fifth elsewhere, in whole steps, never below the minimum', () => {
    expect(loadSize(200, { step: 20 }, 'local')).toBe(200);
    expect(loadSize(200, { step: 20 }, 'container')).toBe(40);
    expect(loadSize(2_000, { minimum: 500 }, 'container')).toBe(500);
    expect(loadSize(1_500, {}, 'appwrite')).toBe(300);
    expect(loadSize(3, { minimum: 1 }, 'remote')).toBe(1);
  });
});
