import { describe, expect, it } from 'vitest';
import { processMemory, statusFieldKb } from './process-memory.ts';

describe('statusFieldKb', () => {
  const status = 'Name:\tnode\nVmPeak:\t 1200000 kB\nVmHWM:\t  180224 kB\nVmRSS:\t  150000 kB\n';

  it('reads a kB field by its exact name', () => {
    expect(statusFieldKb(status, 'VmRSS')).toBe(150000);
    expect(statusFieldKb(status, 'VmHWM')).toBe(180224);
  });

  it('is null for a field the text does not have', () => {
    expect(statusFieldKb(status, 'VmSwap')).toBeNull();
    expect(statusFieldKb('', 'VmRSS')).toBeNull();
  });
});

describe('processMemory', () => {
  it('reads this process: resident now, of it anonymous, never above its peak', () => {
    const memory = processMemory(process.pid)!;
    expect(memory.rssMb).toBeGreaterThan(1);
    expect(memory.anonMb).toBeGreaterThan(0);
    expect(memory.anonMb).toBeLessThanOrEqual(memory.rssMb);
    expect(memory.peakMb).toBeGreaterThanOrEqual(memory.rssMb);
  });

  it('is null for a process that does not exist', () => {
    expect(processMemory(2 ** 22 + 1)).toBeNull();
  });
});
