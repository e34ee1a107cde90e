import { describe, expect, it } from 'vitest';
import { codePoints } from '../core/text.ts';
import { stringArray, text } from './params.ts';

describe('string params count code points, as Appwrite does', () => {
  it('codePoints counts surrogate pairs once', () => {
    expect(codePoints('😀')).toBe(1);
    expect(codePoints('a😀b')).toBe(3);
    expect(codePoints('é')).toBe(1);
    expect(codePoints('\ud83d')).toBe(1);
    expect(codePoints('')).toBe(0);
  });

  it('accepts 128 emoji as a 128-character name and refuses 129', () => {
    const name = '😀'.repeat(128);
    expect(name.length).toBe(256);
    expect(text({ name }, 'name', { max: 128 })).toBe(name);
    expect(() => text({ name: `${name}😀` }, 'name', { max: 128 })).toThrow(
      /no longer than 128 chars/,
    );
  });

  it('string arrays: each item counted in code points', () => {
    expect(stringArray({ roles: ['😀'.repeat(32)] }, 'roles', { maxLength: 32 })).toHaveLength(1);
    expect(() => stringArray({ roles: ['😀'.repeat(33)] }, 'roles', { maxLength: 32 })).toThrow();
  });
});
