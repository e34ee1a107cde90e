import type { StagedWrite } from '../../functions/_shared/order-writes.ts';

/** Commits operations in one transaction: true, or false when refused for a conflict (409). */
export type CommitOperations = (operations: readonly StagedWrite[]) => Promise<boolean>;

/** Appwrite's `APP_LIMIT_DATABASE_TRANSACTION`: operations one transaction may hold. */
export const TRANSACTION_OPERATIONS = 100;

interface Pending {
  operations: readonly StagedWrite[];
  resolve: (committed: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Puts the transactions asked for in the same turn of the event loop into one (up to
 * {@link TRANSACTION_OPERATIONS} operations): three requests for them all instead of three each.
 * Every transaction keeps its own outcome: when a shared one is refused or fails, each of its
 * parts is committed again on its own, so a conflict or an error is answered to the part it
 * belongs to and the others land. The parts must touch different documents.
 */
export class TransactionBatcher {
  readonly #commit: CommitOperations;
  readonly #limit: number;
  #queue: Pending[] = [];
  #scheduled = false;
  /** Transactions that ended (committed or refused), the parts they held, shared ones split. */
  readonly counts = { transactions: 0, parts: 0, split: 0 };

  constructor(commit: CommitOperations, limit = TRANSACTION_OPERATIONS) {
    this.#commit = commit;
    this.#limit = limit;
  }

  /** Commits `operations` in a transaction, shared with others asked for in this turn. */
  commit(operations: readonly StagedWrite[]): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ operations, resolve, reject });
      if (this.#scheduled) return;
      this.#scheduled = true;
      setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const queue = this.#queue;
    this.#queue = [];
    this.#scheduled = false;
    let batch: Pending[] = [];
    let size = 0;
    for (const pending of queue) {
      if (batch.length > 0 && size + pending.operations.length > this.#limit) {
        void this.#send(batch);
        batch = [];
        size = 0;
      }
      batch.push(pending);
      size += pending.operations.length;
    }
    if (batch.length > 0) void this.#send(batch);
  }

  async #send(batch: readonly Pending[]): Promise<void> {
    let committed: boolean;
    try {
      committed = await this.#commit(batch.flatMap((pending) => pending.operations));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      committed = false;
    }
    if (committed || batch.length === 1) {
      this.counts.transactions++;
      this.counts.parts += batch.length;
      for (const pending of batch) pending.resolve(committed);
      return;
    }
    this.counts.split++;
    await Promise.all(batch.map((pending) => this.#send([pending])));
  }
}
