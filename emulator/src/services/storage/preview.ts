import type SharpModule from 'sharp';
import type { Sharp } from 'sharp';
import { ApiError } from '../../core/errors.ts';

/** Appwrite's `_APP_STORAGE_PREVIEW_LIMIT` default: larger images get the generic image placeholder. */
export const PREVIEW_LIMIT = 20 * 1000 * 1000;

/** Types a preview reads (`storage/inputs.php`); any other file gets a placeholder. */
export const PREVIEW_INPUTS: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/heic',
  'image/webp',
  'image/gif',
]);

/** Output formats (`storage/outputs.php`) and their content types. */
export const PREVIEW_OUTPUTS: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
  avif: 'image/avif',
  gif: 'image/gif',
};

/** Appwrite's gravities and sharp's positions for them. */
export const GRAVITIES = {
  center: 'centre',
  'top-left': 'northwest',
  top: 'north',
  'top-right': 'northeast',
  left: 'west',
  right: 'east',
  'bottom-left': 'southwest',
  bottom: 'south',
  'bottom-right': 'southeast',
} as const;

/** The transformations of `getFilePreview`. */
export interface PreviewOptions {
  width: number;
  height: number;
  gravity: keyof typeof GRAVITIES;
  /** -1 keeps the encoder's default. */
  quality: number;
  borderWidth: number;
  borderColor: string;
  borderRadius: number;
  opacity: number;
  rotation: number;
  background: string;
  /** '' → the file's own format (see {@link defaultOutput}). */
  output: string;
}

/**
 * Appwrite's choice of output when none is asked: the file name's extension if it is an output
 * format, `jpg` for any other extension, and without one the format of the file's type (else `jpg`).
 */
export function defaultOutput(extension: string, mimeType: string): string {
  if (extension !== '') return extension in PREVIEW_OUTPUTS ? extension : 'jpg';
  return Object.keys(PREVIEW_OUTPUTS).find((key) => PREVIEW_OUTPUTS[key] === mimeType) ?? 'jpg';
}

let sharpModule: Promise<{ default: typeof SharpModule }> | null = null;

/** sharp (libvips) is loaded on the first preview: a backend that never makes one does not pay for it. */
function loadSharp(): Promise<{ default: typeof SharpModule }> {
  sharpModule ??= import('sharp');
  return sharpModule;
}

/** Appwrite's placeholder for files it cannot preview: a 1200×800 image on the background colour. */
async function placeholder(background: string): Promise<Buffer> {
  const { default: sharp } = await loadSharp();
  return sharp({
    create: { width: 1200, height: 800, channels: 4, background: `#${background}` },
  })
    .png()
    .toBuffer();
}

function encode(image: Sharp, output: string, quality: number): Sharp {
  const q = quality === -1 ? {} : { quality: Math.max(1, quality) };
  switch (output) {
    case 'png':
      return image.png();
    case 'webp':
      return image.webp(q);
    case 'avif':
      return image.avif(q);
    case 'heic':
      return image.heif({ ...q, compression: 'hevc' });
    case 'gif':
      return image.gif();
    default:
      return image.jpeg(q);
  }
}

/**
 * Renders a preview with sharp, in Appwrite's order: crop/resize (both sides: cover with the
 * gravity; one side: keep the ratio), opacity, background, border, border radius, rotation, then
 * the output format at `quality`. `source` null renders the placeholder (as PNG unless asked).
 */
export async function renderPreview(
  source: Buffer | null,
  options: PreviewOptions,
  output: string,
): Promise<{ data: Buffer; contentType: string }> {
  const { default: sharp } = await loadSharp();
  let background = options.background;
  let input = source;
  if (!input) {
    background ||= 'eceff1';
    input = await placeholder(background);
  }
  // sharp runs the operations of one pipeline in its own fixed order; each step that must come
  // after the previous ones starts a new pipeline on a lossless intermediate.
  const restage = async (image: Sharp) => sharp(await image.png().toBuffer());
  try {
    let image = sharp(input, { animated: false }).autoOrient();
    if (options.width > 0 || options.height > 0) {
      image = image.resize({
        width: options.width || undefined,
        height: options.height || undefined,
        fit: options.width > 0 && options.height > 0 ? 'cover' : 'inside',
        position: GRAVITIES[options.gravity],
      });
    }
    if (options.opacity !== 1) {
      const alpha = Math.round(255 * options.opacity);
      image = (await restage(image)).composite([
        {
          input: Buffer.from([0, 0, 0, alpha]),
          raw: { width: 1, height: 1, channels: 4 },
          tile: true,
          blend: 'dest-in',
        },
      ]);
    }
    if (background || options.borderWidth > 0) {
      image = await restage(image);
      if (background) image = image.flatten({ background: `#${background}` });
      if (options.borderWidth > 0) {
        const width = options.borderWidth;
        image = image.extend({
          top: width,
          bottom: width,
          left: width,
          right: width,
          background: `#${options.borderColor || '000000'}`,
        });
      }
    }
    if (options.borderRadius > 0) {
      const { data, info } = await image.png().toBuffer({ resolveWithObject: true });
      const radius = Math.min(options.borderRadius, info.width / 2, info.height / 2);
      const mask = Buffer.from(
        `<svg width="${info.width}" height="${info.height}"><rect width="${info.width}" height="${info.height}" rx="${radius}" ry="${radius}"/></svg>`,
      );
      image = sharp(data).composite([{ input: mask, blend: 'dest-in' }]);
    }
    if (options.rotation !== 0)
      image = (await restage(image)).rotate((options.rotation + 360) % 360, {
        background: '#00000000',
      });
    const data = await encode(image, output, options.quality).toBuffer();
    return { data, contentType: PREVIEW_OUTPUTS[output] ?? 'image/jpeg' };
  } catch (error) {
    const message = (error as Error).message;
    if (/pixel limit/i.test(message))
      throw new ApiError(
        'storage_image_resolution_exceeded',
        `The image is too large to preview: ${message}`,
      );
    throw new ApiError(
      'storage_file_type_unsupported',
      `The image could not be previewed: ${message}`,
    );
  }
}
