import type { Segment } from './snapshot-codec.ts';
import type { SnapshotHeader, StoredSnapshot } from './persist.ts';

/** The first bytes of a snapshot file: "LDS" and the file format's version. */
const MAGIC = [0x4c, 0x44, 0x53, 0x01] as const;

/** How the header's JSON writes `undefined` (a dictionary's entry for a missing value). */
const UNDEFINED = { $undefined: true } as const;

function isUndefinedMark(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<string, unknown>)['$undefined'] === true &&
    Object.keys(value).length === 1
  );
}

/** What a snapshot file holds: a snapshot's header and its segments by page index. */
export interface SnapshotFileContent {
  header: SnapshotHeader;
  segments: ReadonlyMap<number, Segment>;
}

/**
 * A snapshot in one file (the desk's server-kept snapshot): the magic, the header as JSON, then
 * each segment as its page index, its data's bytes and its text as UTF-8, every length a 32-bit
 * little-endian count of bytes before what it counts.
 */
export function encodeSnapshotFile(content: SnapshotFileContent): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const header = encoder.encode(
    JSON.stringify(content.header, (_key, value: unknown) =>
      value === undefined ? UNDEFINED : value,
    ),
  );
  const segments = [...content.segments].map(([page, segment]) => ({
    page,
    data: new Uint8Array(segment.data),
    text: encoder.encode(segment.text),
  }));
  let size = MAGIC.length + 4 + header.length + 4;
  for (const s of segments) size += 12 + s.data.length + s.text.length;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  let at = 0;
  const put = (part: Uint8Array) => {
    view.setUint32(at, part.length, true);
    bytes.set(part, at + 4);
    at += 4 + part.length;
  };
  bytes.set(MAGIC, 0);
  at = MAGIC.length;
  put(header);
  view.setUint32(at, segments.length, true);
  at += 4;
  for (const s of segments) {
    view.setUint32(at, s.page, true);
    at += 4;
    put(s.data);
    put(s.text);
  }
  return bytes;
}

/**
 * Reads a file {@link encodeSnapshotFile} wrote into a stored snapshot (its header unchecked:
 * `readPersisted` checks it as it checks what IndexedDB kept). Throws a `TypeError` for bytes
 * that are not such a file.
 */
export function decodeSnapshotFile(buffer: ArrayBuffer): StoredSnapshot {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  if (bytes.length < MAGIC.length + 8 || MAGIC.some((byte, i) => bytes[i] !== byte))
    throw new TypeError('Not a snapshot file.');
  let at = MAGIC.length;
  const count = () => {
    if (at + 4 > bytes.length) throw new TypeError('The snapshot file is cut short.');
    const value = view.getUint32(at, true);
    at += 4;
    return value;
  };
  const take = () => {
    const length = count();
    if (at + length > bytes.length) throw new TypeError('The snapshot file is cut short.');
    at += length;
    return bytes.subarray(at - length, at);
  };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const header: unknown = JSON.parse(decoder.decode(take()), (_key, value: unknown) =>
    isUndefinedMark(value) ? undefined : value,
  );
  const segments = new Map<number, Segment>();
  for (let n = count(); n > 0; n--) {
    const page = count();
    const data = take().slice().buffer;
    segments.set(page, { data, text: decoder.decode(take()) });
  }
  if (at !== bytes.length) throw new TypeError('The snapshot file has bytes after its segments.');
  return { header, segments };
}
