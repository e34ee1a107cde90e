import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'node-appwrite';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { freePort } from './lib/free-port.ts';
import { setOwnThreadsNice, withNice } from './lib/nice.ts';
import { parseProgress, rateSince } from './lib/traffic-rate.ts';
import type { BenchRecord } from '../src/lib/bench.ts';
import { formatTableQuery, readTableQuery } from '../src/features/orders/table-query.ts';
import { CHROMIUM_ARGS, CdpConnection, CdpPage, launchDebuggableChromium } from './lib/cdp.ts';
import { DEMO_PASSWORD } from './lib/demo-data.ts';
import { CHROMIUM_PATH, numberArg, parseArgs } from './lib/env.ts';
import { seededData, startSeeded } from './lib/seeded-data.ts';
import { dropServerSnapshot, keepServerSnapshot, scheduledRuns } from './lib/server-snapshot.ts';
import { cpuModel, recordEntry } from './lib/bench-record.ts';
import { snapshotWriteSummary } from './lib/snapshot-writes.ts';
import { describeCpuAnchor, measureCpuAnchor } from './lib/cpu-anchor.ts';
import { splitSteadyPhase, type SteadyWindow } from './lib/steady-windows.ts';
import {
  busiestRenderer,
  sampleSteal,
  sampleThread,
  scheduleBetween,
  stealBetween,
} from './lib/thread-schedule.ts';
import type { ProcessInfo } from './lib/process-cpu.ts';
import { processMemory, type ProcessMemory } from './lib/process-memory.ts';
import { percentile } from './lib/stats.ts';
import { stopDescendantsOnSignal } from './lib/processes.ts';

stopDescendantsOnSignal();

/**
 * `npm run bench:ui -- [--orders 100000] [--rate 1000] [--duration 28] [--warmup 3] [--watch 8] [--traffic-nice 15] [--no-interactions] [--no-record] [--profile] [--profile-warm] [--profile-cold] [--profile-interactions] [--trace] [--trace-invalidations] [--trace-cold] [--trace-interactions] [--table-query QUERY] [--data DIR]`
 *
 * The desk in a real browser under load: a throwaway local backend with `--orders` seeded orders,
 * the app as a production build (`vite build` + `vite preview`), headless Debian Chromium
 * (one pinned flag set; Playwright signs in, then the page is driven over a bare DevTools
 * connection) with the manager's orders table on screen, then the simulator at `--rate` events/s
 * for `--duration` s in a separate process, so the traffic comes from outside the page over the
 * real realtime socket. The backend, its function runtimes and the simulator run at nice
 * `--traffic-nice` (0: the same priority as the browser), and so does this process while the page
 * is recorded (it observes; it is no part of the seller's machine). Each long frame is reported
 * with how long the page's main thread ran in it, waited for a CPU, and how much CPU time the
 * hypervisor gave to other machines (steal).
 * Measured in the page (hooks on with `?bench=1` only): rAF frame intervals, long animation
 * frames over 50 ms, event-to-paint latency (receive → paint on the page's clock, and the event's
 * server timestamp → paint on the wall clock), navigation → first painted table with all orders;
 * and the JS heap after a forced GC. The steady phase excludes the first `--warmup` seconds of
 * traffic. `--profile` builds the app unminified (readable function names) and prints the main
 * thread's top self times for 5 s of traffic; `--trace` prints where each Chromium thread spent
 * 5 s of it (script, style, layout, paint, raster, GC) and the page's major GC pauses. Both
 * take those 5 s after the warm-up and before the recorded steady phase, which is that much
 * shorter: stopping a profile or a trace stalls the page (a long frame that is not the app's).
 * `--profile-warm` does the same for the returning visit, from the navigation to its first table;
 * `--profile-cold` for the first (cold) visit, from the navigation to its first table, and
 * `--trace-cold` traces it;
 * `--profile-interactions` for the interactions (the profile's overhead is in their figures then);
 * `--trace-interactions` traces them (the trace's overhead is in their figures then).
 * `--trace-invalidations` is `--trace` with Chromium's invalidation tracking (much slower pages;
 * the times are not comparable with a plain trace): it also counts the table rows inserted into
 * the page and the layout invalidations in those 5 s (the app unminified: their stacks name the
 * functions). `--table-query QUERY` opens the table on
 * another view (`sort=createdAt&dir=asc`: the oldest first, so no new order arrives on screen),
 * with `--no-record` only: the recorded runs are of the default view.
 * With `--interactions` (default on; `--no-interactions` to skip), the steady phase is in two
 * windows under the same traffic: the desk watched (its first `--watch` s, no input), whose frame
 * interval, long frames and event → paint are the targets, then the desk in use: the table driven
 * as a person would, but one input every 150 ms (sort switches, status filters, a search typed
 * letter by letter, opening an order), reporting input → next paint and input → result p50/p95
 * per kind and the long animation frames over 50 ms that overlapped an interaction, with the
 * same frame figures of that window beside them as context (an interaction may take a frame up
 * to 50 ms by its own target, and there are ~4 a second: its frames are not the traffic's).
 * A run whose simulator achieved less than 0.95 × `--rate` events/s in the steady phase (changes
 * made from its start to the traffic's end, from the simulator's `--progress` reports) is failed
 * (exit code 1): its figures were measured under less traffic than asked for; so is a run whose
 * traffic ended before its interactions did. The simulator's rate over its whole run, start-up
 * included (JIT-cold code, its first transactions), is reported beside it. The first visit is
 * cold (the profile's IndexedDB emptied): a first visit on this device, starting from the desk's server-kept snapshot, which
 * `desk-snapshot` writes just before (its time to live is reported too); then, as context, a
 * first visit with that file deleted, reading every order. The steady phase reports the store's snapshot writes (start → saved, the copies on
 * the main thread, the long frames over them); after the traffic, once a snapshot saved after it
 * is kept, the tab is closed and the desk opened in a new one: a returning visit's first table, painted from the snapshot
 * (the header "Resyncing"; its first screen, `store/sync/first-screen.ts`, with the kept row
 * count, before every order is restored), when every order is restored, and its time to live. The CPU model, the load averages and a CPU anchor
 * (`lib/cpu-anchor.ts`: a fixed JS workload timed before the run) are printed beside every run. Exit code 1 as well when any target is missed.
 * `--data DIR` keeps the seeded backend's folder there and runs on a copy of it next time (for
 * development: seeding 100,000 orders takes minutes). Appends the results to docs/benchmarks.md
 * (section "UI").
 */

const ROOT = resolve(import.meta.dirname, '..');
const CHROMIUM = CHROMIUM_PATH;
/**
 * The switches Playwright adds when it launches Chromium headless (its chromiumSwitches, less
 * those for other platforms and browsers): the browser is started here, so runs stay comparable
 * with the earlier ones Playwright launched.
 */
const DRIVER_FLAGS = [
  '--disable-field-trial-config',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-back-forward-cache',
  '--disable-breakpad',
  '--disable-component-extensions-with-background-pages',
  '--no-default-browser-check',
  '--disable-default-apps',
  '--disable-dev-shm-usage',
  '--disable-extensions',
  '--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch',
  '--allow-pre-commit-input',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-popup-blocking',
  '--disable-prompt-on-repost',
  '--disable-renderer-backgrounding',
  '--force-color-profile=srgb',
  '--metrics-recording-only',
  '--password-store=basic',
  '--use-mock-keychain',
  '--no-service-autorun',
  '--disable-search-engine-choice-screen',
  '--hide-scrollbars',
  '--mute-audio',
  '--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4',
];
const TARGETS = {
  frameP95: 20,
  loafMax: 50,
  latencyP95: 50,
  firstTableMs: 3000,
  /** A returning visit: the first table painted from the persisted snapshot. */
  warmFirstTableMs: 500,
  heapMb: 250,
  /** A run whose simulator achieved less than this share of `--rate` in the steady phase is failed. */
  rateShare: 0.95,
  interactionP95: 100,
};

const log = (line: string) => console.log(`[bench:ui] ${line}`);

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');

async function heapMb(page: CdpPage): Promise<number> {
  await page.send('HeapProfiler.collectGarbage');
  const { usedSize } = await page.send<{ usedSize: number }>('Runtime.getHeapUsage');
  return usedSize / 1024 / 1024;
}

/** The app's load marks (`livedesk:*`) so far, with their times on the page's clock. */
function loadPhases(page: CdpPage): Promise<string> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('mark')
      .filter((m) => m.name.startsWith('livedesk:'))
      .map((m) => `${m.name.slice(9)} ${m.startTime.toFixed(0)} ms`)
      .join(', '),
  );
}

/** Waits until the page's header says live: the page's clock then (≈: polled every 50 ms). */
async function liveAt(page: CdpPage): Promise<number> {
  await page.waitFor(
    () =>
      document.querySelector<HTMLElement>('[data-testid="connection"]')?.dataset.state === 'live',
    { timeoutMs: 120_000, pollMs: 50 },
  );
  return page.evaluate(() => performance.now());
}

/** Samples the page's main thread for `durationMs` and prints the functions with the most self time. */
async function profileFor(page: CdpPage, durationMs: number): Promise<void> {
  await startProfile(page);
  await sleep(durationMs);
  await stopProfile(page, `${durationMs} ms of steady traffic`);
}

async function startProfile(page: CdpPage): Promise<void> {
  await page.send('Profiler.enable');
  await page.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.send('Profiler.start');
}

/** Stops the profile and prints the functions with the most self time in it. */
async function stopProfile(page: CdpPage, what: string): Promise<void> {
  const { profile } = await page.send<{ profile: CpuProfile }>('Profiler.stop');
  await page.send('Profiler.disable');
  const file = join(tmpdir(), 'livedesk-bench-ui.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  log(`CPU profile written to ${file} (open it in Chromium's DevTools)`);
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, index) => {
    const node = byId.get(id)!;
    const frame = node.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[index] ?? 0) / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  log(`CPU profile, ${what}, self time:`);
  for (const [name, time] of top) console.log(`  ${time.toFixed(0).padStart(6)} ms  ${name}`);
}

/** A Chromium trace being recorded ({@link startTrace}). */
interface RunningTrace {
  cdp: CdpConnection;
  events: TraceEvent[];
  invalidations: boolean;
  stop: () => void;
  done: Promise<unknown>;
}

/** Starts recording a Chromium trace (with invalidation tracking if `invalidations`). */
async function startTrace(cdp: CdpConnection, invalidations: boolean): Promise<RunningTrace> {
  const events: TraceEvent[] = [];
  const stop = cdp.on('Tracing.dataCollected', ({ value }) =>
    events.push(...(value as TraceEvent[])),
  );
  const done = cdp.once('Tracing.tracingComplete');
  await cdp.send('Tracing.start', {
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8',
        'blink',
        'cc',
        'toplevel',
        'disabled-by-default-v8.gc',
        ...(invalidations ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : []),
      ],
    },
    transferMode: 'ReportEvents',
  });
  return { cdp, events, invalidations, stop, done };
}

/**
 * Stops a trace and prints, per renderer thread, the busy time and the time of the main kinds of
 * work (script, style, layout, paint, GC, …), summed over top-level slices of each kind.
 */
async function stopTrace(running: RunningTrace, span: string): Promise<void> {
  const { cdp, events, invalidations, stop, done } = running;
  await cdp.send('Tracing.end');
  await done;
  stop();
  const file = join(tmpdir(), 'livedesk-bench-ui.trace.json');
  writeFileSync(file, JSON.stringify({ traceEvents: events }));
  log(`trace written to ${file} (open it in Chromium's DevTools, Performance)`);
  const threadNames = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name')
      threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const kinds: Record<string, string> = {
    RunTask: 'busy (tasks)',
    'ThreadControllerImpl::RunTask': 'busy (tasks)',
    FunctionCall: 'script',
    EventDispatch: 'script',
    TimerFire: 'script',
    FireAnimationFrame: 'script',
    'v8.compile': 'script',
    UpdateLayoutTree: 'style',
    Layout: 'layout',
    PrePaint: 'paint',
    Paint: 'paint',
    Layerize: 'paint',
    Commit: 'commit',
    MinorGC: 'gc',
    MajorGC: 'gc',
    'V8.GC_SCAVENGER': 'gc',
    ParseHTML: 'parse',
    RasterTask: 'raster',
  };
  const totals = new Map<string, Map<string, number>>();
  const open = new Map<string, number>();
  for (const e of [...events].sort((a, b) => a.ts - b.ts)) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const kind = kinds[e.name];
    if (!kind) continue;
    const thread = threadNames.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
    const key = `${thread}|${kind}`;
    if ((open.get(key) ?? 0) > e.ts) continue;
    open.set(key, e.ts + e.dur);
    const byKind = totals.get(thread) ?? new Map<string, number>();
    byKind.set(kind, (byKind.get(kind) ?? 0) + e.dur / 1000);
    totals.set(thread, byKind);
  }
  log(`trace of ${span}, time per thread and kind of work:`);
  for (const [thread, byKind] of totals) {
    const parts = [...byKind].sort((a, b) => b[1] - a[1]).map(([k, t]) => `${k} ${t.toFixed(0)}`);
    console.log(`  ${thread}: ${parts.join(', ')} ms`);
  }
  const pauses = events.filter(
    (e) => e.name === 'MajorGC' && threadNames.get(`${e.pid}:${e.tid}`) === 'CrRendererMain',
  );
  log(`page's major GC pauses: ${pauses.map((e) => ms((e.dur ?? 0) / 1000)).join(', ') || 'none'}`);
  if (invalidations) log(`invalidation tracking: ${invalidationCounts(events)}`);
}

/** The table rows inserted into the page, and the layout invalidations, of a traced span. */
function invalidationCounts(events: readonly TraceEvent[]): string {
  const data = (e: TraceEvent) =>
    (e.args?.['data'] ?? {}) as { reason?: string; nodeName?: string };
  const rowsInserted = events.filter(
    (e) =>
      e.name === 'StyleRecalcInvalidationTracking' &&
      data(e).reason?.startsWith('Node was inserted') === true &&
      data(e).nodeName?.includes("class='trow") === true,
  ).length;
  const layout = events.filter((e) => e.name === 'LayoutInvalidationTracking');
  const texts = layout.filter((e) => data(e).reason === 'Text changed').length;
  return `${rowsInserted} table rows inserted into the page, ${layout.length} layout invalidations (${texts} of them text changed)`;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: unknown; data?: unknown };
}

/**
 * `--table-query`, read as the table reads its address (`readTableQuery`): what to add to the
 * desk's address (`&sort=…`), or '' without it. A value the table would ignore is refused, and so
 * is the flag in a recorded run (those are of the default view).
 */
function tableQueryArg(value: string | boolean | undefined, recorded: boolean): string {
  if (value === undefined) return '';
  if (typeof value !== 'string' || value === '')
    throw new Error(
      '--table-query takes the query of the table’s address, e.g. --table-query "sort=createdAt&dir=asc"',
    );
  if (recorded)
    throw new Error('--table-query measures another view than the recorded runs: add --no-record');
  const { query, unknown } = readTableQuery(value);
  if (unknown.length)
    throw new Error(
      `--table-query "${value}": the table does not know ${unknown.map(({ param, value: v }) => `${param} “${v}”`).join(', ')}`,
    );
  return formatTableQuery(query).replace(/^\?/, '&');
}

function machine(): string {
  return `${cpus().length} × ${cpuModel()}`;
}

/** The load averages (1, 5, 15 min), for the line printed beside every figure. */
const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** One interaction measured in the page: input → next paint, and the long frames it overlapped. */
interface InteractionSample {
  kind: 'sort' | 'filter' | 'search' | 'drawer';
  /** What was done (the column sorted by, the status chip, the text typed). */
  label: string;
  /** Input dispatched → the frame after it painted (ms). */
  toPaint: number;
  /** Input dispatched → the result shown (the query's rows, or the order in the drawer), ms. */
  toResult: number;
  /** For the drawer: input dispatched → the whole order shown (actions, payment), ms. */
  toWhole?: number;
  /** Long animation frames over 50 ms that overlapped [input, result]. */
  longFrames: number[];
}

/**
 * Runs in the page: a person's interactions with the table (sort switches, status filters, a
 * search typed letter by letter, opening and closing an order), spaced `gapMs` apart, each as
 * the DOM event a click or keystroke dispatches. For each: the time to the next paint (a frame
 * callback, then a task after it), to the visible result (the table's rows of the query asked:
 * its `data-query` that query and not `aria-busy`; the drawer showing the order, and also
 * when its whole record is shown), and the long animation frames over
 * 50 ms overlapping it (the page's PerformanceObserver for `long-animation-frame`).
 */
function driveInteractions(gapMs: number): Promise<InteractionSample[]> {
  const nextPaint = () =>
    new Promise<number>((done) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => done(performance.now());
        channel.port2.postMessage(null);
      }),
    );
  const sleepMs = (t: number) => new Promise((done) => setTimeout(done, t));
  const table = () => document.querySelector<HTMLElement>('[data-testid="orders-table"]');
  // The query the table was asked for, and whether its rows are that query's yet.
  const shownQuery = () => table()?.getAttribute('data-query') ?? '';
  const settled = () => table()?.getAttribute('aria-busy') !== 'true';
  const frames: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > 50) frames.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  observer.observe({ type: 'long-animation-frame', buffered: false });
  const samples: InteractionSample[] = [];
  const measure = async (
    kind: InteractionSample['kind'],
    label: string,
    act: () => void,
    done: (before: string) => boolean,
  ) => {
    const before = shownQuery();
    const t0 = performance.now();
    act();
    const painted = await nextPaint();
    let result = painted;
    while (!done(before) && performance.now() - t0 < 2000) result = await nextPaint();
    await sleepMs(gapMs);
    samples.push({
      kind,
      label,
      toPaint: painted - t0,
      toResult: result - t0,
      longFrames: frames.filter((f) => f.end > t0 && f.start < result).map((f) => f.end - f.start),
    });
  };
  // Rows of the new sort or filter shown (not the previous ones while it is being made).
  const changed = (before: string) => shownQuery() !== before && settled();
  // Rows of the search for `text` shown.
  const searched = (text: string) => () =>
    (new URLSearchParams(shownQuery()).get('q') ?? '') === text.trim() && settled();
  const search = document.querySelector<HTMLInputElement>('#orders-search')!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  const type = (value: string) => {
    setValue.call(search, value);
    search.dispatchEvent(new Event('input', { bubbles: true }));
  };
  return (async () => {
    const headers = () => [
      ...document.querySelectorAll<HTMLButtonElement>('[role="columnheader"] button'),
    ];
    for (let i = 0; i < headers().length; i++)
      for (let twice = 0; twice < 2; twice++)
        await measure(
          'sort',
          `${headers()[i]!.textContent} (${twice === 0 ? 'first' : 'again'})`,
          () => headers()[i]!.click(),
          changed,
        );
    const chips = () => [...document.querySelectorAll<HTMLButtonElement>('.statuses .chip')];
    for (let i = 0; i < chips().length; i++) {
      const chip = chips()[i]!.textContent ?? '';
      await measure('filter', `${chip} on`, () => chips()[i]!.click(), changed);
      await measure('filter', `${chip} off`, () => chips()[i]!.click(), changed);
    }
    for (const word of ['ana', 'silva', '#10', 'example']) {
      for (let i = 1; i <= word.length; i++)
        await measure(
          'search',
          word.slice(0, i),
          () => type(word.slice(0, i)),
          searched(word.slice(0, i)),
        );
      await measure('search', '(cleared)', () => type(''), searched(''));
    }
    for (let i = 0; i < 5; i++) {
      // The rows on screen from the top (the page holds them in the order of their slots).
      const row = document.querySelector<HTMLElement>(
        `[data-testid="order-row"][aria-rowindex="${i + 2}"]`,
      );
      if (!row) break;
      const opened = performance.now();
      // The whole order (read from the backend when only its list copy is held), seen at paint.
      const title = `#${row.getAttribute('data-order-number')}`;
      const wholeShown = () =>
        document.querySelector('.drawer [data-testid="payment"]') !== null &&
        (document.querySelector('.drawer h2')?.textContent ?? '').includes(title);
      const whole = (async () => {
        while (!wholeShown()) {
          if (performance.now() - opened > 5000) break;
          await nextPaint();
        }
        return performance.now() - opened;
      })();
      await measure(
        'drawer',
        `row ${i + 1}`,
        () => row.click(),
        // The order shown in it, from the list copy the table holds at first.
        () => document.querySelector('.drawer #customer-title') !== null,
      );
      samples.at(-1)!.toWhole = await whole;
      document.querySelector<HTMLButtonElement>('.drawer [aria-label="Close"]')?.click();
      await sleepMs(gapMs);
    }
    observer.disconnect();
    return samples;
  })();
}

/**
 * The frame figures of the desk in use (the interactions' window), as context beside the
 * interactions' own targets.
 */
function inUseRow(window: SteadyWindow): [string, string, string, string] {
  const over = window.intervals.filter((i) => i > TARGETS.frameP95).length;
  const share = window.intervals.length ? (100 * over) / window.intervals.length : NaN;
  const worst = window.longFrames.length ? ` (worst ${ms(Math.max(...window.longFrames))})` : '';
  return [
    'the desk in use (the interactions, under the same traffic): frame interval p50 / p95 (share over 20 ms); long animation frames > 50 ms; event → paint p50 / p95',
    `${ms(percentile(window.intervals, 50))} / ${ms(percentile(window.intervals, 95))} (${share.toFixed(1)}%); ${window.longFrames.length}${worst}; ${ms(percentile(window.receiveToPaint, 50))} / ${ms(percentile(window.receiveToPaint, 95))}`,
    '(context)',
    '',
  ];
}

/** This process's threads back at `nice` (raising a priority needs privileges: kept lower without). */
function restoreOwnNice(nice: number): void {
  try {
    setOwnThreadsNice(nice);
  } catch (error) {
    log(`this process stays at its lower priority: ${(error as Error).message}`);
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const orders = numberArg(args, 'orders', 100_000, { min: 1, max: 1_000_000 });
  const rate = numberArg(args, 'rate', 1000, { min: 1, max: 20_000 });
  const duration = numberArg(args, 'duration', 28, { min: 2, max: 600 });
  const warmup = numberArg(args, 'warmup', 3, { min: 0, max: 60 });
  const watch = numberArg(args, 'watch', 8, { min: 0, max: 120 });
  const trafficNice = numberArg(args, 'traffic-nice', 15, { min: 0, max: 19 });
  const recordResults = !args.has('no-record');
  const profile = args.has('profile');
  const profileWarm = args.has('profile-warm');
  const profileInteractions = args.has('profile-interactions');
  const profileCold = args.has('profile-cold');
  const traceInvalidations = args.has('trace-invalidations');
  const trace = args.has('trace') || traceInvalidations;
  const traceCold = args.has('trace-cold');
  const traceInteractions = args.has('trace-interactions');
  const deskAddress = `/orders?bench=1&rows=${orders}${tableQueryArg(args.get('table-query'), recordResults)}`;
  const interactions = !args.has('no-interactions');
  log(`machine: ${machine()}; load average ${loads()}`);
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium)`);
  const anchor = measureCpuAnchor();
  log(describeCpuAnchor(anchor));

  // The backend (with its function runtimes) and the simulator stand for machines other than
  // the seller's: on these two shared cores they yield to the browser instead of competing with
  // it as equals (`--traffic-nice 0`: all at the same priority).
  // Seeded over 29 days: every order stays inside the desk's 30-day history while the run lasts
  // (over 30, the oldest closed ones leave it during the run and the table never reaches `orders`).
  const kept = args.get('data');
  const seed = await seededData({
    kept: typeof kept === 'string' ? resolve(kept) : null,
    projectId: 'livedesk-bench',
    orders,
    log,
  });
  await using backend = await startSeeded(seed, { nice: trafficNice });
  log(`backend ${backend.endpoint} (nice ${trafficNice})`);
  // The backend's memory with the seeded orders: started, after the desk's loads (every order
  // read), at the traffic's end, after the returning visit.
  const backendMemory = (): ProcessMemory | null =>
    backend.pid === null ? null : processMemory(backend.pid);
  const backendMemoryStarted = backendMemory();

  const outDir = mkdtempSync(join(tmpdir(), 'livedesk-bench-app-'));
  process.env.VITE_APPWRITE_ENDPOINT = backend.endpoint;
  process.env.VITE_APPWRITE_PROJECT_ID = backend.projectId;
  await build({
    root: ROOT,
    logLevel: 'error',
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      minify:
        !profile && !profileWarm && !profileCold && !profileInteractions && !traceInvalidations,
    },
  });
  const port = await freePort();
  const app = await preview({
    root: ROOT,
    logLevel: 'error',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true },
  });
  const appUrl = `http://127.0.0.1:${port}`;

  const browser = await launchDebuggableChromium(CHROMIUM, [...CHROMIUM_ARGS, ...DRIVER_FLAGS]);
  let cdp: CdpConnection | undefined;
  try {
    // Sign in through the form with Playwright, then let go of the browser: the measured page is
    // driven over a bare DevTools connection (Playwright's network domain would copy every
    // realtime frame the page receives to this process).
    const driver = await chromium.connectOverCDP(browser.wsEndpoint);
    const chromeVersion = driver.version();
    const login = await driver.contexts()[0]!.newPage();
    await login.goto(`${appUrl}/login`);
    await login.getByLabel('Email').fill('manager@livedesk.test');
    await login.getByLabel('Password').fill(DEMO_PASSWORD);
    await login.getByRole('button', { name: 'Sign in' }).click();
    await login.getByRole('button', { name: 'Sign out' }).waitFor();
    await login.close();
    await driver.close();

    cdp = await CdpConnection.open(browser.wsEndpoint);
    const page = await CdpPage.open(cdp, { width: 1440, height: 900 });
    page.onError((message) => log(`page error: ${message}`));
    /** A first visit on this device: nothing kept in IndexedDB (the sign-in page's included). */
    const firstVisit = async (what: string) => {
      await page.send('Storage.clearDataForOrigin', { origin: appUrl, storageTypes: 'indexeddb' });
      await page.navigate(`${appUrl}${deskAddress}`);
      await page
        .waitFor(() => (window.__livedeskBench?.firstTable ?? null) !== null, {
          timeoutMs: 180_000,
          pollMs: 200,
        })
        .catch(async (error: unknown) => {
          const state = await page.evaluate(() => ({
            rows: window.__livedeskBench?.tableRows,
            connection: document.querySelector('[data-testid="connection"]')?.textContent,
          }));
          throw new Error(
            `${what}: no table with ${orders} rows: it has ${state.rows}; load phases: ${await loadPhases(page)}; connection: ${state.connection}`,
            { cause: error },
          );
        });
      const visit = await page.evaluate(() => ({
        firstTable: window.__livedeskBench!.firstTable!,
        connection: window.__livedeskBench!.firstTableConnection,
        rows: window.__livedeskBench!.tableRows,
      }));
      const marks = await loadPhases(page);
      log(
        `${what}: first table with ${visit.rows.toLocaleString('en-US')} rows at ${ms(visit.firstTable)} (connection ${visit.connection}); load phases: ${marks}`,
      );
      return visit;
    };

    // The cold visit measured: a first visit on this device, from the server-kept snapshot
    // (written now, as the function's schedule keeps it).
    const api = new Client()
      .setEndpoint(backend.endpoint)
      .setProject(backend.projectId)
      .setKey(backend.apiKey);
    const kept = await keepServerSnapshot(api);
    log(`desk-snapshot ran in ${kept.ms} ms: a file of ${(kept.bytes / 1e6).toFixed(1)} MB`);
    await sleep(1000);
    const loadBefore = loadavg()[0]!;
    if (profileCold) await startProfile(page);
    const coldTrace = traceCold ? await startTrace(cdp, false) : null;
    const cold = await firstVisit('cold visit');
    if (profileCold) await stopProfile(page, 'the cold visit to its first table');
    if (coldTrace) await stopTrace(coldTrace, 'the cold visit to its first table');
    const { firstTable, connection: coldConnection, rows: tableRows } = cold;
    const coldLive = await liveAt(page);
    const heapLoaded = await heapMb(page);
    log(`cold visit: live at ≈${ms(coldLive)}; heap ${heapLoaded.toFixed(0)} MB`);

    // A first visit reading every order: the server-kept snapshot deleted (context).
    await page.navigate('about:blank');
    await dropServerSnapshot(api);
    const fullLoad = await firstVisit('first visit, every order read');
    await sleep(2000);

    // Traffic from outside the page: the simulator in its own process.
    const backendMemoryLoaded = backendMemory();
    log(`simulator: ${rate} events/s for ${duration} s (separate process, nice ${trafficNice})`);
    const [command, ...commandArgs] = withNice(trafficNice, [
      process.execPath,
      '--disable-warning=ExperimentalWarning',
      join(ROOT, 'scripts/simulate.ts'),
      '--rate',
      String(rate),
      '--duration',
      String(duration),
      '--quiet',
      '--progress',
    ]);
    const simulator = spawn(command!, commandArgs, {
      cwd: ROOT,
      env: {
        ...process.env,
        APPWRITE_ENDPOINT: backend.endpoint,
        APPWRITE_PROJECT_ID: backend.projectId,
        APPWRITE_API_KEY: backend.apiKey,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let simulatorOutput = '';
    simulator.stdout!.on('data', (chunk: Buffer) => (simulatorOutput += chunk.toString()));
    let trafficEnded = false;
    const simulatorDone = new Promise<number>((done) =>
      simulator.once('exit', (code) => {
        trafficEnded = true;
        done(code ?? 1);
      }),
    );

    // Skip the simulator's start-up (prepare) and the warm-up, then record the steady phase.
    await page.waitFor(
      () => document.querySelector('[data-testid="connection"] .conn__age') !== null,
      { timeoutMs: 60_000 },
    );
    await sleep(warmup * 1000);
    // Stopping a profile or a trace stalls the page for a moment: both come before the recording.
    if (profile) await profileFor(page, 5000);
    if (trace) {
      const running = await startTrace(cdp, traceInvalidations);
      await sleep(5000);
      await stopTrace(running, '5 s of steady traffic');
    }
    await page.evaluate(() => {
      const b = window.__livedeskBench!;
      b.frames.length = 0;
      b.loaf.length = 0;
      b.latency.length = 0;
      b.snapshotWrites.length = 0;
      b.recording = true;
    });
    const steadyStarted = Date.now();
    // This process (its readings below, its garbage collection) yields the CPUs to the page as
    // the traffic does while the page is recorded: it observes the desk and is no part of it.
    const ownNice = trafficNice > 0 ? setOwnThreadsNice(trafficNice) : null;
    // The machine's steal time (its CPUs' time the hypervisor gave to other machines), read
    // from before the main thread's first reading to after its last.
    const stealSampler = sampleSteal();
    // The page's main thread, read every few ms: in a long frame, how long it ran and how long
    // it was ready but waited for a CPU.
    const rendererPid = busiestRenderer(
      (await cdp.send('SystemInfo.getProcessInfo')) as ProcessInfo,
    );
    const mainThreadSampler = rendererPid === null ? null : sampleThread(rendererPid, rendererPid);
    const pageOrigin = await page.evaluate(() => performance.timeOrigin);
    // The desk watched under the traffic, then in use (the interactions) under the same traffic.
    if (interactions) await sleep(watch * 1000);
    const inUseFrom = interactions ? await page.evaluate(() => performance.now()) : Infinity;
    if (profileInteractions && interactions) await startProfile(page);
    const interactionsTrace =
      traceInteractions && interactions ? await startTrace(cdp, false) : null;
    const samples = interactions
      ? await page.evaluate(
          new Function(`return (${driveInteractions.toString()})(150);`) as () => Promise<
            InteractionSample[]
          >,
        )
      : [];
    if (profileInteractions && interactions)
      await stopProfile(page, 'the interactions under traffic');
    if (interactionsTrace) await stopTrace(interactionsTrace, 'the interactions under traffic');
    for (const x of samples)
      if (x.toResult > 50 || x.longFrames.length > 0)
        log(
          `slow ${x.kind} ${x.label}: paint ${ms(x.toPaint)}, result ${ms(x.toResult)}${x.longFrames.length ? `, long frames ${x.longFrames.map((f) => f.toFixed(0)).join(', ')} ms` : ''}`,
        );
    if (interactions)
      log(
        `${samples.length} interactions driven in ${((Date.now() - steadyStarted) / 1000 - watch).toFixed(1)} s of traffic after ${watch} s watched${trafficEnded ? ' (THE TRAFFIC ENDED BEFORE THEM: a longer --duration is needed)' : ''}; load average ${loads()}`,
      );
    const trafficEndedFirst = trafficEnded;
    const exitCode = await simulatorDone;
    const mainThreadSamples = mainThreadSampler?.stop() ?? [];
    const stealSamples = stealSampler.stop();
    if (ownNice !== null) restoreOwnNice(ownNice);
    const backendMemoryTraffic = backendMemory();
    const steadySeconds = (Date.now() - steadyStarted) / 1000;
    const scheduled = await scheduledRuns(api, steadyStarted, Date.now());
    const scheduledNote = `desk-snapshot's schedule ran ${scheduled.runs} time(s) in the steady phase (${(scheduled.ms / 1000).toFixed(1)} s in the function)`;
    log(scheduledNote);
    const record = await page.evaluate(() => {
      const b = window.__livedeskBench!;
      b.recording = false;
      (window as unknown as { __benchTrafficEnd: number }).__benchTrafficEnd = performance.now();
      return JSON.parse(JSON.stringify(b)) as BenchRecord;
    });
    const heapEnd = await heapMb(page);
    const finalRows = await page.evaluate(() => window.__livedeskBench!.tableRows);
    const writes = snapshotWriteSummary(record.snapshotWrites, record.loaf);
    const mainThread = writes.cloneMs.map((copies, i) => copies + writes.encodeMs[i]!);
    log(
      `snapshot writes in the steady phase: ${writes.writes}; start → saved ${writes.writeMs.map((t) => t.toFixed(0)).join(', ')} ms; pages encoded ${writes.encodeMs.map((t) => t.toFixed(0)).join(', ')} ms (longest ${ms(writes.longestEncode)}); copies put ${writes.cloneMs.map((t) => t.toFixed(0)).join(', ')} ms (longest ${ms(writes.longestCopy)}); long frames overlapping them: ${writes.longFrames.map((t) => t.toFixed(0)).join(', ') || 'none'}`,
    );

    // A returning visit: once a snapshot saved after the traffic is kept, the desk is opened
    // again and paints from it (the header says "Resyncing" until the catch-up is done).
    await page.waitFor(
      () =>
        performance
          .getEntriesByName('livedesk:snapshot-saved')
          .some(
            (entry) =>
              entry.startTime >
              (window as unknown as { __benchTrafficEnd: number }).__benchTrafficEnd,
          ),
      { timeoutMs: 60_000, pollMs: 200 },
    );
    const loadBeforeWarm = loadavg()[0]!;
    // The person closes the tab and comes back later in a new one (another renderer): the first
    // tab's unload is not part of the returning visit.
    await page.close();
    const returning = await CdpPage.open(cdp, { width: 1440, height: 900 });
    returning.onError((message) => log(`page error (returning visit): ${message}`));
    if (profileWarm) await startProfile(returning);
    await returning.navigate(`${appUrl}${deskAddress}`);
    await returning.waitFor(() => (window.__livedeskBench?.firstTable ?? null) !== null, {
      timeoutMs: 180_000,
      pollMs: 50,
    });
    const warm = await returning.evaluate(() => {
      const b = window.__livedeskBench!;
      return { firstTable: b.firstTable!, connection: b.firstTableConnection, rows: b.tableRows };
    });
    if (profileWarm) await stopProfile(returning, 'the returning visit to its first table');
    const warmMarks = await loadPhases(returning);
    const warmBoot = await returning.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const script = performance
        .getEntriesByType('resource')
        .find((e) => e.name.endsWith('.js')) as PerformanceResourceTiming | undefined;
      const at = (t: number | undefined) => (t === undefined ? '?' : `${t.toFixed(0)} ms`);
      return `document requested ${at(nav.requestStart)}, document ${at(nav.responseEnd)}, script fetched ${at(script?.startTime)}–${at(script?.responseEnd)}, DOM interactive ${at(nav.domInteractive)}`;
    });
    log(`returning visit's boot: ${warmBoot}`);
    const warmLive = await liveAt(returning);
    const backendMemoryEnd = backendMemory();
    // The first table may be the first screen kept with the snapshot: when every order was there.
    const warmRestored = await returning.evaluate(
      () => performance.getEntriesByName('livedesk:snapshot-restored').at(-1)?.startTime ?? NaN,
    );
    log(
      `returning visit: first table with ${warm.rows.toLocaleString('en-US')} rows at ${ms(warm.firstTable)} (connection ${warm.connection}), every order restored at ${ms(warmRestored)}, live at ≈${ms(warmLive)}; load average ${loadBeforeWarm.toFixed(2)}; load phases: ${warmMarks}`,
    );
    const simulated = simulatorOutput.trim().split('\n').at(-1) ?? '';
    const loadAfter = loadavg()[0]!;
    if (exitCode !== 0) log(`simulator exited with code ${exitCode}: ${simulated}`);

    const { watched, inUse } = splitSteadyPhase(record, inUseFrom);
    const intervals = watched.intervals;
    const receive = watched.receiveToPaint;
    const server = record.latency.map((l) => l.serverToPaint);
    const loafOver50 = record.loaf.filter((l) => l.duration > 50);
    const mainThreadIn = (from: number, to: number) => {
      const span = scheduleBetween(mainThreadSamples, from, to);
      const steal = stealBetween(stealSamples, from, to);
      return span
        ? `ran ${span.runMs.toFixed(0)} ms, waited for a CPU ${span.waitMs.toFixed(0)} ms${steal === null ? '' : ` (steal ${steal.toFixed(0)} ms)`}`
        : 'not read';
    };
    const inLongFrames = loafOver50.map((l) =>
      mainThreadIn(pageOrigin + l.start, pageOrigin + l.start + l.duration),
    );
    loafOver50.forEach((l, i) =>
      log(
        `long frame ${l.duration.toFixed(0)} ms (${l.start < inUseFrom ? 'watched' : 'in use'}): script ${l.script.toFixed(0)}, render ${l.render.toFixed(0)} (style+layout ${l.styleLayout.toFixed(0)}), blocking ${l.blocking.toFixed(0)}; the main thread ${inLongFrames[i]} — ${l.scripts.join('; ') || 'no script attribution'}`,
      ),
    );
    const firstSample = mainThreadSamples[0];
    const lastSample = mainThreadSamples.at(-1);
    const steadySpanMs = firstSample && lastSample ? lastSample.at - firstSample.at : 0;
    const steadyMainThread =
      steadySpanMs > 0 ? scheduleBetween(mainThreadSamples, firstSample!.at, lastSample!.at) : null;
    const steadySteal =
      steadySpanMs > 0 ? stealBetween(stealSamples, firstSample!.at, lastSample!.at) : null;
    const cpuCount = cpus().length;
    const stealShare =
      steadySteal === null
        ? ''
        : `; the machine's steal ${((100 * steadySteal) / (steadySpanMs * cpuCount)).toFixed(1)}% of its ${cpuCount} CPUs' time`;
    const mainThreadRows: [string, string, string, string][] = steadyMainThread
      ? [
          [
            "the page's main thread over the steady phase (Linux schedstat, read every 4 ms): running; ready but waiting for a CPU; the machine's steal (/proc/stat: its CPUs' time its hypervisor gave to other machines)",
            `${((100 * steadyMainThread.runMs) / steadySpanMs).toFixed(0)}%; ${((100 * steadyMainThread.waitMs) / steadySpanMs).toFixed(0)}% of ${(steadySpanMs / 1000).toFixed(1)} s${stealShare}`,
            '(context)',
            '',
          ],
          [
            "long animation frames > 50 ms (watched and in use): the main thread in each (steal: the machine's in that frame, all CPUs, in 10 ms ticks)",
            loafOver50
              .map((l, i) => `${l.duration.toFixed(0)} ms: ${inLongFrames[i]}`)
              .join('; ') || 'none',
            '(context)',
            '',
          ],
        ]
      : [];
    const worstLoaf = Math.max(0, ...watched.longFrames);
    const results = {
      frameP50: percentile(intervals, 50),
      frameP95: percentile(intervals, 95),
      frames: intervals.length,
      slowFrames: (100 * intervals.filter((i) => i > TARGETS.frameP95).length) / intervals.length,
      loafCount: watched.longFrames.length,
      worstLoaf,
      latencyP50: percentile(receive, 50),
      latencyP95: percentile(receive, 95),
      serverP50: percentile(server, 50),
      serverP95: percentile(server, 95),
      events: record.latency.length,
      watchedEvents: receive.length,
      firstTable,
      heapMb: Math.max(heapLoaded, heapEnd),
    };
    const wholeRun = Number(/\(([\d.]+)\/s;/.exec(simulated)?.[1] ?? NaN);
    const steadyRate = rateSince(parseProgress(simulatorOutput), steadyStarted);
    const achieved = steadyRate?.perSecond ?? NaN;
    const rateOk = Number.isFinite(achieved) && achieved >= TARGETS.rateShare * rate;
    const ok = (pass: boolean) => (pass ? 'ok' : 'MISSED');
    const watchedLabel = interactions
      ? `the desk watched (the first ${watch} s of the steady phase, no input)`
      : 'the desk watched (the steady phase, no input)';
    const kinds = ['sort', 'filter', 'search', 'drawer'] as const;
    const interactionRows: [string, string, string, string][] = [];
    let interactionsOk = true;
    for (const kind of kinds) {
      const of = samples.filter((x) => x.kind === kind);
      if (of.length === 0) continue;
      const paint = of.map((x) => x.toPaint);
      const result = of.map((x) => x.toResult);
      const long = of.flatMap((x) => x.longFrames);
      const pass = percentile(result, 95) <= TARGETS.interactionP95 && long.length === 0;
      interactionsOk &&= pass;
      interactionRows.push([
        `${kind} (${of.length}): input → next paint p50 / p95; → result p50 / p95; long frames > 50 ms`,
        `${ms(percentile(paint, 50))} / ${ms(percentile(paint, 95))}; ${ms(percentile(result, 50))} / ${ms(percentile(result, 95))}; ${long.length}${long.length ? ` (worst ${ms(Math.max(...long))})` : ''}`,
        `result p95 ≤ ${TARGETS.interactionP95} ms, 0 long frames`,
        ok(pass),
      ]);
    }
    const whole = samples.flatMap((x) => (x.toWhole === undefined ? [] : [x.toWhole]));
    if (whole.length)
      interactionRows.push([
        `drawer: input → the whole order shown (actions, payment; read when only its list copy is held) p50 / p95`,
        `${ms(percentile(whole, 50))} / ${ms(percentile(whole, 95))}`,
        '(context)',
        '',
      ]);
    const rows: [string, string, string, string][] = [
      [
        `achieved event rate in the steady phase (asked ${rate}/s): changes made from its start to the traffic's end`,
        `${steadyRate ? `${achieved.toFixed(0)}/s (${steadyRate.events.toLocaleString('en-US')} in ${steadyRate.seconds.toFixed(1)} s)` : 'unknown'}; the whole run, its start-up included: ${Number.isFinite(wholeRun) ? `${wholeRun.toFixed(0)}/s` : 'unknown'}`,
        `≥ ${TARGETS.rateShare} × ${rate}/s, else the run is FAILED`,
        ok(rateOk),
      ],
      ...interactionRows,
      [
        `${watchedLabel}: frame interval p50 / p95 (share over 20 ms)`,
        `${ms(results.frameP50)} / ${ms(results.frameP95)} (${results.slowFrames.toFixed(1)}%)`,
        `p95 ≤ ${TARGETS.frameP95} ms`,
        ok(results.frameP95 <= TARGETS.frameP95),
      ],
      [
        `${watchedLabel}: long animation frames > 50 ms`,
        `${results.loafCount} (worst ${ms(worstLoaf)})`,
        '0',
        ok(results.loafCount === 0),
      ],
      [
        `${watchedLabel}: event → paint p50 / p95 (page clock)`,
        `${ms(results.latencyP50)} / ${ms(results.latencyP95)}`,
        `p95 ≤ ${TARGETS.latencyP95} ms`,
        ok(results.latencyP95 <= TARGETS.latencyP95),
      ],
      ...(interactions ? [inUseRow(inUse)] : []),
      ...mainThreadRows,
      [
        `the local backend's memory with ${orders.toLocaleString('en-US')} orders seeded (resident, of it anonymous: heaps and SQLite's page cache; the rest the mapped database file): started; after the desk's loads (every order read); at the traffic's end; after the returning visit; peak`,
        backendMemoryEnd
          ? `${[backendMemoryStarted, backendMemoryLoaded, backendMemoryTraffic, backendMemoryEnd].map((m) => (m ? `${m.rssMb.toFixed(0)} MB (${m.anonMb.toFixed(0)})` : 'n/a')).join('; ')}; ${backendMemoryEnd.peakMb.toFixed(0)} MB`
          : 'not read',
        '(context)',
        '',
      ],
      [
        'server timestamp → paint p50 / p95',
        `${ms(results.serverP50)} / ${ms(results.serverP95)}`,
        '(context)',
        '',
      ],
      [
        `navigation → first table, cold: a first visit on this device, from the desk's server-kept snapshot (${tableRows.toLocaleString('en-US')} rows; header then: ${coldConnection ?? 'none'})`,
        ms(firstTable),
        `≤ ${TARGETS.firstTableMs} ms`,
        ok(firstTable <= TARGETS.firstTableMs),
      ],
      [
        "cold: navigation → live (the catch-up from the server-kept snapshot's watermark done)",
        `≈${ms(coldLive)}`,
        '(context)',
        '',
      ],
      [
        `first visit without the server-kept snapshot: navigation → first table, every order read (${fullLoad.rows.toLocaleString('en-US')} rows)`,
        ms(fullLoad.firstTable),
        '(context)',
        '',
      ],
      [
        `navigation → first table, warm: a returning visit painting the persisted snapshot (${warm.rows.toLocaleString('en-US')} rows; header then: ${warm.connection ?? 'none'})`,
        ms(warm.firstTable),
        `≤ ${TARGETS.warmFirstTableMs} ms, painted as resyncing`,
        ok(warm.firstTable <= TARGETS.warmFirstTableMs && warm.connection === 'resyncing'),
      ],
      [
        'warm: navigation → every order restored (the whole snapshot read, decoded and loaded; the first table may be its first screen before)',
        ms(warmRestored),
        '(context)',
        '',
      ],
      [
        "warm: navigation → live (the catch-up from the snapshot's watermark done)",
        `≈${ms(warmLive)}`,
        '(context)',
        '',
      ],
      [
        `snapshot writes in the steady phase (${writes.writes}): start → saved p50 / max; main thread per write (encode + copies) p50 / max; longest single piece (page encoded, page put); long frames > 50 ms overlapping a write`,
        `${ms(percentile(writes.writeMs, 50))} / ${ms(Math.max(...writes.writeMs))}; ${ms(percentile(mainThread, 50))} / ${ms(Math.max(...mainThread))}; ${ms(writes.longestEncode)}, ${ms(writes.longestCopy)}; ${writes.longFrames.length}${writes.longFrames.length ? ` (worst ${ms(Math.max(...writes.longFrames))})` : ''}`,
        'longest piece < 50 ms (no long task of its own; the overlapping frames may be other work)',
        ok(Math.max(writes.longestEncode, writes.longestCopy) < TARGETS.loafMax),
      ],
      [
        'JS heap after GC (loaded / end)',
        `${heapLoaded.toFixed(0)} MB / ${heapEnd.toFixed(0)} MB`,
        `≤ ${TARGETS.heapMb} MB`,
        ok(results.heapMb <= TARGETS.heapMb),
      ],
    ];
    const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const header = `${date} UTC · ${machine()} · CPU anchor ${anchor.medianMs.toFixed(1)} ms · Chromium ${chromeVersion} headless (${CHROMIUM_ARGS.filter((f) => f !== '--headless').join(' ')})`;
    const traffic = `Load average (1 min) ${loadBefore.toFixed(2)} before loading, ${loadAfter.toFixed(2)} after the traffic (1/5/15 min now ${loads()}). ${orders.toLocaleString('en-US')} orders seeded; simulator ${rate}/s for ${duration} s in a separate process; backend, its function runtimes and simulator at nice ${trafficNice} (${simulated || 'no summary'}); steady phase ${steadySeconds.toFixed(1)} s after ${warmup} s warm-up${interactions ? ` (${watch} s watched, then in use)` : ''}, ${results.events.toLocaleString('en-US')} events painted (${results.watchedEvents.toLocaleString('en-US')} watched), ${results.frames} frames watched; table rows at the end: ${finalRows.toLocaleString('en-US')}; ${scheduledNote}; load average (1 min) ${loadBeforeWarm.toFixed(2)} before the returning visit`;
    const table = [
      '| metric | result | target | |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
    const underTraffic = !(interactions && trafficEndedFirst);
    const allOk =
      rateOk &&
      underTraffic &&
      interactionsOk &&
      rows.every(([, , , verdict]) => verdict !== 'MISSED');
    const verdict = !underTraffic
      ? 'RUN FAILED: the traffic ended before the interactions did; their figures do not count (a longer --duration is needed).'
      : !rateOk
        ? `RUN FAILED: the simulator achieved ${Number.isFinite(achieved) ? achieved.toFixed(0) : '?'} events/s of the ${rate} asked in the steady phase (< ${TARGETS.rateShare} ×); its figures do not count.`
        : allOk
          ? 'All targets met.'
          : 'Targets MISSED (see the table).';
    console.log(`\n${header}\n${traffic}\n\n${table}\n\n${verdict}\n`);
    if (!allOk) process.exitCode = 1;
    if (recordResults) {
      recordEntry(
        'UI',
        `### ${header}\n\n${traffic}\n\n${table}\n\n${verdict}\n`,
        '`npm run bench:ui` (scripts/bench-ui.ts): the orders table in headless Chromium under simulated traffic.',
      );
    }
  } finally {
    cdp?.close();
    await browser.close();
    await app.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(
    `bench:ui failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
