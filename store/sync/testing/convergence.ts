import {
  orderFromDocument,
  orderToDocumentData,
  OPEN_STATUSES,
  type Order,
  type OrderDocument,
} from '../../../domain/order.ts';
import { memberFromDocument, presenceFromDocument } from '../../records/people.ts';
import { listOrderFromDocument } from '../documents.ts';
import { memorySnapshots, SNAPSHOT_VERSION } from '../persist.ts';
import { viewProblems } from './consistency.ts';
import { ORDER_SORT_KEYS } from '../../views/order-views.ts';
import type { OrderViewHandle } from '../../views/views.ts';
import { ORDER_STATUSES } from '../../../domain/order.ts';
import { createHarness, settle, type Harness } from './harness.ts';
import { advanceOrder, cancelOrder, makeOrder, orderDocument } from './orders.ts';
import { agedOut, TRIM_EVERY_MS } from '../window-trim.ts';
import { HISTORY_DAYS, windowStart } from '../desk-window.ts';

const DAY = 24 * 3600_000;

/** A start from a persisted snapshot kept `days` before (of `version`: default the current). */
export interface WarmStart {
  days: number;
  version?: number;
}

/** What one seeded run did and found. */
export interface ConvergenceReport {
  seed: number;
  steps: number;
  writes: number;
  disconnects: number;
  delivered: number;
  /** Times the drawer opened an order (a whole read). */
  opened: number;
  /** Orders held as the snapshot's list copy at the end. */
  listCopies: number;
  /** Orders of a persisted snapshot deleted on the server while away. */
  deletedAway: number;
  /** Orders the desk held that had aged out of its window by the end (the trim drops them). */
  agedOut: number;
  /** Differences between the store and the server after the final resync (empty: converged). */
  problems: string[];
}

function orderOf(doc: unknown): Order {
  return orderFromDocument(doc as OrderDocument);
}

/**
 * One seeded random run of the sync engine against the model server: snapshot pages, live
 * creates, updates, cancellations and deletes, duplicated and reordered delivery, late copies,
 * reads answered late or failing, and disconnects at random points; then a final reconnect,
 * and a comparison of the store with the server (plus the store's own indexes and metrics with
 * a rebuild from its table).
 *
 * Scope: the store holds orders created in the last 30 days, orders open when the snapshot
 * ran, and every order changed after the engine kept its first snapshot page; an order still
 * held as the snapshot's list copy (never changed since, nor opened: the drawer reads the whole
 * order) must be the list fields of the server's version. Deletes (never done
 * by the product) only happen while the subscription is active and are not cut off by a
 * disconnect, since a delta read cannot see them; the exception is a returning visit, whose
 * snapshot holds 0–3 orders deleted while away: the id sweep after its catch-up removes them,
 * and one still held at the end is reported as resurrected. Members and presences (deleted for
 * good by the backend, at any time, connected or not) must equal the server's exactly.
 */
export async function runConvergence(
  seed: number,
  trace: (line: string) => void = () => {},
  start?: WarmStart,
): Promise<ConvergenceReport> {
  const storage = memorySnapshots();
  const h: Harness = createHarness({
    seed,
    // Every other seed makes its table views and sort columns in slices, run at random points.
    slices: seed % 2 === 1,
    visibilityLagMs: 2_000,
    sync: {
      pageSize: [3, 7, 25][seed % 3]!,
      resyncMarginMs: 5_000,
      activationWaitMs: 2_000,
      ...(start
        ? {
            persist: {
              storage,
              key: 'orders:p:u',
              throttleMs: 5_000,
              onHide: () => () => {},
            },
          }
        : {}),
    },
  });
  const { rng, server, clock } = h;
  const startedAt = clock.now;
  const report: ConvergenceReport = {
    seed,
    steps: 0,
    writes: 0,
    disconnects: 0,
    delivered: 0,
    opened: 0,
    listCopies: 0,
    deletedAway: 0,
    agedOut: 0,
    problems: [],
  };

  // The backend before the client starts.
  const recent = new Set<string>();
  const oldOpen = new Set<string>();
  const touched = new Set<string>();
  let number = 1;
  const seedDocs: OrderDocument[] = [];
  for (let i = rng.int(5, 60); i > 0; i--) {
    const old = rng.chance(0.25);
    const status = rng.pick([
      'pending_payment',
      'paid',
      'preparing',
      'ready',
      'fulfilled',
      'fulfilled',
      'canceled',
    ] as const);
    const order = makeOrder(rng, {
      number: number++,
      createdAt: old
        ? startedAt - rng.int(31, 60) * DAY
        : startedAt - rng.int(2 * 3600_000, 29 * DAY),
      status,
    });
    if (!old) recent.add(order.id);
    else if ((OPEN_STATUSES as readonly string[]).includes(status) || status === 'pending_payment')
      oldOpen.add(order.id);
    seedDocs.push(orderDocument(order));
  }
  server.seed('orders', seedDocs);
  const person = (n: number) => ({ userId: `u${n}`, name: `Person ${n}` });
  const membership = (n: number, role: string) => ({
    teamId: 'desk',
    userId: person(n).userId,
    userName: person(n).name,
    userEmail: `p${n}@livedesk.test`,
    roles: [role],
    confirm: true,
  });
  const presence = (n: number, orderId: string | null) => ({
    userId: person(n).userId,
    status: orderId ? 'viewing' : 'online',
    metadata: { orderId, name: person(n).name },
  });
  let people = 0;
  const stamp = new Date(startedAt - 60_000).toISOString();
  for (let i = rng.int(0, 4); i > 0; i--) {
    people++;
    server.seed('members', [
      { $id: `m${people}`, $createdAt: stamp, $updatedAt: stamp, ...membership(people, 'staff') },
    ]);
    if (rng.chance(0.6))
      server.seed('presence', [
        { $id: `p${people}`, $createdAt: stamp, $updatedAt: stamp, ...presence(people, null) },
      ]);
  }

  /** A member or a presence comes, changes or goes (at any time: connected or not). */
  const writePeople = () => {
    const set = rng.chance(0.5) ? 'members' : 'presence';
    const docs = server.documents(set).filter((doc) => !server.hasPendingWrite(set, doc.$id));
    const roll = rng.next();
    if (roll < 0.35 || docs.length === 0) {
      people++;
      const id = `${set === 'members' ? 'm' : 'p'}${people}`;
      server.write(
        set,
        'create',
        id,
        set === 'members' ? membership(people, 'staff') : presence(people, null),
      );
      trace(`  create ${id}`);
    } else {
      const doc = rng.pick(docs);
      if (roll < 0.6) {
        server.write(set, 'delete', doc.$id);
        trace(`  delete ${doc.$id}`);
      } else if (set === 'members')
        server.write(set, 'update', doc.$id, { roles: [rng.pick(['staff', 'manager'])] });
      else {
        const orders = server.documents('orders');
        const viewing = orders.length && rng.chance(0.7) ? rng.pick(orders).$id : null;
        server.write(set, 'update', doc.$id, {
          status: viewing ? 'viewing' : 'online',
          metadata: { orderId: viewing, name: String(doc.userId) },
        });
      }
    }
  };

  // Old orders are left alone until the engine has kept a first orders page: before that it is
  // not watching yet, and an old order that leaves the scope (open → closed) is simply not loaded.
  let covered = false;
  let lastPeopleWrite = -1;
  /** Orders whose whole document was read on opening: never a list copy after that. */
  const wholeRead = new Set<string>();
  const deletesInFlight = () =>
    server.pendingDeletes > 0 ||
    server.inFlight.some((event) => event.events.some((name) => name.endsWith('.delete')));

  const write = () => {
    // A write to the same document within a millisecond of the last one is stamped alike; the
    // backend's clock moves between writes.
    if (rng.chance(0.2) && clock.now > lastPeopleWrite) {
      lastPeopleWrite = clock.now;
      writePeople();
      report.writes++;
      return;
    }
    const docs = server
      .documents('orders')
      .filter((doc) => !server.hasPendingWrite('orders', doc.$id));
    const eligible = covered ? docs : docs.filter((doc) => recent.has(doc.$id));
    const roll = rng.next();
    if (roll < 0.15 || eligible.length === 0) {
      const order = makeOrder(rng, {
        number: number++,
        createdAt: clock.now,
        status: rng.pick(['pending_payment', 'paid'] as const),
      });
      server.write('orders', 'create', order.id, { ...orderToDocumentData(order) });
      trace(`  create ${order.id}`);
      recent.add(order.id);
      if (covered) touched.add(order.id);
    } else {
      const doc = rng.pick(eligible);
      const current = orderOf(doc);
      if (roll < 0.2 && covered && server.active && recent.has(doc.$id)) {
        server.write('orders', 'delete', doc.$id);
        trace(`  delete ${doc.$id}`);
      } else {
        let next =
          roll < 0.3 ? cancelOrder(current, clock.now) : advanceOrder(rng, current, clock.now);
        // Some writes leave `rev` alone (a field the workflow does not own); the later
        // `$updatedAt` decides then, so they need a clock that moved since the last write.
        if (roll > 0.9 && clock.now > current.updatedAt)
          next = { ...current, noteCount: current.noteCount + 1 };
        server.write('orders', 'update', doc.$id, {
          ...orderToDocumentData({ ...next, updatedAt: clock.now }),
        });
        trace(`  update ${doc.$id} rev ${next.rev}`);
      }
      if (covered) touched.add(doc.$id);
    }
    report.writes++;
  };

  // A returning visit: the snapshot a first visit kept (what it held then, complete up to its
  // watermark), then changes while away (updates, cancellations, new orders), `days` later.
  const kept = new Set<string>();
  if (start) {
    const watermark = Math.max(...seedDocs.map((doc) => Date.parse(doc.$updatedAt)));
    const orders = seedDocs
      .filter((doc) => recent.has(doc.$id) || oldOpen.has(doc.$id))
      .map((doc) => listOrderFromDocument(doc));
    for (const order of orders) kept.add(order.id);
    storage.keep('orders:p:u', {
      version: start.version ?? SNAPSHOT_VERSION,
      savedAt: watermark,
      watermark,
      orders,
    });
    clock.now += start.days * DAY;
    for (let i = rng.int(0, 8); i > 0; i--) {
      const used = start.version === undefined || start.version === SNAPSHOT_VERSION;
      // A cold load holds an old order only while open: leave those alone then.
      const doc = rng.pick(server.documents('orders').filter((d) => used || recent.has(d.$id)));
      const current = orderOf(doc);
      clock.now += rng.int(1, 60_000);
      const next = rng.chance(0.4)
        ? cancelOrder(current, clock.now)
        : advanceOrder(rng, current, clock.now);
      server.write('orders', 'update', doc.$id, {
        ...orderToDocumentData({ ...next, updatedAt: clock.now }),
      });
      // Caught up by the delta read when the snapshot is used (a cold load holds only its scope).
      if (used) touched.add(doc.$id);
    }
    for (let i = rng.int(0, 3); i > 0; i--) {
      const order = makeOrder(rng, { number: number++, createdAt: clock.now, status: 'paid' });
      server.write('orders', 'create', order.id, { ...orderToDocumentData(order) });
      recent.add(order.id);
    }
    // Orders of the snapshot deleted while away (no event reaches anyone): the id sweep that
    // follows the catch-up must remove them, whether in the window or out of it by now.
    const deletable = [...kept].filter((id) => !server.hasPendingWrite('orders', id));
    for (let i = Math.min(rng.int(0, 3), deletable.length); i > 0; i--) {
      const id = deletable.splice(rng.int(0, deletable.length - 1), 1)[0]!;
      server.write('orders', 'delete', id);
      report.deletedAway++;
    }
    server.commitDue(true);
    // Another schema version is discarded: nothing of it is held.
    if (start.version !== undefined && start.version !== SNAPSHOT_VERSION) kept.clear();
  }

  h.store.getState().startSync();
  await settle(1);
  let shownView: OrderViewHandle | null = null;

  const steps = rng.int(120, 260);
  for (let step = 0; step < steps; step++) {
    // The engine shows the first orders page it keeps at once: from then on it is watching.
    covered ||= h.store.getState().orders.size > 0;
    const roll = rng.next();
    trace(
      `t=${clock.now - startedAt} roll=${roll.toFixed(2)} active=${server.active} reads=${server.reads.length} inFlight=${server.inFlight.length} status=${h.store.getState().connection.status} load=${h.store.getState().load.status}`,
    );
    if (roll < 0.3) write();
    else if (roll < 0.45) {
      clock.now += rng.int(1, 1_500);
      server.commitDue();
      h.timers.runDue();
    } else if (roll < 0.62) {
      report.delivered += server.deliver(rng.int(1, 6), { window: 4, duplicate: 0.15 });
    } else if (roll < 0.65) server.deliverStale();
    else if (roll < 0.78) {
      if (server.reads.length) {
        const at = rng.int(0, server.reads.length - 1);
        const read = server.reads[at]!;
        trace(`  read ${read.collectionId} ${read.queries.join(' ')}`);
        if (rng.chance(0.06)) server.fail(at);
        else server.answer(at);
      }
    } else if (roll < 0.88) {
      // Sometimes the drawer opens on an order: its whole document is read.
      const held = h.store.getState().orders.toArray();
      if (held.length && rng.chance(0.1)) {
        const id = rng.pick(held).id;
        trace(`  open ${id}`);
        report.opened++;
        h.store
          .getState()
          .refreshOrder(id)
          .then(
            () => wholeRead.add(id),
            () => {},
          );
      }
      // Sometimes the table switches its sort, filter or search (a view from a sort column, or
      // narrowed from the previous keystroke's view), dropping the one shown before.
      if (rng.chance(0.1)) {
        const sort = rng.pick(ORDER_SORT_KEYS);
        const text = rng.chance(0.5) ? rng.pick(['a', 'an', 'e', '#1', '10', '']) : '';
        const statuses = rng.chance(0.3) ? [rng.pick(ORDER_STATUSES)] : [];
        trace(`  view ${sort} ${text} ${statuses.join()}`);
        const handle = h.store
          .getState()
          .acquireOrderView({ sort, dir: rng.pick(['asc', 'desc'] as const), statuses, text });
        shownView?.release();
        shownView = handle;
      }
      if (h.slices && rng.chance(0.05))
        h.store.getState().prepareSortColumns([rng.pick(ORDER_SORT_KEYS)]);
      if (rng.chance(0.02)) h.store.getState().prepareSearch();
      if (rng.chance(0.05)) h.store.getState().catchUpSortColumns();
      for (let i = rng.int(0, 3); i > 0 && h.slices; i--) h.slices.runNext();
      h.scheduler.runFrame();
    } else if (roll < 0.93) {
      if (server.active && !deletesInFlight()) {
        server.disconnect();
        report.disconnects++;
      }
    } else if (!server.active) server.connect();
    await settle(1);
    report.steps++;
  }

  // Final: everything committed, the subscription back, the engine left to finish.
  if (!server.active) server.connect();
  server.commitDue(true);
  for (let round = 0; round < 400; round++) {
    server.commitDue(true);
    report.delivered += server.deliver(Infinity, { window: 4 });
    while (server.reads.length) server.answer(rng.int(0, server.reads.length - 1));
    h.scheduler.runFrame();
    h.slices?.runAll();
    await settle(2);
    const state = h.store.getState();
    if (
      !server.reads.length &&
      !server.inFlight.length &&
      !h.scheduler.pending &&
      !server.pendingWrites &&
      state.connection.status === 'live' &&
      state.load.status === 'ready' &&
      !state.sweep.running
    )
      break;
    clock.now += 1_000;
    h.timers.runDue();
  }

  // The window trim, once more at the final time: orders may have aged out of the desk's window
  // while the run went on, and a fresh load would not read them.
  clock.now += TRIM_EVERY_MS;
  h.timers.runDue();
  h.slices?.runAll();
  await settle(2);
  const windowFrom = windowStart(clock.now, HISTORY_DAYS);

  // Compare.
  let state = h.store.getState();
  const problems = report.problems;
  for (const [set, table, convert] of [
    ['members', state.members, memberFromDocument],
    ['presence', state.presence, presenceFromDocument],
  ] as const) {
    const want = server
      .documents(set)
      .map((doc) => convert(doc))
      .sort((a, b) => a!.id.localeCompare(b!.id));
    const held = table.toArray().sort((a, b) => a.id.localeCompare(b.id));
    if (JSON.stringify(held) !== JSON.stringify(want))
      problems.push(`${set}: ${JSON.stringify(held)} ≠ ${JSON.stringify(want)}`);
  }
  if (state.connection.status !== 'live') problems.push(`status ${state.connection.status}`);
  const expected = new Map<string, Order>();
  for (const doc of server.documents('orders'))
    if (recent.has(doc.$id) || oldOpen.has(doc.$id) || touched.has(doc.$id) || kept.has(doc.$id)) {
      if (agedOut(orderOf(doc), windowFrom)) report.agedOut++;
      else expected.set(doc.$id, orderOf(doc));
    }
  for (const [id, order] of expected) {
    const held = state.orders.get(id);
    // A list copy (from the snapshot) must be the current version's list fields.
    const want = held?.partial ? listOrderFromDocument(server.get('orders', id)!) : order;
    if (held?.partial) report.listCopies++;
    if (held?.partial && wholeRead.has(id)) problems.push(`list copy after opening ${id}`);
    if (!held) {
      problems.push(`lost ${id}`);
      trace(
        `lost ${id}: created ${order.createdAt - startedAt} updated ${order.updatedAt - startedAt} status ${order.status} recent ${recent.has(id)} oldOpen ${oldOpen.has(id)} touched ${touched.has(id)}`,
      );
    } else if (JSON.stringify(held) !== JSON.stringify(want))
      problems.push(`stale ${id}: rev ${held.rev} (server ${order.rev})`);
  }
  state.orders.forEach((order) => {
    if (!server.get('orders', order.id)) problems.push(`resurrected ${order.id}`);
    else if (!expected.has(order.id)) {
      problems.push(`out of scope ${order.id}`);
      trace(
        `out of scope ${order.id}: created ${order.createdAt - startedAt} updated ${order.updatedAt - startedAt} status ${order.status} oldOpen ${oldOpen.has(order.id)} touched ${touched.has(order.id)}`,
      );
    }
  });
  if (state.orders.size !== expected.size)
    problems.push(`size ${state.orders.size} ≠ ${expected.size}`);

  if (h.slices) {
    h.slices.runAll();
    state = h.store.getState();
    if (Object.keys(state.pendingViews).length)
      problems.push('views still pending after their slices');
  }
  problems.push(...viewProblems(state, clock.now));

  h.store.getState().startSync()();
  return report;
}
