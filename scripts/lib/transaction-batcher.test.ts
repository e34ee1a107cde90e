import { describe, expect, it } from 'vitest';
import type { StagedWrite } from '../../functions/_shared/order-writes.ts';
import { TransactionBatcher } from './transaction-batcher.ts';

const write = (documentId: string): StagedWrite => ({
  action: 'update',
  collectionId: 'orders',
  documentId,
  data: {},
});

/** A backend double: records each commit's document ids; refuses or fails those named. */
function backend(refused = new Set<string>(), failing = new Set<string>()) {
  const commits: string[][] = [];
  const commit = (operations: readonly StagedWrite[]) => {
    const ids = operations.map((operation) => operation.documentId);
    commits.push(ids);
    if (ids.some((id) => failing.has(id))) return Promise.reject(new Error('bad request'));
    return Promise.resolve(!ids.some((id) => refused.has(id)));
  };
  return { commits, commit };
}

describe('TransactionBatcher', () => {
  it('puts the writes asked for in one turn into one transaction, later ones into another', async () => {
    const { commits, commit } = backend();
    const batcher = new TransactionBatcher(commit);
    const first = await Promise.all([
      batcher.commit([write('a'), write('a.r2')]),
      batcher.commit([write('b'), write('b.r5')]),
    ]);
    const second = await batcher.commit([write('c')]);
    expect(first).toEqual([true, true]);
    expect(second).toBe(true);
    expect(commits).toEqual([['a', 'a.r2', 'b', 'b.r5'], ['c']]);
    expect(batcher.counts).toEqual({ transactions: 2, parts: 3, split: 0 });
  });

  it('never puts more operations in one transaction than the limit', async () => {
    const { commits, commit } = backend();
    const batcher = new TransactionBatcher(commit, 4);
    await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((id) => batcher.commit([write(id), write(`${id}.r1`)])),
    );
    expect(commits.map((ids) => ids.length)).toEqual([4, 4, 2]);
  });

  it('commits each part alone when a shared transaction is refused: only the stale one is refused', async () => {
    const { commits, commit } = backend(new Set(['b']));
    const batcher = new TransactionBatcher(commit);
    const outcomes = await Promise.all(['a', 'b', 'c'].map((id) => batcher.commit([write(id)])));
    expect(outcomes).toEqual([true, false, true]);
    expect(commits).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
    expect(batcher.counts).toEqual({ transactions: 3, parts: 3, split: 1 });
  });

  it('answers an error to the part it belongs to', async () => {
    const { commit } = backend(new Set(), new Set(['b']));
    const batcher = new TransactionBatcher(commit);
    const outcomes = await Promise.allSettled(['a', 'b'].map((id) => batcher.commit([write(id)])));
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: true });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { message: 'bad request' } });
  });

  it('answers a refusal of a transaction of its own at once', async () => {
    const { commits, commit } = backend(new Set(['a']));
    const batcher = new TransactionBatcher(commit);
    expect(await batcher.commit([write('a')])).toBe(false);
    expect(commits).toEqual([['a']]);
  });
});
