import { describe, expect, it } from 'vitest';
import { previewOptions } from './preview-params.ts';

const type = (fn: () => unknown) => {
  try {
    fn();
    return 'accepted';
  } catch (error) {
    return (error as { type?: string }).type;
  }
};

describe('previewOptions', () => {
  it('reads the params with Appwrite’s defaults', () => {
    expect(previewOptions({ width: '120', gravity: 'top-left', output: 'WEBP' })).toMatchObject({
      width: 120,
      height: 0,
      gravity: 'top-left',
      quality: -1,
      opacity: 1,
      output: 'webp',
    });
  });

  it('refuses params out of Appwrite’s ranges', () => {
    expect(type(() => previewOptions({ width: '4001' }))).toBe('general_argument_invalid');
    expect(type(() => previewOptions({ gravity: 'middle' }))).toBe('general_argument_invalid');
    expect(type(() => previewOptions({ output: 'bmp' }))).toBe('general_argument_invalid');
    expect(type(() => previewOptions({ opacity: '1.5' }))).toBe('general_argument_invalid');
    expect(type(() => previewOptions({ borderColor: 'red' }))).toBe('general_argument_invalid');
    expect(type(() => previewOptions({ borderColor: 'f0a' }))).toBe('accepted');
  });
});
