import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  cpuOfStat,
  descendantsOf,
  groupOfStat,
  listProcesses,
  processesOf,
  treeCpuSeconds,
  type ProcessInfo,
} from './processes.ts';

describe('groupOfStat', () => {
  it('reads the process group after a command name with spaces and parentheses', () => {
    expect(groupOfStat('4242 (node) S 4200 4210 4200 0 -1 4194560 1 0')).toBe(4210);
    expect(groupOfStat('77 (my (odd) name) R 1 77 77 0 -1')).toBe(77);
  });

  it('answers null for what is not a stat line', () => {
    expect(groupOfStat('')).toBeNull();
    expect(groupOfStat('no parentheses here')).toBeNull();
  });
});

describe('processesOf', () => {
  const run = '/tmp/livedesk-readme-x/livedesk';
  const all: ProcessInfo[] = [
    { pid: 10, group: 10, command: 'npm start', cwd: run },
    { pid: 11, group: 10, command: 'node scripts/start.ts', cwd: run },
    { pid: 12, group: 12, command: `node ${run}/emulator/src/main.ts`, cwd: '/' },
    { pid: 13, group: 13, command: 'podman system service', cwd: `${run}-other` },
    { pid: 14, group: 14, command: 'bash', cwd: `${run}/scripts` },
    { pid: 99, group: 10, command: 'the check itself', cwd: run },
  ];

  it('finds the group, and strays that work in or name the folder', () => {
    expect(processesOf(all, 10, run, 99).map((info) => info.pid)).toEqual([10, 11, 12, 14]);
  });

  it('finds nothing of a group and folder no process has', () => {
    expect(processesOf(all, 4242, '/nowhere', 99)).toEqual([]);
  });
});

describe('listProcesses', () => {
  it('sees this process with its group and working directory', () => {
    const self = listProcesses().find((info) => info.pid === process.pid);
    expect(self).toMatchObject({ cwd: process.cwd() });
    expect(self!.group).toBeGreaterThan(0);
    expect(self!.command).toContain('node');
  });
});

describe('cpuOfStat', () => {
  it('reads the parent and the CPU ticks of the process and its waited-for children', () => {
    const stat =
      '4242 (node (x)) S 4200 4210 4200 0 -1 4194560 1 0 0 0 350 40 7 3 20 0 11 0 100 0 0';
    expect(cpuOfStat(stat)).toEqual({ parent: 4200, ticks: 400 });
  });

  it('answers null for what is not a stat line', () => {
    expect(cpuOfStat('')).toBeNull();
    expect(cpuOfStat('1 (x) S 0')).toBeNull();
  });
});

describe('treeCpuSeconds', () => {
  it('counts this process', () => {
    expect(treeCpuSeconds(process.pid)).toBeGreaterThan(0);
    expect(treeCpuSeconds(2 ** 30)).toBe(0);
  });
});

describe('descendantsOf', () => {
  it('finds a child this process started, and nothing under a process that is not there', async () => {
    const child = spawn('sleep', ['30']);
    try {
      expect(descendantsOf(process.pid)).toContain(child.pid);
      expect(descendantsOf(2 ** 30)).toEqual([]);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});

describe('stopDescendantsOnSignal', () => {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('on SIGTERM stops what the process started, then exits with 143', async () => {
    const script = `
      import { spawn } from 'node:child_process';
      import { stopDescendantsOnSignal } from ${JSON.stringify(new URL('./processes.ts', import.meta.url).pathname)};
      stopDescendantsOnSignal();
      const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
      console.log(sleeper.pid);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
    const sleeper = Number(line.toString().trim());
    try {
      expect(alive(sleeper)).toBe(true);
      parent.kill('SIGTERM');
      const [code] = (await once(parent, 'exit')) as [number | null];
      expect(code).toBe(143);
      for (let i = 0; i < 100 && alive(sleeper); i++) await new Promise((r) => setTimeout(r, 50));
      expect(alive(sleeper)).toBe(false);
    } finally {
      if (alive(sleeper)) process.kill(sleeper, 'SIGKILL');
    }
  });
});
