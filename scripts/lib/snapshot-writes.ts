/** A span of the page's timeline (ms on its clock). */
export interface Span {
  start: number;
  duration: number;
}

/** What the store's snapshot writes cost the page during a phase of `bench:ui`. */
export interface SnapshotWriteSummary {
  /** Writes that ended in the phase. */
  writes: number;
  /** Each write: start → snapshot saved (ms). */
  writeMs: number[];
  /** Each write: its main-thread copies (`livedesk:snapshot-clone`) added up (ms). */
  cloneMs: number[];
  /** Each write: its pages encoded (`livedesk:snapshot-encode`) added up (ms). */
  encodeMs: number[];
  /** The longest single copy (ms). */
  longestCopy: number;
  /** The longest single page encoded (ms). */
  longestEncode: number;
  /** The long animation frames over 50 ms that overlapped a write (their durations, ms). */
  longFrames: number[];
}

const overlaps = (a: Span, b: Span) =>
  b.start < a.start + a.duration && b.start + b.duration > a.start;

/**
 * Sums up the snapshot writes (`write` spans, from start to saved) and the main-thread work
 * during them (`encode` and `clone` spans) of a phase, with the long animation frames (`loaf`)
 * that overlapped a write (overlapped: other work in the same frame may be what made it long).
 */
export function snapshotWriteSummary(
  entries: readonly (Span & { name: 'write' | 'clone' | 'encode' })[],
  loaf: readonly Span[],
): SnapshotWriteSummary {
  const writes = entries.filter((entry) => entry.name === 'write');
  const copies = entries.filter((entry) => entry.name === 'clone');
  const encodes = entries.filter((entry) => entry.name === 'encode');
  const within = (write: Span, parts: readonly Span[]) =>
    parts.filter((part) => overlaps(write, part)).reduce((sum, part) => sum + part.duration, 0);
  return {
    writes: writes.length,
    writeMs: writes.map((write) => write.duration),
    cloneMs: writes.map((write) => within(write, copies)),
    encodeMs: writes.map((write) => within(write, encodes)),
    longestCopy: Math.max(0, ...copies.map((copy) => copy.duration)),
    longestEncode: Math.max(0, ...encodes.map((encode) => encode.duration)),
    longFrames: loaf
      .filter((frame) => frame.duration > 50 && writes.some((write) => overlaps(write, frame)))
      .map((frame) => frame.duration),
  };
}
