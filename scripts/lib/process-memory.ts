import { readFileSync } from 'node:fs';

/** A process's memory as Linux reports it in `/proc/<pid>/status` (MB). */
export interface ProcessMemory {
  /** Resident now (`VmRSS`). */
  rssMb: number;
  /** Of it, anonymous memory (`RssAnon`: heaps, caches; the rest is mapped files and shared). */
  anonMb: number;
  /** The most it has been resident (`VmHWM`). */
  peakMb: number;
}

/** A `kB` field (`VmRSS`, `VmHWM`, …) of the text of `/proc/<pid>/status`, or null without it. */
export function statusFieldKb(status: string, field: string): number | null {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  return match ? Number(match[1]) : null;
}

/** The memory of process `pid` now, or null when it cannot be read (ended, not Linux). */
export function processMemory(pid: number): ProcessMemory | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const rss = statusFieldKb(status, 'VmRSS');
  const anon = statusFieldKb(status, 'RssAnon');
  const peak = statusFieldKb(status, 'VmHWM');
  return rss === null || anon === null || peak === null
    ? null
    : { rssMb: rss / 1024, anonMb: anon / 1024, peakMb: peak / 1024 };
}
