import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { constants } from 'node:os';
import { TICKS_PER_SECOND } from './process-cpu.ts';

/** A running process, as /proc shows it. */
export interface ProcessInfo {
  pid: number;
  /** Its process group. */
  group: number;
  /** Its command line, arguments joined by spaces. */
  command: string;
  /** Its working directory ('' when it cannot be read). */
  cwd: string;
}

/**
 * The process group in the text of `/proc/<pid>/stat` (its 5th field; the 2nd, the command name
 * in parentheses, may itself hold spaces and parentheses), or null when the text is not one.
 */
export function groupOfStat(stat: string): number | null {
  const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const group = Number(afterName[2]);
  return stat.includes(')') && Number.isInteger(group) && group > 0 ? group : null;
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Every process this user can see (Linux /proc; processes that end while read are left out). */
export function listProcesses(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const group = groupOfStat(read(`/proc/${pid}/stat`));
    if (group === null) continue;
    let cwd = '';
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      // gone, or not ours to read
    }
    const command = read(`/proc/${pid}/cmdline`).split('\0').join(' ').trim();
    out.push({ pid, group, command, cwd });
  }
  return out;
}

/**
 * The processes that belong to a run: in process group `group`, or working in or naming
 * `folder` (a process that left the group, e.g. with setsid, still shows where it came from).
 */
export function processesOf(
  processes: readonly ProcessInfo[],
  group: number,
  folder: string,
  except: number = process.pid,
): ProcessInfo[] {
  const inside = (path: string) => path === folder || path.startsWith(`${folder}/`);
  return processes.filter(
    (info) =>
      info.pid !== except &&
      (info.group === group || inside(info.cwd) || info.command.includes(`${folder}/`)),
  );
}

/** A process's parent and the CPU time it and its waited-for children used, in clock ticks. */
export interface ProcessCpu {
  parent: number;
  ticks: number;
}

/**
 * The parent (4th field) and `utime + stime + cutime + cstime` (14th–17th) of a `/proc/<pid>/stat`
 * text, or null when the text is not one.
 */
export function cpuOfStat(stat: string): ProcessCpu | null {
  if (!stat.includes(')')) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the 3rd field (state): the nth field is fields[n - 3].
  const numbers = [1, 11, 12, 13, 14].map((index) => Number(fields[index]));
  if (!numbers.every(Number.isInteger)) return null;
  const [parent, ...times] = numbers as [number, ...number[]];
  return { parent, ticks: times.reduce((sum, value) => sum + value, 0) };
}

/** Every live process's parent and CPU ticks, by pid (Linux /proc). */
function processTable(): Map<number, ProcessCpu> {
  const all = new Map<number, ProcessCpu>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const cpu = cpuOfStat(read(`/proc/${pid}/stat`));
    if (cpu) all.set(pid, cpu);
  }
  return all;
}

/** The pids of `table` that are `root` or descend from it. */
function treeOf(table: ReadonlyMap<number, ProcessCpu>, root: number): number[] {
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid; at !== undefined && at > 0; at = table.get(at)?.parent)
      if (at === root) return true;
    return false;
  };
  return [...table.keys()].filter(inTree);
}

/**
 * CPU seconds (user + system) used so far by process `root` and every live descendant of it
 * (with what their exited children used, once waited for). Linux only; 0 when `root` is gone.
 */
export function treeCpuSeconds(root: number): number {
  const table = processTable();
  const ticks = treeOf(table, root).reduce((sum, pid) => sum + table.get(pid)!.ticks, 0);
  return ticks / TICKS_PER_SECOND;
}

/** The live descendants of process `root` (children, their children, …; not `root`). */
export function descendantsOf(root: number): number[] {
  return treeOf(processTable(), root).filter((pid) => pid !== root);
}

/**
 * Makes SIGINT, SIGTERM and SIGHUP stop what this process started before it ends: SIGTERM to
 * every live descendant (a browser, a backend, a simulator), then exit with 128 + the signal's
 * number. A benchmark stopped on its own (`timeout`, a kill of its pid) otherwise leaves them
 * running, and they load the next one. A terminal's Ctrl-C reaches them anyway.
 */
export function stopDescendantsOnSignal(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.once(signal, () => {
      for (const pid of descendantsOf(process.pid)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // ended meanwhile
        }
      }
      process.exit(128 + constants.signals[signal]);
    });
}
