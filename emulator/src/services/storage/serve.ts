import { open, type FileHandle } from 'node:fs/promises';
import { ApiError } from '../../core/errors.ts';
import { FileBody } from '../../http/file-body.ts';
import type { Reply } from '../../http/reply.ts';
import type { FileRecord } from './models.ts';
import { DOWNLOAD_RANGE_MAX, parseRange, VIEW_RANGE_MAX } from './range.ts';

/** Types a view answers as themselves (Appwrite's `storage/mimes.php`); any other is `text/plain`. */
const VIEWABLE = new Set([
  'image/jpeg',
  'image/gif',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heic-sequence',
  'image/avif',
  'video/mp4',
  'video/x-flv',
  'video/webm',
  'application/x-mpegURL',
  'video/MP2T',
  'video/3gpp',
  'video/quicktime',
  'video/x-msvideo',
  'video/x-ms-wmv',
  'audio/basic',
  'auido/L24',
  'audio/mid',
  'audio/mpeg',
  'audio/mp4',
  'audio/x-aiff',
  'audio/x-mpegurl',
  'audio/vnd.rn-realaudio',
  'audio/ogg',
  'audio/vorbis',
  'audio/vnd.wav',
  'audio/x-wav',
  'audio/aac',
  'audio/x-hx-aac-adts',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
  'application/vnd.ms-word.document.macroEnabled.12',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.template',
  'application/vnd.ms-excel.sheet.macroEnabled.12',
  'application/vnd.ms-excel.template.macroEnabled.12',
  'application/vnd.ms-excel.addin.macroEnabled.12',
  'application/vnd.ms-excel.sheet.binary.macroEnabled.12',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.presentationml.template',
  'application/vnd.openxmlformats-officedocument.presentationml.slideshow',
  'application/vnd.ms-powerpoint.addin.macroEnabled.12',
  'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
  'application/vnd.ms-powerpoint.template.macroEnabled.12',
  'application/vnd.ms-powerpoint.slideshow.macroEnabled.12',
  'application/vnd.ms-access',
  'application/pdf',
]);

/**
 * The answer of `getFileDownload` or `getFileView`: the bytes of a complete file at `path`,
 * whole or one `Range` (206) by Appwrite's rules, sent from disk in 1 MiB reads through pooled
 * buffers ({@link FileBody}). File bytes are never compressed.
 */
export async function fileBytesReply(
  file: FileRecord,
  path: string,
  rangeHeader: string | undefined,
  kind: 'download' | 'view',
): Promise<Reply> {
  const headers: Record<string, string> = {
    'Cache-Control': 'private, max-age=3888000',
    'Content-Disposition': `${kind === 'download' ? 'attachment' : 'inline'}; filename="${file.name.replace(/["\\\r\n]/g, '_')}"`,
  };
  if (kind === 'view') {
    headers['Content-Security-Policy'] = 'script-src none;';
    headers['X-Content-Type-Options'] = 'nosniff';
  }
  const contentType =
    kind === 'download' || VIEWABLE.has(file.mimeType) ? file.mimeType : 'text/plain';
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch {
    throw new ApiError('storage_file_not_found', "The file's content could not be found on disk.");
  }
  if (typeof rangeHeader === 'string' && rangeHeader !== '') {
    let range;
    try {
      range = parseRange(
        rangeHeader,
        file.sizeOriginal,
        kind === 'download' ? DOWNLOAD_RANGE_MAX : VIEW_RANGE_MAX,
      );
    } catch (error) {
      await handle.close();
      throw error;
    }
    return {
      status: 206,
      headers: {
        ...headers,
        'Accept-Ranges': 'bytes',
        'Content-Range': `bytes ${range.start}-${range.end}/${file.sizeOriginal}`,
        'Content-Length': String(range.end - range.start + 1),
      },
      raw: {
        data: new FileBody(handle, range.start, range.end - range.start + 1),
        contentType,
      },
    };
  }
  return {
    status: 200,
    headers: { ...headers, 'Content-Length': String(file.sizeOriginal) },
    raw: { data: new FileBody(handle, 0, file.sizeOriginal), contentType },
  };
}
