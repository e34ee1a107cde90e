import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { ApiError } from '../../core/errors.ts';

/** The first file part of a multipart body, as its sink took it. */
export interface ReceivedFile<T> {
  /** The form field, e.g. `file`. */
  field: string;
  /** The file name the client gave. */
  name: string;
  /** What the sink made of the bytes. */
  result: T;
}

/** Takes the bytes of a file part; must read `stream` to its end. */
export type FileSink<T> = (stream: Readable, name: string) => Promise<T>;

/** A multipart body read as a stream: its text fields (`x[]` gathered into arrays) and its first file. */
export interface MultipartBody<T> {
  fields: Record<string, unknown>;
  file: ReceivedFile<T> | null;
}

const MAX_FIELD_BYTES = 1024 * 1024;

/**
 * Reads a `multipart/form-data` request with busboy, streaming its first file part into `sink`
 * (further file parts are read and dropped) — no body is held whole in memory. Text fields are
 * gathered into `fields` as they come, so the sink sees those sent before the file. A body that is
 * not multipart is read and dropped (no fields, no file); a malformed one is
 * `general_argument_invalid`.
 */
export async function readMultipart<T>(
  request: IncomingMessage,
  sink: FileSink<T>,
  fields: Record<string, unknown> = {},
): Promise<MultipartBody<T>> {
  const type = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    request.resume();
    await new Promise((resolve) => request.once('end', resolve).once('close', resolve));
    return { fields, file: null };
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      // Browsers and the SDKs send a file name as UTF-8 bytes, which PHP (Appwrite) keeps as
      // they are; busboy's default would read them as Latin-1 ("Ã©" for "é").
      defParamCharset: 'utf8',
      limits: { fieldSize: MAX_FIELD_BYTES, fields: 1000 },
    });
  } catch {
    throw new ApiError('general_argument_invalid', 'The multipart body could not be parsed.');
  }
  let file: ReceivedFile<T> | null = null;
  let fileDone: Promise<void> = Promise.resolve();
  parser.on('field', (name, value) => {
    if (name.endsWith('[]')) {
      const key = name.slice(0, -2);
      const list = (fields[key] as unknown[] | undefined) ?? [];
      list.push(value);
      fields[key] = list;
    } else {
      fields[name] = value;
    }
  });
  parser.on('file', (field, stream, info) => {
    if (file) {
      stream.resume();
      return;
    }
    const received: ReceivedFile<T> = { field, name: info.filename ?? '', result: undefined as T };
    file = received;
    fileDone = sink(stream, received.name).then((result) => {
      received.result = result;
    });
    // a sink failing early still lets the body be read to its end
    fileDone.catch(() => stream.resume());
  });
  try {
    await pipeline(request, parser);
  } catch (error) {
    await fileDone.catch(() => {});
    if (request.destroyed || (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE')
      throw new ApiError(
        'general_argument_invalid',
        'The request body ended before it was complete.',
      );
    throw new ApiError(
      'general_argument_invalid',
      `The multipart body could not be parsed: ${(error as Error).message}`,
    );
  }
  await fileDone;
  return { fields, file };
}
