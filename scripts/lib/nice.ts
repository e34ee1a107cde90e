import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * `command` (program and arguments) run at scheduling priority `nice` through coreutils' `nice`,
 * so that every thread of the process and every process it starts has that priority (0: as is).
 */
export function withNice(nice: number, command: readonly string[]): string[] {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19)
    throw new RangeError(`nice must be a whole number from 0 to 19, not ${nice}`);
  return nice === 0 ? [...command] : ['nice', '-n', String(nice), ...command];
}

/**
 * Sets the scheduling priority of every thread of this process — Linux keeps one per thread, and
 * `os.setPriority` on the process's id changes its main thread alone; threads started later take
 * the priority of the thread that starts them. Returns the main thread's priority before. Raising
 * a priority (a lower number) needs privileges: without them it throws (`EACCES`).
 */
export function setOwnThreadsNice(nice: number): number {
  if (!Number.isInteger(nice) || nice < -20 || nice > 19)
    throw new RangeError(`nice must be a whole number from -20 to 19, not ${nice}`);
  const before = getPriority(0);
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      setPriority(Number(tid), nice);
    } catch (error) {
      // A thread that ended since the listing.
      if ((error as { info?: { code?: string } }).info?.code !== 'ESRCH') throw error;
    }
  }
  return before;
}
