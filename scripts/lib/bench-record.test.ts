import { describe, expect, it } from 'vitest';
import { cpuModel, machineLine, withEntry } from './bench-record.ts';

const PAGE = '# Benchmarks\n\n## UI\n\nintro\n\n### run 1\n\n## Store\n\n### run A\n';

describe('withEntry', () => {
  it('adds the entry at the end of its section, before the next one', () => {
    expect(withEntry(PAGE, 'UI', '### run 2')).toBe(
      '# Benchmarks\n\n## UI\n\nintro\n\n### run 1\n\n### run 2\n\n## Store\n\n### run A\n',
    );
  });

  it('adds the entry at the end of the last section', () => {
    expect(withEntry(PAGE, 'Store', '### run B\n')).toBe(`${PAGE}\n### run B\n`);
  });

  it('opens a missing section with its intro at the end of the page', () => {
    expect(withEntry(PAGE, 'Repairer', '### run X', '`npm run bench:repair`')).toBe(
      `${PAGE}\n## Repairer\n\n\`npm run bench:repair\`\n\n### run X\n`,
    );
  });

  it('does not take a longer heading for the one asked for', () => {
    const page = '## Storage\n\n### s\n\n## Store\n\n### a\n';
    expect(withEntry(page, 'Store', '### b')).toBe(
      '## Storage\n\n### s\n\n## Store\n\n### a\n\n### b\n',
    );
  });
});

describe('the machine line', () => {
  it('names the cores, a CPU model and the Node version', () => {
    expect(cpuModel()).not.toBe('');
    expect(machineLine()).toMatch(/^nproc \d+ · .+ · Node v\d+/);
  });
});
