/**
 * The store's `livedesk:` entries in the page's performance timeline: the load's phases and the
 * snapshot writes (`bench:ui` reads them). No-ops where there is no timeline.
 */

const timeline = (): Performance | null =>
  typeof performance !== 'undefined' && typeof performance.mark === 'function' ? performance : null;

/** Marks `livedesk:<name>` now (a phase of the load: once per load). */
export function mark(name: string): void {
  timeline()?.mark(`livedesk:${name}`);
}

/**
 * Marks `livedesk:<name>` now, for what happens again and again: the timeline keeps only the
 * latest (a `PerformanceObserver` still sees every one).
 */
export function markLatest(name: string): void {
  const t = timeline();
  if (!t) return;
  t.clearMarks(`livedesk:${name}`);
  t.mark(`livedesk:${name}`);
}

/** Measures `livedesk:<name>` from `start` (`performance.now()`) to now, keeping only the latest. */
export function measureLatest(name: string, start: number): void {
  const t = timeline();
  if (!t || typeof t.measure !== 'function') return;
  t.clearMeasures(`livedesk:${name}`);
  t.measure(`livedesk:${name}`, { start, end: t.now() });
}

/** `performance.now()`, or 0 without a timeline. */
export function timelineNow(): number {
  return timeline()?.now() ?? 0;
}
