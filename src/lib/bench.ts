/**
 * Measurement hooks for `npm run bench:ui`, active only when the page was opened with
 * `?bench=1` (production behaviour is otherwise unchanged). Everything recorded lives on
 * `window.__livedeskBench` for the benchmark to read:
 * - `frames`: rAF timestamps (performance.now) while recording;
 * - `loaf`: long-animation-frame entries over 50 ms (start, duration, blocking);
 * - `latency`: per realtime event, when its frame was painted (performance.now), receive→paint
 *   (ms, performance clock) and server timestamp→paint (ms, wall clock);
 * - `firstTable`: performance.now() of the first frame painted with the table at its target size,
 *   and the connection badge's state then (`firstTableConnection`: `resyncing` when painted from
 *   the persisted snapshot);
 * - `snapshotWrites`: the store's snapshot writes (`livedesk:snapshot-write`, from the start to
 *   the saved snapshot) and the main-thread work inside them: each page encoded
 *   (`livedesk:snapshot-encode`) and each put's structured clone (`livedesk:snapshot-clone`).
 */
export interface BenchRecord {
  recording: boolean;
  frames: number[];
  loaf: {
    start: number;
    duration: number;
    blocking: number;
    /** Time in scripts, in style and layout, and from render start to the end (ms). */
    script: number;
    styleLayout: number;
    render: number;
    scripts: string[];
  }[];
  latency: { paintedAt: number; receiveToPaint: number; serverToPaint: number }[];
  firstTable: number | null;
  firstTableConnection: string | null;
  snapshotWrites: { name: 'write' | 'clone' | 'encode'; start: number; duration: number }[];
  tableRows: number;
  targetRows: number;
}

declare global {
  interface Window {
    __livedeskBench?: BenchRecord;
  }
}

const SNAPSHOT_MEASURES: Record<string, BenchRecord['snapshotWrites'][number]['name']> = {
  'livedesk:snapshot-write': 'write',
  'livedesk:snapshot-clone': 'clone',
  'livedesk:snapshot-encode': 'encode',
};

const enabled =
  typeof window !== 'undefined' && new URLSearchParams(window.location.search).get('bench') === '1';

let record: BenchRecord | null = null;

function start(): BenchRecord {
  const made: BenchRecord = {
    recording: false,
    frames: [],
    loaf: [],
    latency: [],
    firstTable: null,
    firstTableConnection: null,
    snapshotWrites: [],
    tableRows: 0,
    targetRows: Number(new URLSearchParams(window.location.search).get('rows') ?? 100_000),
  };
  window.__livedeskBench = made;
  const tick = (time: number) => {
    if (made.recording) made.frames.push(time);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver((list) => {
      if (!made.recording) return;
      for (const entry of list.getEntries()) {
        const loaf = entry as PerformanceEntry & {
          blockingDuration?: number;
          renderStart?: number;
          styleAndLayoutStart?: number;
          scripts?: {
            invokerType: string;
            invoker: string;
            duration: number;
            sourceFunctionName?: string;
            sourceURL?: string;
            sourceCharPosition?: number;
          }[];
        };
        const end = loaf.startTime + loaf.duration;
        const scripts = loaf.scripts ?? [];
        made.loaf.push({
          start: loaf.startTime,
          duration: loaf.duration,
          blocking: loaf.blockingDuration ?? 0,
          script: scripts.reduce((sum, s) => sum + s.duration, 0),
          styleLayout: loaf.styleAndLayoutStart ? end - loaf.styleAndLayoutStart : 0,
          render: loaf.renderStart ? end - loaf.renderStart : 0,
          scripts: scripts.map(
            (s) =>
              `${s.invokerType} ${s.invoker} ${s.sourceFunctionName ?? ''}@${s.sourceURL?.split('/').pop() ?? ''}:${s.sourceCharPosition ?? -1} ${Math.round(s.duration)}ms`,
          ),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: false });
  } catch {
    // not supported: no entries
  }
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const name = SNAPSHOT_MEASURES[entry.name];
        if (name)
          made.snapshotWrites.push({ name, start: entry.startTime, duration: entry.duration });
      }
    }).observe({ type: 'measure', buffered: true });
  } catch {
    // not supported: no entries
  }
  return made;
}

/** Whether the bench hooks are on (`?bench=1`). */
export function benchEnabled(): boolean {
  return enabled;
}

function bench(): BenchRecord | null {
  if (!enabled) return null;
  record ??= start();
  return record;
}

/** Called when the orders table renders `rows` rows; stamps the first painted frame at the target size. */
export function benchTableRendered(rows: number): void {
  const b = bench();
  if (!b) return;
  b.tableRows = rows;
  if (b.firstTable !== null || rows < b.targetRows) return;
  requestAnimationFrame(() => {
    if (b.firstTable !== null) return;
    b.firstTable = performance.now();
    b.firstTableConnection =
      document.querySelector<HTMLElement>('[data-testid="connection"]')?.dataset.state ?? null;
  });
}

/**
 * Called when realtime events were applied to the data the page shows, with when each arrived
 * (performance.now) and its server timestamp (epoch ms); stamps the paint on the next frame.
 */
export function benchEventsApplied(
  events: readonly { receivedAt: number; serverTime: number }[],
): void {
  const b = bench();
  if (!b || !b.recording || events.length === 0) return;
  const batch = events.slice();
  requestAnimationFrame(() => {
    const paint = performance.now();
    const wall = performance.timeOrigin + paint;
    for (const event of batch)
      b.latency.push({
        paintedAt: paint,
        receiveToPaint: paint - event.receivedAt,
        serverToPaint: wall - event.serverTime,
      });
  });
}

if (enabled) bench();
