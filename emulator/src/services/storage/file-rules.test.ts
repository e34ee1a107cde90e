import { describe, expect, it } from 'vitest';
import { assertExtensionAllowed, assertSizeAllowed, extensionOf } from './file-rules.ts';

const outcome = (fn: () => void) => {
  try {
    fn();
    return 'accepted';
  } catch (error) {
    return (error as { type?: string }).type;
  }
};

describe('bucket file rules', () => {
  it('reads the last extension, lower-cased, as PHP’s pathinfo does', () => {
    expect(extensionOf('report.final.PDF')).toBe('pdf');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('.env')).toBe('env');
    expect(extensionOf('dir.d/file')).toBe('');
  });

  it('compares the lower-cased extension with the list as written', () => {
    expect(outcome(() => assertExtensionAllowed('a.JPG', ['jpg']))).toBe('accepted');
    expect(outcome(() => assertExtensionAllowed('a.jpg', ['JPG']))).toBe(
      'storage_file_type_unsupported',
    );
    expect(outcome(() => assertExtensionAllowed('tool.exe', ['pdf', 'png']))).toBe(
      'storage_file_type_unsupported',
    );
    expect(outcome(() => assertExtensionAllowed('noext', ['pdf']))).toBe(
      'storage_file_type_unsupported',
    );
    expect(outcome(() => assertExtensionAllowed('anything.exe', []))).toBe('accepted');
  });

  it('refuses a file larger than the bucket’s maximum', () => {
    expect(outcome(() => assertSizeAllowed(100, 100))).toBe('accepted');
    expect(outcome(() => assertSizeAllowed(101, 100))).toBe('storage_invalid_file_size');
  });
});
