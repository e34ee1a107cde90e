/**
 * `command` (program and arguments) run at scheduling priority `nice` through coreutils' `nice`,
 * so that every thread of the process and every process it starts has that priority (0: as is).
 */
export function withNice(nice: number, command: readonly string[]): string[] {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19)
    throw new RangeError(`nice must be a whole number from 0 to 19, not ${nice}`);
  return nice === 0 ? [...command] : ['nice', '-n', String(nice), ...command];
}
