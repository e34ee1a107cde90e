import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU counters (`getconf CLK_TCK`: 100 on Linux). */
export const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) from the text of `/proc/<pid>/stat`: fields 14 and 15 counted
 * after the command name, which may itself hold spaces and parentheses.
 */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state): utime is field 14, stime field 15
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU time (user + system, ms) process `pid` has used so far (10 ms resolution). */
export function processCpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** What the DevTools protocol's `SystemInfo.getProcessInfo` answers (`cpuTime` in seconds). */
export interface ProcessInfo {
  processInfo: { type: string; id: number; cpuTime: number }[];
}

/**
 * CPU time (ms) of a whole Chromium — browser, renderers, GPU, network and other services —
 * as the sum over its processes of `SystemInfo.getProcessInfo` (a browser-level CDP command).
 */
export async function chromiumCpuMs(getProcessInfo: () => Promise<ProcessInfo>): Promise<number> {
  const { processInfo } = await getProcessInfo();
  return processInfo.reduce((sum, process) => sum + process.cpuTime * 1000, 0);
}

/** CPU time (user + system, ms) of this Node process so far. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
