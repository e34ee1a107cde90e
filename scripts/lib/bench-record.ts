import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';

const BENCHMARKS = join(import.meta.dirname, '../../docs/benchmarks.md');

/** The CPU model as /proc/cpuinfo names it (Node's own reading where there is none). */
export function cpuModel(): string {
  try {
    const line = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (line) return line[1]!.trim();
  } catch {
    // Not Linux.
  }
  return cpus()[0]?.model.trim() ?? 'unknown CPU';
}

/** `nproc 2 · <CPU model> · Node v24…`: the machine line printed beside every figure. */
export function machineLine(): string {
  return `nproc ${cpus().length} · ${cpuModel()} · Node ${process.version}`;
}

/**
 * `text` (a benchmarks page) with `entry` added at the end of its `## <heading>` section; a
 * missing section is added at the end of the page, opened by `intro`.
 */
export function withEntry(text: string, heading: string, entry: string, intro = ''): string {
  const start = text.search(new RegExp(`^## ${heading}$`, 'm'));
  if (start < 0) {
    const opening = `## ${heading}\n${intro ? `\n${intro.trim()}\n` : ''}`;
    return `${text.trimEnd()}\n\n${opening}\n${entry.trim()}\n`;
  }
  const next = text.slice(start + 1).search(/^## /m);
  const end = next < 0 ? text.length : start + 1 + next;
  const rest = end < text.length ? `\n${text.slice(end)}` : '';
  return `${text.slice(0, end).trimEnd()}\n\n${entry.trim()}\n${rest}`;
}

/** Adds `entry` at the end of the `## <heading>` section of docs/benchmarks.md. */
export function recordEntry(heading: string, entry: string, intro = ''): void {
  const text = existsSync(BENCHMARKS) ? readFileSync(BENCHMARKS, 'utf8') : '# Benchmarks\n';
  writeFileSync(BENCHMARKS, withEntry(text, heading, entry, intro));
  console.log(`recorded in docs/benchmarks.md (${heading})`);
}
