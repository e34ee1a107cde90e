import { describe, expect, it } from 'vitest';
import type { DocumentMeta } from '../../domain/schema.ts';
import { selectNotes } from '../selectors/details.ts';
import { selectConfirmedMembers, selectViewers } from '../selectors/people.ts';
import type { SyncedCollection } from '../records/changes.ts';
import { createHarness, settle, type Harness } from './testing/harness.ts';
import { makeOrder, orderDocument } from './testing/orders.ts';

/** A membership of the desk team as the Teams API answers it. */
function membership(id: string, name: string, roles: string[], confirm = true) {
  return {
    teamId: 'desk',
    userId: `u-${name.toLowerCase()}`,
    userName: name,
    userEmail: `${name.toLowerCase()}@livedesk.test`,
    roles,
    confirm,
    $id: id,
  };
}

/** A presence as Appwrite answers it: who, and what they look at in its metadata. */
function presence(user: string, orderId: string | null) {
  return {
    userId: `u-${user.toLowerCase()}`,
    status: orderId ? 'viewing' : 'online',
    metadata: { orderId, name: user },
  };
}

/** A document as the backend holds it before the client starts. */
const seedDoc = (h: Harness, fields: { $id: string } & Record<string, unknown>): DocumentMeta => ({
  $createdAt: new Date(h.clock.now - 60_000).toISOString(),
  $updatedAt: new Date(h.clock.now - 60_000).toISOString(),
  ...fields,
});

/** Records the sets the engine lists, and with which queries. */
function recordReads(h: Harness): { collection: SyncedCollection; queries: readonly string[] }[] {
  const reads: { collection: SyncedCollection; queries: readonly string[] }[] = [];
  const list = h.server.list.bind(h.server);
  h.server.list = (collection, queries) => {
    reads.push({ collection, queries });
    return list(collection, queries);
  };
  return reads;
}

/** Writes while the subscription is down: their events are lost (Appwrite has no replay). */
async function duringGap(h: Harness, writes: () => void) {
  await h.advance(1_000);
  h.server.disconnect();
  await h.advance(200);
  writes();
  h.server.commitDue();
  expect(h.server.inFlight).toHaveLength(0);
  h.scheduler.runFrame();
}

async function reconnect(h: Harness) {
  await h.advance(1_000);
  expect(await h.reconnect()).toEqual(['resyncing', 'live']);
}

describe('presence', () => {
  it('is loaded whole, kept live, and read again whole after a gap (deletions included)', async () => {
    const h = createHarness();
    h.server.seed('presence', [
      seedDoc(h, { $id: 'p-ben', ...presence('Ben', 'o1') }),
      seedDoc(h, { $id: 'p-ana', ...presence('Ana', 'o1') }),
    ]);
    const reads = recordReads(h);
    await h.startLive();
    const viewers = () => selectViewers(h.store.getState(), 'o1', 'u-ana').map((v) => v.name);
    // The signed-in member is not among the viewers.
    expect(viewers()).toEqual(['Ben']);

    h.server.write('presence', 'create', 'p-cleo', presence('Cleo', 'o1'));
    h.server.commitDue();
    await h.drain();
    expect(viewers()).toEqual(['Ben', 'Cleo']);

    await duringGap(h, () => {
      // Ben's socket closed (Appwrite deletes the presence), Cleo moved on, Dan came.
      h.server.write('presence', 'delete', 'p-ben');
      h.server.write('presence', 'update', 'p-cleo', presence('Cleo', null));
      h.server.write('presence', 'create', 'p-dan', presence('Dan', 'o1'));
    });
    expect(viewers()).toEqual(['Ben', 'Cleo']);
    reads.length = 0;
    await reconnect(h);
    expect(viewers()).toEqual(['Dan']);
    expect(h.store.getState().presence.size).toBe(h.server.documents('presence').length);
    // Read again whole (paged by offset): a delta read by `$updatedAt` cannot see a deletion.
    const read = reads.find((r) => r.collection === 'presence')!;
    expect(read.queries.some((q) => q.includes('"offset"'))).toBe(true);
    expect(read.queries.some((q) => q.includes('$updatedAt'))).toBe(false);
  });
});

describe('members', () => {
  it('are loaded whole, kept live, and read again whole after a gap', async () => {
    const h = createHarness();
    h.server.seed('members', [
      seedDoc(h, membership('m-ana', 'Ana', ['owner'])),
      seedDoc(h, membership('m-ben', 'Ben', ['staff'])),
    ]);
    await h.startLive();
    const names = () => h.store.getState().memberList.map((m) => `${m.name}:${m.role}`);
    expect(names()).toEqual(['Ana:owner', 'Ben:staff']);

    h.server.write('members', 'update', 'm-ben', { roles: ['manager'] });
    h.server.commitDue();
    await h.drain();
    expect(names()).toEqual(['Ana:owner', 'Ben:manager']);

    await duringGap(h, () => {
      h.server.write('members', 'delete', 'm-ben');
      h.server.write('members', 'create', 'm-cleo', membership('m-cleo', 'Cleo', ['staff'], false));
    });
    expect(names()).toEqual(['Ana:owner', 'Ben:manager']);
    await reconnect(h);
    expect(names()).toEqual(['Ana:owner', 'Cleo:staff']);
    expect(selectConfirmedMembers(h.store.getState()).map((m) => m.name)).toEqual(['Ana']);
  });

  it('ignores memberships of other teams', async () => {
    const h = createHarness();
    await h.startLive();
    h.server.write('members', 'create', 'm-x', {
      ...membership('m-x', 'Xan', ['owner']),
      teamId: 'other',
    });
    h.server.commitDue();
    await h.drain();
    expect(h.store.getState().members.size).toBe(0);
  });
});

describe('products', () => {
  it('are loaded whole, kept live, and caught up by a delta read after a gap', async () => {
    const h = createHarness();
    const product = (name: string, sortOrder: number) => ({
      name,
      description: '',
      priceCents: 380,
      currency: 'eur',
      active: true,
      imageFileId: null,
      sortOrder,
    });
    h.server.seed('products', [seedDoc(h, { $id: 'p1', ...product('Tea', 2) })]);
    const reads = recordReads(h);
    await h.startLive();
    const list = () => h.store.getState().productList.map((p) => `${p.name}${p.active ? '' : '×'}`);
    expect(list()).toEqual(['Tea']);

    await duringGap(h, () => {
      h.server.write('products', 'create', 'p2', product('Latte', 1));
      h.server.write('products', 'update', 'p1', { active: false });
    });
    expect(list()).toEqual(['Tea']);
    reads.length = 0;
    await reconnect(h);
    expect(list()).toEqual(['Latte', 'Tea×']);
    expect(
      reads.find((r) => r.collection === 'products')!.queries.some((q) => q.includes('$updatedAt')),
    ).toBe(true);
  });
});

describe('notes', () => {
  it('of an order the drawer shows are loaded, kept live and read again after a gap', async () => {
    const h = createHarness();
    h.server.seed('orders', [
      orderDocument(
        makeOrder(h.rng, { id: 'o1', number: 1, createdAt: h.clock.now - 60_000, status: 'paid' }),
      ),
    ]);
    const note = (body: string) => ({
      orderId: 'o1',
      authorId: 'u-ben',
      authorName: 'Ben',
      body,
      deleted: false,
    });
    h.server.seed('notes', [seedDoc(h, { $id: 'n1', ...note('first') })]);
    await h.startLive();
    const release = h.store.getState().loadOrderDetail('o1');
    await h.drain();
    const bodies = () => selectNotes(h.store.getState(), 'o1').map((n) => n.body);
    expect(h.store.getState().details.o1!.status).toBe('ready');
    expect(bodies()).toEqual(['first']);

    await h.advance(10);
    h.server.write('notes', 'create', 'n2', note('second'));
    h.server.commitDue();
    await h.drain();
    expect(bodies()).toEqual(['first', 'second']);

    await duringGap(h, () => {
      h.server.write('notes', 'create', 'n3', note('third'));
      h.server.write('notes', 'update', 'n1', { deleted: true });
    });
    expect(bodies()).toEqual(['first', 'second']);
    await reconnect(h);
    expect(bodies()).toEqual(['second', 'third']);
    release();
    expect(h.store.getState().notes.size).toBe(0);
  });
});

describe('errors', () => {
  it('a drawer on an order the backend does not have says so', async () => {
    const h = createHarness();
    await h.startLive();
    h.store.getState().loadOrderDetail('nope');
    await h.drain();
    expect(h.store.getState().details.nope).toMatchObject({ status: 'ready', missing: true });
  });

  it('a failed detail read is kept as a typed error and can be retried', async () => {
    const h = createHarness();
    h.server.seed('orders', [
      orderDocument(
        makeOrder(h.rng, { id: 'o1', number: 1, createdAt: h.clock.now - 60_000, status: 'paid' }),
      ),
    ]);
    await h.startLive();
    h.store.getState().loadOrderDetail('o1');
    await settle();
    // The whole order first, then its notes: the notes read fails.
    while (h.server.reads.length && !h.server.reads[0]!.queries.some((q) => q.includes('orderId')))
      h.server.answer();
    await settle();
    h.server.fail();
    await settle();
    expect(h.store.getState().details.o1).toMatchObject({
      status: 'error',
      error: { code: 'OFFLINE' },
    });
    h.store.getState().retryOrderDetail('o1');
    await h.drain();
    expect(h.store.getState().details.o1!.status).toBe('ready');
  });
});
