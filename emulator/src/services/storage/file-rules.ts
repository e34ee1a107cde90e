import { ApiError } from '../../core/errors.ts';

/** PHP's `pathinfo($name, PATHINFO_EXTENSION)`, lower-cased: what follows the last dot of the base name. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** Whether {@link assertExtensionAllowed} lets a file of this name in. */
export function isExtensionAllowed(name: string, allowed: readonly string[]): boolean {
  return allowed.length === 0 || allowed.includes(extensionOf(name));
}

/**
 * Appwrite's `FileExt` rule: with a non-empty list, the file's lower-cased last extension must
 * be in it, compared as written (`["jpg"]` accepts `a.JPG`, `["JPG"]` accepts nothing, a name
 * without extension is refused).
 */
export function assertExtensionAllowed(name: string, allowed: readonly string[]): void {
  if (!isExtensionAllowed(name, allowed))
    throw new ApiError(
      'storage_file_type_unsupported',
      `File extension not allowed: "${name}" is not one of ${allowed.map((ext) => `.${ext}`).join(', ')}`,
    );
}

/** Appwrite's `FileSize` rule: the whole file (a chunked upload's total) may not exceed the bucket's maximum. */
export function assertSizeAllowed(size: number, maximum: number): void {
  if (size > maximum)
    throw new ApiError(
      'storage_invalid_file_size',
      `File size not allowed: ${size} bytes is more than the bucket's maximum of ${maximum} bytes`,
    );
}
