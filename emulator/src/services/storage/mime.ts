import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes {@link detectMimeType} looks at. */
export const MIME_SAMPLE_BYTES = 4100;

/** Whether `sample` reads as text: valid UTF-8 without NUL or other binary control bytes. */
function looksLikeText(sample: Uint8Array): boolean {
  for (const byte of sample) {
    if (byte === 0 || (byte < 32 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13))
      return false;
  }
  try {
    // a multi-byte character cut at the end of the sample is fine
    new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, sampleEnd(sample)));
    return true;
  } catch {
    return false;
  }
}

/** The sample without a trailing incomplete UTF-8 sequence. */
function sampleEnd(sample: Uint8Array): number {
  const end = sample.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = sample[end - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? end - back : end;
  }
  return end;
}

/**
 * A file's MIME type from its first bytes, as Appwrite reads it from the content (not from the
 * name or the client's claim): the magic numbers known to `file-type`, else `text/plain` for text,
 * else `application/octet-stream`.
 */
export async function detectMimeType(sample: Uint8Array): Promise<string> {
  if (sample.length === 0) return 'application/x-empty';
  const detected = await fileTypeFromBuffer(sample);
  if (detected) return detected.mime;
  return looksLikeText(sample) ? 'text/plain' : 'application/octet-stream';
}
