import { AppError } from './errors.ts';
import { BUCKETS } from './ids.ts';
import { LIMITS, charCount } from './validation.ts';

/** What a bucket of the product accepts (docs/product.md §4.5), and what a person is told. */
export interface FileRule {
  maxBytes: number;
  /** Lower-case extensions, as the bucket's `allowedFileExtensions`. */
  extensions: readonly string[];
  /** MIME types read from the content (prefixes ending in `/` match a family). */
  mimeTypes: readonly string[];
  /** The product's message for a file over the size or of another type. */
  message: string;
}

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'] as const;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** Attachments on orders: ≤ 50 MB; images, PDF or text. */
export const ATTACHMENT_RULE: FileRule = {
  maxBytes: LIMITS.attachmentMaxBytes,
  extensions: [...IMAGE_EXTENSIONS, 'pdf', 'txt'],
  mimeTypes: [...IMAGE_TYPES, 'application/pdf', 'text/plain'],
  message: 'Files up to 50 MB: images, PDF or text.',
};

/** Product images: ≤ 5 MB; JPEG, PNG, GIF or WebP. */
export const PRODUCT_IMAGE_RULE: FileRule = {
  maxBytes: LIMITS.productImageMaxBytes,
  extensions: IMAGE_EXTENSIONS,
  mimeTypes: IMAGE_TYPES,
  message: 'Images up to 5 MB: JPEG, PNG, GIF or WebP.',
};

/** CSV exports: ≤ 100 MB. */
export const EXPORT_FILE_RULE: FileRule = {
  maxBytes: 100 * 1024 * 1024,
  extensions: ['csv'],
  mimeTypes: ['text/plain', 'text/csv'],
  message: 'Exports are CSV files up to 100 MB.',
};

/**
 * How long after its last write (`$updatedAt`) an upload may still be attached to an order or
 * made a product's image: 50 minutes. The hourly sweep (`sweep-uploads`) deletes files no record
 * names once {@link ORPHAN_AFTER_MS} passed, ten minutes later, so a file it is deleting can no
 * longer be attached in the same instant.
 */
export const ATTACH_WITHIN_MS = 50 * 60_000;

/** When a file no record names is an orphan the sweep deletes: an hour after its last write. */
export const ORPHAN_AFTER_MS = ATTACH_WITHIN_MS + 10 * 60_000;

/** Whether an upload last written at `updatedAt` (ISO) is too old to attach at `now`. */
export function uploadTooOld(updatedAt: string, now: number): boolean {
  return now - Date.parse(updatedAt) > ATTACH_WITHIN_MS;
}

/** The lower-cased last extension of a file name (`Receipt.PDF` → `pdf`), or ''. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/**
 * Checks a file before it is uploaded (the browser) or attached (the function): its name's
 * extension, its MIME type when known, its size. Returns the product's error or null:
 * `UPLOAD_TYPE` for another type, `UPLOAD_TOO_LARGE` over the size, `VALIDATION` for an empty file.
 */
export function checkFile(
  rule: FileRule,
  file: { name: string; size: number; mimeType?: string | null },
): AppError | null {
  const extension = extensionOf(file.name);
  if (!rule.extensions.includes(extension))
    return new AppError('UPLOAD_TYPE', rule.message, { extension });
  if (file.mimeType && !rule.mimeTypes.some((type) => file.mimeType!.startsWith(type)))
    return new AppError('UPLOAD_TYPE', rule.message, { mimeType: file.mimeType });
  if (file.size > rule.maxBytes)
    return new AppError('UPLOAD_TOO_LARGE', rule.message, {
      sizeBytes: file.size,
      maxBytes: rule.maxBytes,
    });
  if (file.size === 0) return new AppError('VALIDATION', 'This file is empty.', { field: 'file' });
  // The attachment keeps the name as it is (≤ 255 characters, the attribute's size): refused, never cut.
  if (charCount(file.name) > FILE_NAME_MAX)
    return new AppError(
      'VALIDATION',
      `File names are limited to ${FILE_NAME_MAX} characters. Rename the file and try again.`,
      { field: 'file' },
    );
  return null;
}

/** The longest file name an attachment keeps (its `name` attribute). */
export const FILE_NAME_MAX = 255;

/** Whether a file of this MIME type has an image preview (thumbnails). */
export function hasImagePreview(mimeType: string): boolean {
  return (IMAGE_TYPES as readonly string[]).includes(mimeType);
}

/** `512 B`, `14 KB`, `12.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / (1024 * 1024);
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

/** The rule of each bucket of the product. */
export const RULE_OF_BUCKET: Readonly<Record<string, FileRule>> = {
  [BUCKETS.attachments]: ATTACHMENT_RULE,
  [BUCKETS.productImages]: PRODUCT_IMAGE_RULE,
  [BUCKETS.exports]: EXPORT_FILE_RULE,
};
