/** A progress bar on stderr (redrawn in place on a terminal, a line every few seconds otherwise). */
export class ProgressBar {
  private readonly label: string;
  private readonly total: number;
  private readonly startedAt = Date.now();
  private lastPrint = 0;
  private done = 0;

  constructor(label: string, total: number) {
    this.label = label;
    this.total = Math.max(total, 1);
  }

  tick(count = 1): void {
    this.done += count;
    const now = Date.now();
    const interactive = process.stderr.isTTY;
    if (this.done < this.total && now - this.lastPrint < (interactive ? 100 : 3_000)) return;
    this.lastPrint = now;
    const ratio = Math.min(this.done / this.total, 1);
    const width = 30;
    const filled = Math.round(ratio * width);
    const seconds = (now - this.startedAt) / 1000;
    const rate = seconds > 0 ? Math.round(this.done / seconds) : 0;
    const line = `${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total} (${Math.round(ratio * 100)}%, ${rate}/s)`;
    if (interactive) process.stderr.write(`\r${line}${this.done >= this.total ? '\n' : ''}`);
    else process.stderr.write(`${line}\n`);
  }
}
