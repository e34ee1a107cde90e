import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { encodeSnapshot, readPersisted, SNAPSHOT_VERSION } from '../sync/persist.ts';
import { makeOrder } from '../sync/testing/orders.ts';
import { Prng } from '../sync/testing/prng.ts';
import { idbSnapshots } from './idb-snapshots.ts';
import type { WriterReply, WriterRequest } from './idb-writes.ts';

const rng = new Prng(5);
const orders = Array.from({ length: 5_000 }, (_, i) =>
  Object.freeze(makeOrder(rng, { number: i + 1, createdAt: 2_000_000 + i, status: 'paid' })),
);

/** The worker's module, loaded with a `self` that records its replies. */
async function startWorker() {
  const replies: WriterReply[] = [];
  const scope: {
    onmessage: ((event: { data: WriterRequest }) => void) | null;
    postMessage: (reply: WriterReply) => void;
  } = { onmessage: null, postMessage: (reply) => replies.push(reply) };
  vi.stubGlobal('self', scope);
  vi.resetModules();
  await import('./idb-writer.worker.ts');
  vi.unstubAllGlobals();
  const send = (request: WriterRequest) => scope.onmessage!({ data: request });
  const reply = (id: number) =>
    vi.waitUntil(() => replies.find((r) => r.id === id), { timeout: 5_000 });
  return { send, reply };
}

describe('the snapshot writer worker', () => {
  it('puts a write sent segment by segment in one transaction, then deletes and clears in order', async () => {
    const { send, reply } = await startWorker();
    const { header, segments } = encodeSnapshot({ savedAt: 4, watermark: 4, orders });
    expect(segments.size).toBeGreaterThan(1);
    send({
      id: 1,
      op: 'begin',
      key: 'orders:w:u1',
      write: { header, replace: true, urgent: false },
    });
    for (const [chunk, segment] of segments) send({ id: 1, op: 'segment', chunk, segment });
    send({ id: 1, op: 'commit' });
    expect(await reply(1)).toEqual({ id: 1, error: null });
    const storage = idbSnapshots();
    const kept = readPersisted(await storage.get('orders:w:u1'), SNAPSHOT_VERSION);
    expect(kept?.orders.toArray().map((order) => order.id)).toEqual(orders.map((o) => o.id));

    send({ id: 2, op: 'commit' });
    expect((await reply(2)).error).toMatch(/No write begun/);
    send({ id: 3, op: 'delete', key: 'orders:w:u1' });
    send({ id: 4, op: 'clear' });
    expect(await reply(4)).toEqual({ id: 4, error: null });
    expect(await storage.get('orders:w:u1')).toBeUndefined();
  });
});
