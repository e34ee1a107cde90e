import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { defaultOutput, renderPreview } from './preview.ts';
import { previewOptions } from './preview-params.ts';

const image = () =>
  sharp({ create: { width: 400, height: 200, channels: 4, background: '#ff000080' } })
    .png()
    .toBuffer();

describe('preview', () => {
  it('resizes keeping the ratio with one side, and covers with both', async () => {
    const source = await image();
    const one = await renderPreview(source, previewOptions({ width: '100' }), 'png');
    expect(await sharp(one.data).metadata()).toMatchObject({ width: 100, height: 50 });
    const both = await renderPreview(
      source,
      previewOptions({ width: '50', height: '50', gravity: 'top-left' }),
      'jpg',
    );
    expect(both.contentType).toBe('image/jpeg');
    expect(await sharp(both.data).metadata()).toMatchObject({
      width: 50,
      height: 50,
      format: 'jpeg',
    });
  });

  it('adds a border, flattens on a background and rotates', async () => {
    const source = await image();
    const out = await renderPreview(
      source,
      previewOptions({
        width: '40',
        borderWidth: '5',
        borderColor: '00ff00',
        background: 'ffffff',
        rotation: '90',
      }),
      'png',
    );
    expect(await sharp(out.data).metadata()).toMatchObject({ width: 30, height: 50 });
    const { data } = await sharp(out.data).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0, 255, 0]);
  });

  it('renders the placeholder for files it cannot read', async () => {
    const out = await renderPreview(null, previewOptions({ width: '120' }), 'png');
    expect(await sharp(out.data).metadata()).toMatchObject({
      width: 120,
      height: 80,
      format: 'png',
    });
  });

  it('refuses bytes that are no image', async () => {
    await expect(
      renderPreview(Buffer.from('not an image'), previewOptions({}), 'png'),
    ).rejects.toMatchObject({ type: 'storage_file_type_unsupported' });
  });

  it('chooses the output from the name’s extension, else the type', () => {
    expect(defaultOutput('webp', 'image/webp')).toBe('webp');
    expect(defaultOutput('tiff', 'image/tiff')).toBe('jpg');
    expect(defaultOutput('', 'image/png')).toBe('png');
    expect(defaultOutput('', 'application/pdf')).toBe('jpg');
  });
});
