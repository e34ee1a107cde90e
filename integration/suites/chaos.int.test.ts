import { Functions as WebFunctions, ID } from 'appwrite';
import { Databases, Query, Teams } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderDocument, OrderDocumentData } from '../../domain/order.ts';
import { auditOrders } from '../../functions/_shared/order-audit.ts';
import { commitNewOrder } from '../../functions/_shared/order-writes.ts';
import { repairSince } from '../../functions/repair-orders/src/main.ts';
import { Provisioner } from '../../scripts/lib/provisioner.ts';
import { schema } from '../../scripts/schema.ts';
import { installBrowserGlobals } from '../support/browser.ts';
import { loadSize } from '../support/load-size.ts';
import { backend, serverClient } from '../support/clients.ts';
import { allDocuments } from '../support/databases.ts';
import { orderData } from '../support/desk.ts';
import { startOwnBackend } from '../support/own-backend.ts';
import { createWebUser, type WebUser } from '../support/realtime.ts';

installBrowserGlobals();

// Chaos, bounded and seeded: several staff add and remove notes and move orders through the
// functions while the backend is killed with SIGKILL and restarted at random moments: up to 20
// rounds within a two-minute budget (40 s off the local target; at least 5 — a restarted container on a busy machine takes
// seconds, and the bound only catches a hang). Afterwards the invariant checker (domain/order-invariants.ts) finds no drift — without the
// repairer — and every note a function acknowledged is there.

const SEED = 17;
const ROUNDS = 20;
const MIN_ROUNDS = 5;
const KILL_PHASE_MS = loadSize(120_000, { minimum: 40_000 });
const ORDERS = 8;
const WORKERS = 6;

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('chaos: writes through the functions while the backend is killed', () => {
  it(`keeps every invariant across ${MIN_ROUNDS}–${ROUNDS} kill -9 rounds (seed ${SEED})`, async (context) => {
    await using own = await startOwnBackend();
    if (!own) return context.skip(`the ${backend().kind} target does not start a backend per test`);
    const admin = serverClient(own);
    await new Provisioner(admin).apply(schema);
    const staff: WebUser[] = [];
    for (const name of ['Ana Chaos', 'Ben Chaos', 'Cy Chaos', 'Mia Chaos']) {
      const user = await createWebUser(name, own);
      await new Teams(admin).createMembership({
        teamId: DESK_TEAM_ID,
        roles: [name.startsWith('Mia') ? 'manager' : 'staff'],
        userId: user.userId,
      });
      staff.push(user);
    }
    const orderIds: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const orderId = ID.unique();
      await commitNewOrder(
        admin,
        { orderId, data: { ...orderData(), noteCount: 0 } as OrderDocumentData, permissions: [] },
        { kind: 'created', data: {} },
        { id: null, name: null },
        Date.now(),
      );
      orderIds.push(orderId);
    }
    const random = prng(SEED);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const acknowledged = {
      notes: new Map<string, string>(),
      removed: new Set<string>(),
      actions: 0,
    };
    const databases = new Databases(admin);
    let stop = false;

    const call = async (person: WebUser, functionId: string, body: object) => {
      const execution = await new WebFunctions(person.client).createExecution({
        functionId,
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      return {
        status: execution.responseStatusCode,
        body: JSON.parse(execution.responseBody || '{}') as Record<string, unknown>,
      };
    };

    const worker = async (index: number) => {
      const person = staff[index % staff.length]!;
      while (!stop) {
        try {
          const roll = random();
          const orderId = pick(orderIds);
          if (roll < 0.6) {
            const noteId = ID.unique();
            const answer = await call(person, FUNCTIONS.noteAction, {
              action: 'add',
              noteId,
              orderId,
              body: `Chaos ${noteId}`,
            });
            if (answer.status === 200) acknowledged.notes.set(noteId, orderId);
          } else if (roll < 0.75 && acknowledged.notes.size > 0) {
            const noteId = pick([...acknowledged.notes.keys()]);
            const answer = await call(staff[3]!, FUNCTIONS.noteAction, {
              action: 'remove',
              noteId,
            });
            if (answer.status === 200) acknowledged.removed.add(noteId);
          } else {
            const order = (await databases.getDocument({
              databaseId: DATABASE_ID,
              collectionId: COLLECTIONS.orders,
              documentId: orderId,
            })) as unknown as OrderDocument;
            const action = pick(['claim', 'unclaim', 'start', 'ready']);
            const answer = await call(person, FUNCTIONS.orderAction, {
              orderId,
              action,
              expectedRev: order.rev,
            });
            if (answer.status === 200) acknowledged.actions++;
          }
        } catch {
          // The backend is down: this write was not acknowledged.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };

    const workers = Array.from({ length: WORKERS }, (_, i) => worker(i));
    /** Until the function runtimes answer again after a restart (they start cold). */
    const warm = async () => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const answer = await call(staff[0]!, FUNCTIONS.noteAction, { action: 'ping' }).catch(
          () => null,
        );
        if (answer?.status === 400) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    await warm();
    const killPhaseEnds = Date.now() + KILL_PHASE_MS;
    let rounds = 0;
    while (rounds < ROUNDS && (rounds < MIN_ROUNDS || Date.now() < killPhaseEnds)) {
      await new Promise((resolve) => setTimeout(resolve, 1000 + random() * 2000));
      await own.crashAndRestart();
      await warm();
      rounds++;
    }
    stop = true;
    await Promise.all(workers);

    const { documents } = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      queries: [Query.equal('$id', orderIds), Query.limit(ORDERS)],
    });
    const drift = await auditOrders(admin, documents as unknown as OrderDocument[]);
    const notes = await allDocuments(databases, DATABASE_ID, COLLECTIONS.notes);
    const stored = new Map(notes.map((note) => [note.$id, note]));
    const lost = [...acknowledged.notes.keys()].filter((id) => !stored.has(id));
    const unremoved = [...acknowledged.removed].filter((id) => stored.get(id)?.deleted !== true);
    console.log(
      `[chaos] ${rounds} rounds of kill -9 (seed ${SEED}): acknowledged ${acknowledged.notes.size} notes, ${acknowledged.removed.size} removals, ${acknowledged.actions} order actions; notes stored ${notes.length}; drift found ${drift.length}; acknowledged but lost ${lost.length + unremoved.length}`,
    );
    expect(drift).toEqual([]);
    // The repairer, looking at every change of the run, finds nothing either.
    const repairer = await repairSince(admin, 0, { repair: false, untilMs: Date.now() + 1000 });
    expect(repairer.drift).toEqual([]);
    expect(repairer.checked).toBeGreaterThanOrEqual(ORDERS);
    expect(lost).toEqual([]);
    expect(unremoved).toEqual([]);
    expect(acknowledged.notes.size).toBeGreaterThan(0);
  }, 900_000);
});
