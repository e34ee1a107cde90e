import { invalidParam } from '../../core/errors.ts';
import { integer, text } from '../../http/params.ts';
import { GRAVITIES, PREVIEW_OUTPUTS, type PreviewOptions } from './preview.ts';

function hexColor(input: Record<string, unknown>, name: string): string {
  const value = text(input, name, { max: 8 });
  if (value !== '' && !/^([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value))
    throw invalidParam(name, 'Value must be a valid hex color code');
  return value;
}

/** Reads and checks the preview params (Appwrite's ranges; anything out of range is `general_argument_invalid`). */
export function previewOptions(input: Record<string, unknown>): PreviewOptions {
  const gravity = text(input, 'gravity', { max: 16, fallback: 'center' });
  if (!(gravity in GRAVITIES))
    throw invalidParam('gravity', `Value must be one of (${Object.keys(GRAVITIES).join(', ')})`);
  const output = text(input, 'output', { max: 8 }).toLowerCase();
  if (output !== '' && !(output in PREVIEW_OUTPUTS))
    throw invalidParam(
      'output',
      `Value must be one of (${Object.keys(PREVIEW_OUTPUTS).join(', ')})`,
    );
  const rawOpacity = input.opacity;
  const opacity =
    rawOpacity === undefined || rawOpacity === null || rawOpacity === '' ? 1 : Number(rawOpacity);
  if (!Number.isFinite(opacity) || opacity < 0 || opacity > 1)
    throw invalidParam('opacity', 'Value must be a valid range between 0 and 1');
  return {
    width: integer(input, 'width', { min: 0, max: 4000, fallback: 0 })!,
    height: integer(input, 'height', { min: 0, max: 4000, fallback: 0 })!,
    gravity: gravity as keyof typeof GRAVITIES,
    quality: integer(input, 'quality', { min: -1, max: 100, fallback: -1 })!,
    borderWidth: integer(input, 'borderWidth', { min: 0, max: 100, fallback: 0 })!,
    borderColor: hexColor(input, 'borderColor'),
    borderRadius: integer(input, 'borderRadius', { min: 0, max: 4000, fallback: 0 })!,
    opacity,
    rotation: integer(input, 'rotation', { min: -360, max: 360, fallback: 0 })!,
    background: hexColor(input, 'background'),
    output,
  };
}
