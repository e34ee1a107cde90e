import { describe, expect, it } from 'vitest';
import {
  charCount,
  validateDescription,
  validateEmail,
  validateName,
  validateNoteBody,
  validatePriceCents,
} from './validation.ts';

describe('charCount', () => {
  it('counts code points as Appwrite does, not UTF-16 units', () => {
    expect(charCount('😀😀')).toBe(2);
    expect('😀😀'.length).toBe(4);
    expect(charCount('Crème brûlée')).toBe(12);
    expect(charCount('')).toBe(0);
    // A lone surrogate is one character, as PHP's mb_strlen counts a broken sequence.
    expect(charCount('a\ud83d')).toBe(2);
  });
});

describe('validateName', () => {
  it('refuses blank names and counts the text as typed', () => {
    expect(validateName('   ')?.message).toBe('Enter a name.');
    expect(validateName('')?.message).toBe('Enter a name.');
    expect(validateName('😀'.repeat(80))).toBeNull();
    expect(validateName('😀'.repeat(81))?.message).toBe('Use at most 80 characters.');
    // 79 letters and a trailing space are 80 characters: accepted, stored as typed.
    expect(validateName(`${'a'.repeat(79)} `)).toBeNull();
    expect(validateName(`${'a'.repeat(80)} `)?.message).toBe('Use at most 80 characters.');
  });
});

describe('validateEmail', () => {
  it('refuses spaces anywhere rather than trimming them', () => {
    expect(validateEmail('ana@livedesk.test')).toBeNull();
    expect(validateEmail(' ana@livedesk.test')?.message).toBe('Enter a valid email address.');
    expect(validateEmail('ana@livedesk')?.message).toBe('Enter a valid email address.');
  });
});

describe('validateNoteBody and validateDescription', () => {
  it('refuses blank notes and counts code points', () => {
    expect(validateNoteBody(' \n ')?.message).toBe('Write something first.');
    expect(validateNoteBody('😀'.repeat(2000))).toBeNull();
    expect(validateNoteBody('😀'.repeat(2001))?.message).toBe(
      'Notes are limited to 2,000 characters.',
    );
    expect(validateDescription('')).toBeNull();
    expect(validateDescription('é'.repeat(500))).toBeNull();
    expect(validateDescription('é'.repeat(501))?.message).toBe('Use at most 500 characters.');
  });
});

describe('validatePriceCents', () => {
  it('accepts 0 to 1,000,000 whole cents', () => {
    expect(validatePriceCents(0)).toBeNull();
    expect(validatePriceCents(1_000_000)).toBeNull();
    for (const bad of [-1, -100, 1_000_001, 1.5, Number.NaN])
      expect(validatePriceCents(bad)?.message).toBe('Enter a price between 0.00 and 10,000.00.');
  });
});
