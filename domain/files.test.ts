import { describe, expect, it } from 'vitest';
import {
  ATTACH_WITHIN_MS,
  ORPHAN_AFTER_MS,
  uploadTooOld,
  ATTACHMENT_RULE,
  PRODUCT_IMAGE_RULE,
  checkFile,
  extensionOf,
  formatBytes,
  hasImagePreview,
} from './files.ts';

const MB = 1024 * 1024;

describe('extensionOf', () => {
  it('reads the lower-cased last extension', () => {
    expect(extensionOf('Receipt.PDF')).toBe('pdf');
    expect(extensionOf('photo.final.jpeg')).toBe('jpeg');
    expect(extensionOf('folder/notes.txt')).toBe('txt');
  });

  it('finds none in a bare name or a dot file', () => {
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('.env')).toBe('');
  });
});

describe('checkFile', () => {
  it('refuses a file name over 255 characters (counted in code points) instead of cutting it', () => {
    const name = (stem: string) => `${stem}.pdf`;
    expect(checkFile(ATTACHMENT_RULE, { name: name('😀'.repeat(251)), size: 10 })).toBeNull();
    expect(checkFile(ATTACHMENT_RULE, { name: name('😀'.repeat(252)), size: 10 })).toMatchObject({
      code: 'VALIDATION',
      message: 'File names are limited to 255 characters. Rename the file and try again.',
    });
  });

  it('accepts images, PDF and text up to 50 MB as attachments', () => {
    expect(checkFile(ATTACHMENT_RULE, { name: 'a.pdf', size: 50 * MB })).toBeNull();
    expect(checkFile(ATTACHMENT_RULE, { name: 'a.webp', size: 10, mimeType: 'image/webp' })).toBe(
      null,
    );
    expect(checkFile(ATTACHMENT_RULE, { name: 'a.txt', size: 10, mimeType: 'text/plain' })).toBe(
      null,
    );
  });

  it('refuses another type with UPLOAD_TYPE and the product’s message', () => {
    const error = checkFile(ATTACHMENT_RULE, { name: 'setup.exe', size: 10 });
    expect(error).toMatchObject({
      code: 'UPLOAD_TYPE',
      message: 'Files up to 50 MB: images, PDF or text.',
    });
    expect(checkFile(ATTACHMENT_RULE, { name: 'noextension', size: 10 })?.code).toBe('UPLOAD_TYPE');
  });

  it('refuses content of another type than its name says', () => {
    expect(
      checkFile(ATTACHMENT_RULE, {
        name: 'fake.pdf',
        size: 10,
        mimeType: 'application/x-msdownload',
      })?.code,
    ).toBe('UPLOAD_TYPE');
  });

  it('refuses a file over the limit with UPLOAD_TOO_LARGE', () => {
    const error = checkFile(ATTACHMENT_RULE, { name: 'big.pdf', size: 50 * MB + 1 });
    expect(error).toMatchObject({
      code: 'UPLOAD_TOO_LARGE',
      message: 'Files up to 50 MB: images, PDF or text.',
    });
    expect(checkFile(PRODUCT_IMAGE_RULE, { name: 'big.png', size: 5 * MB + 1 })?.code).toBe(
      'UPLOAD_TOO_LARGE',
    );
  });

  it('refuses an empty file and PDFs as product images', () => {
    expect(checkFile(ATTACHMENT_RULE, { name: 'empty.txt', size: 0 })?.code).toBe('VALIDATION');
    expect(checkFile(PRODUCT_IMAGE_RULE, { name: 'menu.pdf', size: 10 })?.code).toBe('UPLOAD_TYPE');
  });
});

describe('hasImagePreview and formatBytes', () => {
  it('previews the bucket’s image types only', () => {
    expect(hasImagePreview('image/png')).toBe(true);
    expect(hasImagePreview('application/pdf')).toBe(false);
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(14 * 1024)).toBe('14 KB');
    expect(formatBytes(1.5 * MB)).toBe('1.5 MB');
    expect(formatBytes(12.4 * MB)).toBe('12 MB');
    expect(formatBytes(48 * MB)).toBe('48 MB');
  });
});

describe('uploadTooOld', () => {
  const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);
  const at = (msAgo: number) => new Date(NOW - msAgo).toISOString();

  it('lets an upload be attached for 50 minutes after its last write, not after', () => {
    expect(uploadTooOld(at(0), NOW)).toBe(false);
    expect(uploadTooOld(at(ATTACH_WITHIN_MS), NOW)).toBe(false);
    expect(uploadTooOld(at(ATTACH_WITHIN_MS + 1), NOW)).toBe(true);
  });

  it('stops attaching ten minutes before the sweep may delete an unattached file', () => {
    expect(ATTACH_WITHIN_MS).toBe(50 * 60_000);
    expect(ORPHAN_AFTER_MS - ATTACH_WITHIN_MS).toBe(10 * 60_000);
  });
});
