import {
  Account,
  Databases as WebDatabases,
  Functions as WebFunctions,
  ID,
  type Client as WebClient,
} from 'appwrite';
import { Databases, Functions, Teams } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID, DESK_TEAM_ID, FUNCTIONS } from '../../domain/ids.ts';
import { ORDER_STATUSES, type OrderDocument, type OrderStatus } from '../../domain/order.ts';
import { ORDER_ACTIONS, type OrderAction } from '../../domain/order-machine.ts';
import {
  EXPECTED_FOR_MANAGER,
  EXPECTED_FOR_OUTSIDER,
  EXPECTED_FOR_STAFF,
} from '../../domain/testing/expected-actions.ts';
import { installBrowserGlobals, storage } from '../support/browser.ts';
import { backend, beforeAllOnTarget, serverClient, webClient } from '../support/clients.ts';
import { finishedExecution, tickMinute, tickScheduler } from '../support/functions.ts';
import { createWebUser, type WebUser } from '../support/realtime.ts';
import { callFunction } from '../support/desk.ts';
import { expireAll } from '../../functions/expire-pending/src/main.ts';
import { commitOrderChange } from '../../functions/_shared/order-writes.ts';

installBrowserGlobals();

const isLocal = () => ['local', 'container'].includes(backend().kind);

/** What `order-action` answered: the HTTP status and parsed body. */
interface Answer {
  status: number;
  body: Record<string, unknown> & { error?: { code: string; message: string; details?: unknown } };
}

let nextNumber = 100_000 + Math.floor(Math.random() * 800_000_000);

/** An order created with the API key (as the checkout and webhook functions will). */
async function createOrder(
  patch: Partial<Omit<OrderDocument, '$sequence'>> & { $createdAt?: string } = {},
) {
  const databases = new Databases(serverClient());
  const data = {
    number: nextNumber++,
    status: 'paid',
    customerName: 'Cleo Customer',
    customerEmail: 'cleo@example.test',
    items: JSON.stringify([{ productId: 'p1', name: 'Latte', unitPriceCents: 350, qty: 2 }]),
    itemsSummary: '2× Latte',
    subtotalCents: 700,
    totalCents: 700,
    currency: 'eur',
    paymentStatus: 'succeeded',
    rev: 0,
    ...patch,
  };
  return (await databases.createDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: ID.unique(),
    data,
  })) as unknown as OrderDocument;
}

async function readOrder(orderId: string): Promise<OrderDocument> {
  return (await new Databases(serverClient()).getDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.orders,
    documentId: orderId,
  })) as unknown as OrderDocument;
}

async function activity(orderId: string, rev: number): Promise<Record<string, unknown>> {
  return new Databases(serverClient()).getDocument({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.activity,
    documentId: `${orderId}.r${rev}`,
  });
}

/** Calls `order-action` synchronously through the browser SDK, as the store's gateway does. */
async function act(client: WebClient, body: Record<string, unknown> | string): Promise<Answer> {
  const execution = await new WebFunctions(client).createExecution({
    functionId: FUNCTIONS.orderAction,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return {
    status: execution.responseStatusCode,
    body: JSON.parse(execution.responseBody || '{}') as Answer['body'],
  };
}

/** A desk member (or an outsider) with a signed-in browser-SDK client. */
interface Person extends WebUser {
  role: 'staff' | 'manager' | 'owner' | null;
}

async function member(name: string, role: Person['role']): Promise<Person> {
  const user = await createWebUser(name);
  if (role)
    await new Teams(serverClient()).createMembership({
      teamId: DESK_TEAM_ID,
      roles: [role],
      userId: user.userId,
    });
  return { ...user, role };
}

const STATUS_OF: Record<string, number> = {
  ok: 200,
  INVALID_TRANSITION: 400,
  VALIDATION: 400,
  AUTH_REQUIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ORDER_CONFLICT: 409,
};
const NEXT: Partial<Record<OrderAction, OrderStatus>> = {
  start: 'preparing',
  ready: 'ready',
  fulfil: 'fulfilled',
  cancel: 'canceled',
};

/** Runs `tasks` with at most `limit` in flight. */
async function inBatches<T>(tasks: (() => Promise<T>)[], limit = 6): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < tasks.length; i += limit)
    results.push(...(await Promise.all(tasks.slice(i, i + limit).map((task) => task()))));
  return results;
}

describe('order-action (the order workflow enforced on the server)', () => {
  let staff: Person;
  let ana: Person;
  let manager: Person;
  let owner: Person;
  let customer: Person;

  beforeAllOnTarget(async () => {
    [staff, ana, manager, owner] = await Promise.all([
      member('Sam Staff', 'staff'),
      member('Ana', 'staff'),
      member('Mia Manager', 'manager'),
      member('Oscar Owner', 'owner'),
    ]);
    // A customer: an anonymous session, no desk membership.
    const client = webClient();
    storage.clear();
    const session = await new Account(client).createAnonymousSession();
    // The SDK keeps the session cookie as a fallback in (shared) localStorage; move it onto this
    // client alone, so that other clients stay guests.
    const fallback = JSON.parse(storage.getItem('cookieFallback') ?? '{}') as Record<
      string,
      string
    >;
    client.setSession(fallback[`a_session_${backend().projectId}`] ?? '');
    storage.clear();
    customer = {
      userId: session.userId,
      name: '',
      email: '',
      password: '',
      secret: session.secret,
      client,
      role: null,
    };
  });

  it('is deployed with the schema, for signed-in users, through the API key only for the rest', async () => {
    const fn = await new Functions(serverClient()).get({ functionId: FUNCTIONS.orderAction });
    expect(fn).toMatchObject({ runtime: 'node-22', execute: ['users'], enabled: true });
    expect(fn.deploymentId).not.toBe('');
  });

  it('answers every action × role × state as docs/product.md §5–§6 say', async () => {
    const people: [string, () => Person, Record<OrderAction, string[]>][] = [
      ['staff', () => staff, EXPECTED_FOR_STAFF],
      ['manager', () => manager, EXPECTED_FOR_MANAGER],
      ['owner', () => owner, EXPECTED_FOR_MANAGER],
      ['customer', () => customer, EXPECTED_FOR_OUTSIDER],
    ];
    const cases = people.flatMap(([label, who, table]) =>
      ORDER_ACTIONS.flatMap((action) =>
        ORDER_STATUSES.map((status, column) => ({
          label,
          who,
          action,
          status,
          expected: table[action][column]!,
        })),
      ),
    );
    const mismatches: string[] = [];
    await inBatches(
      cases.map((c) => async () => {
        const order = await createOrder({ status: c.status, rev: 5 });
        const answer = await act(c.who().client, {
          orderId: order.$id,
          action: c.action,
          expectedRev: 5,
        });
        const got = answer.status === 200 ? 'ok' : (answer.body.error?.code ?? `?${answer.status}`);
        const name = `${c.label} ${c.action} on ${c.status}`;
        if (got !== c.expected) mismatches.push(`${name}: expected ${c.expected}, got ${got}`);
        if (answer.status !== STATUS_OF[c.expected])
          mismatches.push(`${name}: HTTP ${answer.status}, expected ${STATUS_OF[c.expected]}`);
        const after = await readOrder(order.$id);
        if (got !== 'ok') {
          if (after.rev !== 5) mismatches.push(`${name}: refused but rev moved to ${after.rev}`);
          return;
        }
        const person = c.who();
        const wanted = NEXT[c.action] ?? c.status;
        if (answer.body.rev !== 6 || answer.body.status !== wanted || after.rev !== 6)
          mismatches.push(`${name}: answered ${JSON.stringify(answer.body)}`);
        if (c.action !== 'cancel' && after.assigneeId !== person.userId)
          mismatches.push(`${name}: assignee ${after.assigneeId}`);
        if (after.updatedById !== person.userId || after.updatedByName !== person.name)
          mismatches.push(`${name}: updatedBy ${after.updatedById}/${after.updatedByName}`);
        const record = await activity(order.$id, 6);
        if (record.actorId !== person.userId || record.orderId !== order.$id)
          mismatches.push(`${name}: activity ${JSON.stringify(record)}`);
      }),
    );
    expect(mismatches).toEqual([]);
    expect(cases).toHaveLength(4 * 7 * 8);
  }, 120_000);

  it('answers with the updated order document and writes its activity record', async () => {
    const order = await createOrder({ status: 'paid', rev: 0 });
    const claimed = await act(staff.client, {
      orderId: order.$id,
      action: 'claim',
      expectedRev: 0,
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({
      $id: order.$id,
      $collectionId: COLLECTIONS.orders,
      $databaseId: DATABASE_ID,
      status: 'paid',
      assigneeId: staff.userId,
      assigneeName: 'Sam Staff',
      rev: 1,
    });
    expect(Date.parse(claimed.body.$updatedAt as string)).toBeGreaterThan(
      Date.parse(order.$updatedAt),
    );
    const started = await act(staff.client, {
      orderId: order.$id,
      action: 'start',
      expectedRev: 1,
    });
    expect(started.body).toMatchObject({ status: 'preparing', rev: 2 });
    expect(started.body.startedAt).toBeTruthy();
    const record = await activity(order.$id, 2);
    expect(record).toMatchObject({ orderId: order.$id, kind: 'status', actorName: 'Sam Staff' });
    expect(JSON.parse(record.data as string)).toEqual({
      action: 'start',
      from: 'paid',
      to: 'preparing',
    });
  });

  it('respects who holds an order: staff get a conflict naming the holder, managers take over', async () => {
    const order = await createOrder({ status: 'preparing', rev: 0 });
    expect(
      (await act(ana.client, { orderId: order.$id, action: 'claim', expectedRev: 0 })).status,
    ).toBe(200);
    const refused = await act(staff.client, {
      orderId: order.$id,
      action: 'ready',
      expectedRev: 1,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'ORDER_CONFLICT',
      message: 'Ana claimed this order a moment ago.',
    });
    const again = await act(staff.client, { orderId: order.$id, action: 'claim', expectedRev: 1 });
    expect(again.body.error?.message).toBe('Ana claimed this order a moment ago.');
    const takeOver = await act(manager.client, {
      orderId: order.$id,
      action: 'take-over',
      expectedRev: 1,
    });
    expect(takeOver.body).toMatchObject({ assigneeId: manager.userId, rev: 2 });
    expect(JSON.parse((await activity(order.$id, 2)).data as string)).toMatchObject({
      action: 'take-over',
      previousAssigneeName: 'Ana',
    });
  });

  it('refuses a stale rev as a conflict naming who changed the order', async () => {
    const order = await createOrder({ status: 'paid', rev: 0 });
    await act(ana.client, { orderId: order.$id, action: 'claim', expectedRev: 0 });
    await act(ana.client, { orderId: order.$id, action: 'unclaim', expectedRev: 1 });
    const stale = await act(staff.client, { orderId: order.$id, action: 'start', expectedRev: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toEqual({
      code: 'ORDER_CONFLICT',
      message: 'Ana changed this order a moment ago.',
      details: { currentRev: 2, by: 'Ana' },
    });
    expect((await readOrder(order.$id)).rev).toBe(2);
  });

  it('lets exactly one of two concurrent claims win; the other hears who won', async () => {
    const rounds = 12;
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, async () => {
        const order = await createOrder({ status: 'paid', rev: 0 });
        const body = { orderId: order.$id, action: 'claim', expectedRev: 0 };
        const [first, second] = await Promise.all([act(staff.client, body), act(ana.client, body)]);
        const after = await readOrder(order.$id);
        return { first, second, after };
      }),
    );
    for (const { first, second, after } of outcomes) {
      const answers = [first, second];
      const winners = answers.filter((answer) => answer.status === 200);
      const losers = answers.filter((answer) => answer.status === 409);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(1);
      const winner = first.status === 200 ? staff : ana;
      expect(after).toMatchObject({ rev: 1, assigneeId: winner.userId });
      expect(losers[0]!.body.error).toMatchObject({
        code: 'ORDER_CONFLICT',
        message: `${winner.name} claimed this order a moment ago.`,
      });
    }
  }, 120_000);

  it('relies on X-Appwrite-Timestamp, which refuses a write based on an older read even within a millisecond', async () => {
    const order = await createOrder({ status: 'paid', rev: 0 });
    const databases = new Databases(serverClient());
    const writes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        databases.updateDocument({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.orders,
          documentId: order.$id,
          data: { noteCount: i + 1 },
        }),
      ),
    );
    const times = writes.map((doc) => Date.parse(doc.$updatedAt)).sort((a, b) => a - b);
    expect(new Set(times).size).toBe(times.length);
    expect(times[0]).toBeGreaterThan(Date.parse(order.$updatedAt));
    const stale = serverClient();
    stale.addHeader('X-Appwrite-Timestamp', writes[0]!.$updatedAt);
    await expect(
      new Databases(stale).updateDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId: order.$id,
        data: { rev: 1 },
      }),
    ).rejects.toMatchObject({ code: 409, type: 'document_update_conflict' });
  });

  it('refuses bad requests with VALIDATION, NOT_FOUND and AUTH_REQUIRED', async () => {
    const order = await createOrder({ status: 'paid', rev: 0 });
    const cases: [Record<string, unknown> | string, number, string][] = [
      ['not json', 400, 'VALIDATION'],
      [{ orderId: order.$id, action: 'dance', expectedRev: 0 }, 400, 'VALIDATION'],
      [
        { orderId: order.$id, action: 'refund', expectedRev: 0, amountCents: 1.5 },
        400,
        'VALIDATION',
      ],
      [{ orderId: order.$id, action: 'claim', expectedRev: -1 }, 400, 'VALIDATION'],
      [{ orderId: order.$id, action: 'claim' }, 400, 'VALIDATION'],
      [{ orderId: 'no-such-order', action: 'claim', expectedRev: 0 }, 404, 'NOT_FOUND'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await act(staff.client, body);
      expect([answer.status, answer.body.error?.code], JSON.stringify(body)).toEqual([
        status,
        code,
      ]);
      expect(typeof answer.body.error?.message).toBe('string');
    }
    // Called with an API key there is no user behind the call.
    const execution = await new Functions(serverClient()).createExecution({
      functionId: FUNCTIONS.orderAction,
      body: JSON.stringify({ orderId: order.$id, action: 'claim', expectedRev: 0 }),
    });
    expect(execution.responseStatusCode).toBe(401);
    expect(JSON.parse(execution.responseBody)).toMatchObject({ error: { code: 'AUTH_REQUIRED' } });
    // Guests cannot run it at all (`execute` grants signed-in users only).
    await expect(
      new WebFunctions(webClient()).createExecution({ functionId: FUNCTIONS.orderAction }),
    ).rejects.toMatchObject({ code: 401, type: 'user_unauthorized' });
    expect((await readOrder(order.$id)).rev).toBe(0);
  });

  it('keeps orders read-only for the team: a direct update by staff is refused', async () => {
    const order = await createOrder({ status: 'paid', rev: 0 });
    const web = new WebDatabases(staff.client);
    const seen = await web.getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.orders,
      documentId: order.$id,
    });
    expect(seen.$id).toBe(order.$id);
    await expect(
      web.updateDocument({
        databaseId: DATABASE_ID,
        collectionId: COLLECTIONS.orders,
        documentId: order.$id,
        data: { status: 'fulfilled', rev: 1 },
      }),
    ).rejects.toMatchObject({ code: 401, type: 'user_unauthorized' });
    expect(await readOrder(order.$id)).toMatchObject({ status: 'paid', rev: 0 });
  });

  it('a note added through note-action moves the order on: an action on the older rev is stale', async () => {
    const order = await createOrder({ status: 'preparing', rev: 0 });
    const added = await callFunction(staff.client, FUNCTIONS.noteAction, {
      action: 'add',
      noteId: ID.unique(),
      orderId: order.$id,
      body: 'Extra hot, please.',
    });
    expect(added.status).toBe(200);
    expect(await readOrder(order.$id)).toMatchObject({
      rev: 1,
      noteCount: 1,
      updatedByName: 'Sam Staff',
    });
    const stale = await act(staff.client, { orderId: order.$id, action: 'ready', expectedRev: 0 });
    expect(stale.body.error).toMatchObject({ code: 'ORDER_CONFLICT' });
  });
});

describe('expire-pending', () => {
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

  async function runExpirePending(): Promise<{ canceled: number; retried: number }> {
    const execution = await new Functions(serverClient()).createExecution({
      functionId: FUNCTIONS.expirePending,
    });
    expect(execution.status, execution.errors).toBe('completed');
    return JSON.parse(execution.responseBody) as { canceled: number; retried: number };
  }

  it('runs every minute', async () => {
    const fn = await new Functions(serverClient()).get({ functionId: FUNCTIONS.expirePending });
    expect(fn).toMatchObject({ schedule: '* * * * *', execute: [] });
  });

  it('cancels exactly the unpaid orders older than 30 minutes, once', async () => {
    const stale = await createOrder({
      status: 'pending_payment',
      paymentStatus: 'requires_payment_method',
      rev: 1,
      $createdAt: minutesAgo(31),
    });
    const young = await createOrder({
      status: 'pending_payment',
      paymentStatus: 'requires_payment_method',
      rev: 1,
      $createdAt: minutesAgo(29),
    });
    const paid = await createOrder({ status: 'paid', rev: 2, $createdAt: minutesAgo(120) });
    const failed = await createOrder({
      status: 'payment_failed',
      paymentStatus: 'failed',
      rev: 2,
      $createdAt: minutesAgo(120),
    });
    const first = await runExpirePending();
    expect(first.canceled).toBeGreaterThanOrEqual(1);
    const canceled = await readOrder(stale.$id);
    expect(canceled).toMatchObject({
      status: 'canceled',
      rev: 2,
      updatedById: 'system',
      updatedByName: 'Livedesk',
    });
    expect(canceled.canceledAt).toBeTruthy();
    const record = await activity(stale.$id, 2);
    expect(record).toMatchObject({ kind: 'canceled', actorName: 'Livedesk' });
    expect(JSON.parse(record.data as string)).toMatchObject({
      from: 'pending_payment',
      reason: 'payment_timeout',
    });
    expect(await readOrder(young.$id)).toMatchObject({ status: 'pending_payment', rev: 1 });
    expect(await readOrder(paid.$id)).toMatchObject({ status: 'paid', rev: 2 });
    expect(await readOrder(failed.$id)).toMatchObject({ status: 'payment_failed', rev: 2 });
    // Idempotent: a second run changes nothing more.
    await runExpirePending();
    expect(await readOrder(stale.$id)).toMatchObject({ status: 'canceled', rev: 2 });
  });

  it('is started by the scheduler', async (context) => {
    if (!isLocal()) context.skip('the scheduler tick switch exists only on the local backend');
    const stale = await createOrder({
      status: 'pending_payment',
      paymentStatus: 'requires_payment_method',
      rev: 0,
      $createdAt: minutesAgo(45),
    });
    const minute = tickMinute(7);
    const started = await tickScheduler(minute);
    const functions = new Functions(serverClient());
    const executions = await functions.listExecutions({ functionId: FUNCTIONS.expirePending });
    const mine = executions.executions.find((e) => started.includes(e.$id));
    expect(mine).toBeDefined();
    expect(await finishedExecution(functions, FUNCTIONS.expirePending, mine!.$id)).toMatchObject({
      trigger: 'schedule',
      status: 'completed',
    });
    expect(await readOrder(stale.$id)).toMatchObject({ status: 'canceled' });
  });

  it('cancels 120 expired orders of mixed revisions with bulk updates, each with its record', async () => {
    const orders = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        createOrder({
          status: i % 3 === 0 ? 'payment_failed' : 'pending_payment',
          paymentStatus: 'requires_payment_method',
          rev: i % 3,
          $createdAt: minutesAgo(40),
        }),
      ),
    );
    const pending = orders.filter((order) => order.status === 'pending_payment');
    const { canceled } = await expireAll(serverClient(), Date.now());
    expect(canceled).toBeGreaterThanOrEqual(pending.length);
    for (const order of pending) {
      expect(await readOrder(order.$id)).toMatchObject({ status: 'canceled', rev: order.rev + 1 });
      expect(await activity(order.$id, order.rev + 1)).toMatchObject({ kind: 'canceled' });
    }
    for (const order of orders.filter((o) => o.status !== 'pending_payment'))
      expect(await readOrder(order.$id)).toMatchObject({ status: 'payment_failed', rev: 0 });
  });

  it('never writes a record without its change while payments land at the same moment', async () => {
    const orders = await Promise.all(
      Array.from({ length: 40 }, () =>
        createOrder({
          status: 'pending_payment',
          paymentStatus: 'requires_payment_method',
          rev: 0,
          $createdAt: minutesAgo(35),
        }),
      ),
    );
    const pay = async (order: OrderDocument) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 60));
      return commitOrderChange(
        serverClient(),
        order,
        {
          patch: { rev: 1, updatedById: 'stripe', updatedByName: 'Stripe', status: 'paid' },
          activity: { kind: 'paid', data: {} },
        },
        { id: null, name: 'Stripe' },
        Date.now(),
      );
    };
    await Promise.all([
      expireAll(serverClient(), Date.now()),
      ...orders.filter((_, i) => i % 2 === 0).map(pay),
    ]);
    await expireAll(serverClient(), Date.now());
    for (const order of orders) {
      const now = await readOrder(order.$id);
      expect(now.rev).toBe(1);
      expect(['paid', 'canceled']).toContain(now.status);
      const record = await activity(order.$id, 1);
      expect(record.kind).toBe(now.status === 'paid' ? 'paid' : 'canceled');
    }
  });
});
