import { Random } from './random.ts';
import { median } from './stats.ts';

/**
 * A fixed single-threaded JavaScript workload timed on this machine, printed beside a
 * benchmark's figures: the same code measured on two days can differ by 2–3× on a shared host
 * at similar load averages, and the anchor tells a slower machine from a slower product.
 */
export interface CpuAnchor {
  /** The median time of one workload (ms): lower is a faster machine. */
  medianMs: number;
  runs: number;
  /** The workload's result: the same on every machine (the check that it ran in full). */
  checksum: number;
}

/** Strings the workload sorts: about what the desk's text sorts and searches handle. */
const STRINGS = 60_000;
/** Records the workload encodes and decodes as JSON. */
const RECORDS = 20_000;

/**
 * One run: 60,000 seeded strings sorted with `localeCompare` and 20,000 records through
 * `JSON.stringify`/`JSON.parse`; returns a checksum of the sorted order and the decoded totals.
 */
export function anchorWorkload(): number {
  const random = new Random(20_261_130);
  const names = Array.from(
    { length: STRINGS },
    () => `${random.pick(['Ana', 'Ben', 'Zoë', 'Ñora', 'Omar'])} ${random.int(0, 999_999)}`,
  );
  names.sort((a, b) => a.localeCompare(b));
  let checksum = 0;
  for (let i = 0; i < names.length; i += 97)
    checksum = (Math.imul(checksum, 31) + names[i]!.charCodeAt(names[i]!.length - 1)) >>> 0;
  const records = Array.from({ length: RECORDS }, (_, i) => ({
    id: `order-${i}`,
    totalCents: random.int(100, 99_999),
    items: [random.int(1, 3), random.int(1, 3)],
  }));
  const decoded = JSON.parse(JSON.stringify(records)) as typeof records;
  for (const record of decoded) checksum = (checksum + record.totalCents + record.items[0]!) >>> 0;
  return checksum;
}

/** Times {@link anchorWorkload} `runs` times (after one untimed run) and gives the median. */
export function measureCpuAnchor(runs = 5, now = () => performance.now()): CpuAnchor {
  const checksum = anchorWorkload();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = now();
    if (anchorWorkload() !== checksum) throw new Error('the CPU anchor gave another result');
    times.push(now() - started);
  }
  return { medianMs: Math.round(median(times) * 10) / 10, runs, checksum };
}

/** The anchor as printed beside a run. */
export function describeCpuAnchor(anchor: CpuAnchor): string {
  return `CPU anchor ${anchor.medianMs.toFixed(1)} ms (median of ${anchor.runs} runs of a fixed JS workload; lower is faster)`;
}
