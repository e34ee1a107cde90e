import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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
