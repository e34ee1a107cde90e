/**
 * What the store may have missed in one collection, and from when a delta read must start to
 * recover it.
 *
 * A change can be missed only while the subscription is not active, and only if it happened
 * after we last read that document. The watermark (the latest `$updatedAt` we have seen) is
 * never later than the moment it was observed, so:
 * - when the subscription drops, every later change has `$updatedAt` ≥ the watermark then;
 * - when we read a page while it is not active, every later change has `$updatedAt` ≥ the
 *   watermark just after that page.
 *
 * `riskFrom` is the minimum of those, and a delta read from `riskFrom − margin` recovers
 * everything missed. The margin covers writes that become visible later than their timestamp,
 * and events that arrive out of order: both must stay within it (a socket delivers in order;
 * the backend's workers may publish a few milliseconds apart). The convergence test checks
 * this with a 2 s visibility lag, 1 s reordering and a 5 s margin.
 */
export class Coverage {
  #watermark: number | null = null;
  #riskFrom: number | null = null;
  /** A server time past when the first read began, for a set read before anything was seen. */
  #readAt: number | null = null;

  /** The latest `$updatedAt` seen (epoch ms), or null. */
  get watermark(): number | null {
    return this.#watermark;
  }

  /** From when changes may have been missed, or null when nothing can have been. */
  get riskFrom(): number | null {
    return this.#riskFrom;
  }

  /** Records that a document with this `$updatedAt` was seen (snapshot, delta or event). */
  observe(updatedAt: number): void {
    if (this.#watermark === null || updatedAt > this.#watermark) this.#watermark = updatedAt;
  }

  #atRisk(from: number): void {
    if (this.#riskFrom === null || from < this.#riskFrom) this.#riskFrom = from;
  }

  /**
   * A page was read (after its documents were observed; none for a read that found nothing);
   * `active`: the subscription was throughout. `floor`: a server time known to be past when the
   * read began, which bounds what may be missed in a set with nothing seen yet. Without either,
   * the read does not count: the reads that follow bound what may be missed.
   */
  pageRead(active: boolean, floor?: number): void {
    const from = this.#watermark ?? this.#readAt ?? floor ?? null;
    if (from === null) return;
    this.#readAt ??= from;
    if (!active) this.#atRisk(from);
  }

  /** The subscription dropped. Before any read nothing can be missed: the first read covers it. */
  closed(): void {
    const from = this.#watermark ?? this.#readAt;
    if (from !== null) this.#atRisk(from);
  }

  /** Starts a recovery: returns where the delta read starts and clears the risk (null: none). */
  take(): number | null {
    const from = this.#riskFrom;
    this.#riskFrom = null;
    return from;
  }

  /** A recovery from `from` failed: the risk stands again. */
  restore(from: number): void {
    this.#atRisk(from);
  }
}
