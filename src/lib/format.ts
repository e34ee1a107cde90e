/** Formatting for the desk: ages, durations, dates. Pure; `now` is passed in. */

/** A compact age: `now`, `45s`, `12m`, `3h 05m`, `2d`. */
export function formatAge(sinceMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.floor((nowMs - sinceMs) / 1000));
  if (seconds < 5) return 'now';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${String(minutes % 60).padStart(2, '0')}m`;
  return `${Math.floor(hours / 24)}d`;
}

/** A duration in minutes and seconds, e.g. `7m 30s`, or `—` for null. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const time = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** `22 Nov, 14:05`. */
export function formatDateTime(ms: number | null): string {
  return ms === null ? '—' : dateTime.format(ms);
}

/** `14:05:09`. */
export function formatClock(ms: number): string {
  return time.format(ms);
}

const count = new Intl.NumberFormat('en-US');

/** `1,234`. */
export function formatCount(n: number): string {
  return count.format(n);
}

/** Initials for an avatar: `Ana Silva` → `AS`. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]![0] ?? '';
  const last = parts.length > 1 ? (parts.at(-1)![0] ?? '') : '';
  return (first + last).toUpperCase();
}

/** First name only: `Ana Silva` → `Ana`. */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}
