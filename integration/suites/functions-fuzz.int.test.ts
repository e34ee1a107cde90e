import { createHmac } from 'node:crypto';
import { AppwriteException, Functions as WebFunctions } from 'appwrite';
import { Databases, Query } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import { installBrowserGlobals } from '../support/browser.ts';
import { beforeAllOnTarget, serverClient } from '../support/clients.ts';
import { createTestOrder, deskPerson, readTestOrder, type Person } from '../support/desk.ts';
import { functionUrl } from '../support/functions.ts';

installBrowserGlobals();

// A seeded, bounded fuzz of every function a person calls: malformed and hostile bodies, headers,
// ids and sizes. No answer may be a 500 (or no answer), and nothing may change. stripe-webhook
// (anyone may reach it) gets hostile bodies, forged and malformed signatures and headers; the
// scheduled functions (expire-pending, repair-orders, sweep-uploads) are refused to a signed-in person.

const SEED = 20261124;
const CASES_PER_FUNCTION = 60;

/** mulberry32: a small seeded PRNG, so a failing case can be run again. */
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

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '%00%ff%',
  '😀'.repeat(3000),
  'x'.repeat(40_000),
  '<script>alert(1)</script>',
  "'; DROP TABLE orders; --",
  '\ud800',
  'a'.repeat(37),
  '-leading',
  'order-1',
  'null',
];
const HOSTILE_NUMBERS = [-1, 0, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, NaN];

function fuzzValue(random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  switch (Math.floor(random() * (depth > 2 ? 5 : 7))) {
    case 0:
      return pick(HOSTILE_STRINGS);
    case 1:
      return pick(HOSTILE_NUMBERS);
    case 2:
      return pick([true, false, null]);
    case 3:
      return Math.floor(random() * 10);
    case 4:
      return String.fromCharCode(
        ...Array.from({ length: 12 }, () => Math.floor(random() * 0xffff)),
      );
    case 5:
      return Array.from({ length: Math.floor(random() * 4) }, () => fuzzValue(random, depth + 1));
    default:
      return fuzzObject(random, [], depth + 1);
  }
}

function fuzzObject(random: () => number, keys: readonly string[], depth = 0) {
  const object: Record<string, unknown> = {};
  for (const key of keys) if (random() < 0.8) object[key] = fuzzValue(random, depth);
  const extra = ['__proto__', 'constructor', '$permissions', '$id', 'authorId', 'role', 'x'];
  if (random() < 0.3)
    object[extra[Math.floor(random() * extra.length)]!] = fuzzValue(random, depth);
  return object;
}

/** The fields and actions each function takes, to fuzz near its real shape. */
const SHAPES: Record<string, { actions: string[]; keys: string[] }> = {
  [FUNCTIONS.noteAction]: { actions: ['add', 'remove'], keys: ['noteId', 'orderId', 'body'] },
  [FUNCTIONS.productAction]: {
    actions: ['create', 'update', 'archive'],
    keys: ['productId', 'product', 'changes'],
  },
  [FUNCTIONS.orderAction]: {
    actions: ['claim', 'start', 'cancel', 'refund'],
    keys: ['orderId', 'expectedRev', 'amountCents'],
  },
  [FUNCTIONS.attachmentAction]: {
    actions: ['attach', 'remove'],
    keys: ['orderId', 'fileId', 'attachmentId'],
  },
  [FUNCTIONS.exportOrders]: { actions: [], keys: ['exportId', 'filter'] },
  [FUNCTIONS.checkout]: {
    actions: [],
    keys: ['orderId', 'items', 'customerName', 'customerEmail'],
  },
};

function fuzzBody(random: () => number, shape: { actions: string[]; keys: string[] }): string {
  const roll = random();
  if (roll < 0.1)
    return ['', '{', 'null', '[]', '"x"', '{"a":}', '\u0000', '1e999'][Math.floor(random() * 8)]!;
  if (roll < 0.15) return JSON.stringify({ body: 'x'.repeat(200_000) });
  const body = fuzzObject(random, shape.keys);
  if (shape.actions.length && random() < 0.8)
    body.action =
      random() < 0.85
        ? shape.actions[Math.floor(random() * shape.actions.length)]
        : fuzzValue(random);
  return JSON.stringify(body);
}

describe('functions under a seeded fuzz (hostile bodies, headers, ids, sizes)', () => {
  let sam: Person;

  beforeAllOnTarget(async () => {
    sam = await deskPerson('Sam Fuzz', 'staff');
  });

  it(`answers every case with a 2xx–4xx and changes nothing (seed ${SEED})`, async () => {
    const order = await createTestOrder();
    const admin = new Databases(serverClient());
    const notesBefore = await admin.listDocuments({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.notes,
      queries: [Query.equal('orderId', [order.$id]), Query.limit(1)],
    });
    const random = prng(SEED);
    const functions = new WebFunctions(sam.client);
    const statuses = new Map<number, number>();
    let cases = 0;
    for (const [functionId, shape] of Object.entries(SHAPES)) {
      for (let i = 0; i < CASES_PER_FUNCTION; i++) {
        const body = fuzzBody(random, shape);
        const contentType = [
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          ';;;',
        ][Math.floor(random() * 4)]!;
        const label = `${functionId} case ${i}: ${body.slice(0, 120)}`;
        const execution = await functions.createExecution({
          functionId,
          body,
          headers: { 'content-type': contentType, 'x-appwrite-user-id': 'someone-else' },
        });
        cases++;
        statuses.set(
          execution.responseStatusCode,
          (statuses.get(execution.responseStatusCode) ?? 0) + 1,
        );
        expect(execution.responseStatusCode, label).toBeGreaterThanOrEqual(200);
        expect(execution.responseStatusCode, label).toBeLessThan(500);
        if (execution.responseStatusCode >= 400)
          expect(JSON.parse(execution.responseBody).error?.message, label).toEqual(
            expect.any(String),
          );
      }
    }
    expect(await readTestOrder(order.$id)).toMatchObject({
      rev: order.rev,
      noteCount: 0,
      status: order.status,
      $updatedAt: order.$updatedAt,
    });
    expect(notesBefore.total).toBe(0);
    console.log(
      `[fuzz] ${cases} function cases (seed ${SEED}): statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 600_000);

  it(`stripe-webhook answers hostile bodies, signatures and headers with a 4xx and changes nothing (seed ${SEED + 1})`, async () => {
    const order = await createTestOrder({
      status: 'pending_payment',
      paymentStatus: 'requires_payment_method',
      paymentIntentId: 'pi_fuzz_1',
    });
    const admin = new Databases(serverClient());
    const countEvents = async () =>
      (
        await admin.listDocuments({
          databaseId: DATABASE_ID,
          collectionId: COLLECTIONS.stripeEvents,
          queries: [Query.limit(1)],
        })
      ).total;
    const eventsBefore = await countEvents();
    const random = prng(SEED + 1);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const now = Math.floor(Date.now() / 1000);
    /** An event that would mark the order paid, were it signed by Stripe. */
    const eventFor = (type: string) =>
      JSON.stringify({
        id: `evt_fuzz_${Math.floor(random() * 1e9)}`,
        object: 'event',
        type,
        created: now,
        data: {
          object: {
            id: 'pi_fuzz_1',
            object: 'payment_intent',
            status: 'succeeded',
            amount: order.totalCents,
            metadata: { orderId: order.$id },
            latest_charge: 'ch_fuzz',
          },
        },
      });
    const signatures = (body: string): string[] => {
      const forged = createHmac('sha256', 'whsec_not_the_secret')
        .update(`${now}.${body}`)
        .digest('hex');
      return [
        '',
        'garbage',
        `t=${now}`,
        `v1=${forged}`,
        `t=${now},v1=${forged}`,
        `t=${now - 3600},v1=${forged}`,
        `t=abc,v1=zz`,
        `t=${now},v1=${'0'.repeat(64)},v0=${forged}`,
        `t=${now},`.repeat(500),
        `t=__proto__,v1=constructor`,
      ];
    };
    const statuses = new Map<number, number>();
    let cases = 0;
    for (let i = 0; i < CASES_PER_FUNCTION * 2; i++) {
      const roll = random();
      const body =
        roll < 0.5
          ? eventFor(
              pick([
                'payment_intent.succeeded',
                'payment_intent.payment_failed',
                'charge.refunded',
                'payment_intent.canceled',
                '__proto__',
              ]),
            )
          : roll < 0.6
            ? pick(['', '{', 'null', '[]', '"x"', '{"a":}', '\u0000', '1e999'])
            : roll < 0.65
              ? JSON.stringify({ type: 'x', data: 'y'.repeat(300_000) })
              : JSON.stringify(fuzzObject(random, ['id', 'type', 'data', 'object', 'created']));
      const headers: Record<string, string> = {
        'content-type': pick([
          'application/json',
          'text/plain',
          ';;;',
          'application/x-www-form-urlencoded',
        ]),
      };
      const signature = pick(signatures(body));
      if (random() < 0.9) headers['stripe-signature'] = signature;
      if (random() < 0.2) headers['x-appwrite-user-id'] = 'someone-else';
      const label = `stripe-webhook case ${i}: ${signature.slice(0, 60)} ${body.slice(0, 100)}`;
      cases++;
      const answer = await fetch(functionUrl(FUNCTIONS.stripeWebhook), {
        method: 'POST',
        headers,
        body,
      });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect(answer.status, label).toBeGreaterThanOrEqual(400);
      expect(answer.status, label).toBeLessThan(500);
    }
    expect(await readTestOrder(order.$id)).toMatchObject({
      rev: order.rev,
      status: 'pending_payment',
      paymentStatus: 'requires_payment_method',
      $updatedAt: order.$updatedAt,
    });
    expect(await countEvents()).toBe(eventsBefore);
    console.log(
      `[fuzz] ${cases} stripe-webhook cases (seed ${SEED + 1}): statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 300_000);

  it('refuses expire-pending, repair-orders and sweep-uploads to a signed-in person, changing nothing', async () => {
    const stale = await createTestOrder({
      status: 'pending_payment',
      paymentStatus: 'requires_payment_method',
      $createdAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
    });
    const drifted = await createTestOrder({ noteCount: 3 });
    const functions = new WebFunctions(sam.client);
    let cases = 0;
    for (const functionId of [
      FUNCTIONS.expirePending,
      FUNCTIONS.repairOrders,
      FUNCTIONS.sweepUploads,
    ])
      for (const body of ['', '{}', '{"force":true}', JSON.stringify({ since: 0, repair: true })]) {
        const refused = await functions
          .createExecution({ functionId, body, headers: { 'x-appwrite-user-id': 'x' } })
          .then(
            () => null,
            (error: unknown) => error,
          );
        cases++;
        expect(refused, `${functionId} ${body}`).toBeInstanceOf(AppwriteException);
        expect((refused as AppwriteException).code, `${functionId} ${body}`).toBe(401);
      }
    expect(await readTestOrder(stale.$id)).toMatchObject({
      status: 'pending_payment',
      rev: stale.rev,
      $updatedAt: stale.$updatedAt,
    });
    expect(await readTestOrder(drifted.$id)).toMatchObject({
      noteCount: 3,
      rev: drifted.rev,
      $updatedAt: drifted.$updatedAt,
    });
    console.log(`[fuzz] ${cases} calls of the scheduled functions by a person: all refused`);
  });
});
