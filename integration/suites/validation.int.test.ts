import { AppwriteException, Account, Databases, ID, Storage, type Client } from 'node-appwrite';
import { InputFile } from 'node-appwrite/file';
import { describe, expect, it } from 'vitest';
import { BUCKETS, COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { installBrowserGlobals } from '../support/browser.ts';
import { beforeAllOnTarget, guestServerClient, serverClient } from '../support/clients.ts';
import { createTestOrder, orderData, readTestOrder } from '../support/desk.ts';
import {
  createProducts,
  deskMember,
  execute,
  sessionClient,
  shop,
  stripeDoubleMissing,
} from '../support/payments.ts';

installBrowserGlobals();

// Every validation rule of docs/product.md §4 that the backend holds, called through the SDK as a
// person's session (or the operator's API key, for the records only functions write) — never
// through the UI: each refusal is shown with its message, and the record read again is unchanged.
// (Rules only the form holds are listed in docs/product.md §4 as "form"; they cannot be shown
// here.)

let manager: Client;
let staff: Client;
let productId: string;
let noDouble: string | null = null;

const DB = { databaseId: DATABASE_ID } as const;

beforeAllOnTarget(async () => {
  manager = sessionClient((await deskMember('Vera Validation', 'manager')).secret);
  staff = sessionClient((await deskMember('Sam Strict', 'staff')).secret);
  [{ id: productId }] = (await createProducts([380])) as [{ id: string; priceCents: number }];
  noDouble = await stripeDoubleMissing();
});

/** What an SDK call threw: Appwrite's status, type and message. */
async function refusal(call: Promise<unknown>): Promise<[number, string, string]> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppwriteException) return [error.code, error.type, error.message];
    throw error;
  }
  throw new Error('the backend accepted the write');
}

async function readDocument(collectionId: string, documentId: string) {
  return new Databases(serverClient()).getDocument({ ...DB, collectionId, documentId });
}

async function missing(collectionId: string, documentId: string): Promise<boolean> {
  return readDocument(collectionId, documentId).then(
    () => false,
    (error: { code?: number }) => error.code === 404,
  );
}

const INVALID = 'document_invalid_structure';

describe('products (written only by product-action; its key meets the attribute rules)', () => {
  const product = (patch: Record<string, unknown> = {}) => ({
    name: 'Flat white',
    description: '',
    priceCents: 380,
    currency: 'eur',
    active: true,
    sortOrder: 5,
    ...patch,
  });

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['price −1 (typed "-1")', { priceCents: -1 }, /"priceCents".*between 0 and 1,000,000/],
    ['price over €10,000', { priceCents: 1_000_001 }, /"priceCents".*between 0 and 1,000,000/],
    ['price not whole cents', { priceCents: 3.5 }, /"priceCents".*integer/],
    ['no name', { name: undefined }, /Missing required attribute "name"/],
    ['name of 81 characters', { name: '😀'.repeat(81) }, /"name".*no longer than 80 chars/],
    [
      'description of 501 characters',
      { description: 'é'.repeat(501) },
      /"description".*no longer than 500 chars/,
    ],
    ['currency of 4 characters', { currency: 'euro' }, /"currency".*no longer than 3 chars/],
    ['image id of 37 characters', { imageFileId: 'x'.repeat(37) }, /"imageFileId".*36 chars/],
    ['active not a boolean', { active: 'yes' }, /"active".*boolean/],
    ['sort order not an integer', { sortOrder: 'first' }, /"sortOrder".*integer/],
  ];

  it.each(cases)('refuses a new product with %s and creates nothing', async (_, patch, message) => {
    const documentId = ID.unique();
    const [status, type, text] = await refusal(
      new Databases(serverClient()).createDocument({
        ...DB,
        collectionId: COLLECTIONS.products,
        documentId,
        data: product(patch),
      }),
    );
    expect([status, type]).toEqual([400, INVALID]);
    expect(text).toMatch(message);
    expect(await missing(COLLECTIONS.products, documentId)).toBe(true);
  });

  it.each(cases)(
    'refuses changing a product to %s and leaves it as it was',
    async (_, patch, message) => {
      if (patch.name === undefined && 'name' in patch) patch = { name: null };
      const before = await readDocument(COLLECTIONS.products, productId);
      const [status, type, text] = await refusal(
        new Databases(serverClient()).updateDocument({
          ...DB,
          collectionId: COLLECTIONS.products,
          documentId: productId,
          data: patch,
        }),
      );
      expect([status, type]).toEqual([400, INVALID]);
      expect(text).toMatch(message);
      expect(await readDocument(COLLECTIONS.products, productId)).toEqual(before);
    },
  );

  it('stores names exactly as sent and counts characters, not UTF-16 units', async () => {
    const documentId = ID.unique();
    const name = ` ${'😀'.repeat(78)} `; // 80 characters, 158 UTF-16 units, spaces kept
    const created = await new Databases(serverClient()).createDocument({
      ...DB,
      collectionId: COLLECTIONS.products,
      documentId,
      data: product({ name, description: 'é'.repeat(500), priceCents: 0 }),
    });
    expect(created).toMatchObject({ name, priceCents: 0 });
    expect((await readDocument(COLLECTIONS.products, documentId)).name).toBe(name);
  });

  it('refuses a manager’s session writing the catalog directly (product-action writes it)', async () => {
    const before = await readDocument(COLLECTIONS.products, productId);
    const [status, type] = await refusal(
      new Databases(manager).updateDocument({
        ...DB,
        collectionId: COLLECTIONS.products,
        documentId: productId,
        data: { priceCents: -1 } as Record<string, unknown>,
      }),
    );
    expect([status, type]).toEqual([401, 'user_unauthorized']);
    expect(await readDocument(COLLECTIONS.products, productId)).toEqual(before);
  });

  it('refuses staff writing the catalog (permission), changing nothing', async () => {
    const before = await readDocument(COLLECTIONS.products, productId);
    const [status, type] = await refusal(
      new Databases(staff).updateDocument({
        ...DB,
        collectionId: COLLECTIONS.products,
        documentId: productId,
        data: { priceCents: 1 } as Record<string, unknown>,
      }),
    );
    expect([status, type]).toEqual([401, 'user_unauthorized']);
    expect(await readDocument(COLLECTIONS.products, productId)).toEqual(before);
  });
});

describe('notes (written only by note-action; its key meets the attribute rules)', () => {
  const note = (orderId: string, patch: Record<string, unknown> = {}) => ({
    orderId,
    authorId: 'u1',
    authorName: 'Sam Strict',
    body: 'Extra hot',
    ...patch,
  });

  it.each([
    [
      'a body of 2,001 characters',
      { body: '😀'.repeat(2001) },
      /"body".*no longer than 2000 chars/,
    ],
    ['no body', { body: undefined }, /Missing required attribute "body"/],
    ['an order id of 37 characters', { orderId: 'o'.repeat(37) }, /"orderId".*36 chars/],
    ['an author name of 129 characters', { authorName: 'a'.repeat(129) }, /"authorName".*128/],
    ['deleted not a boolean', { deleted: 'no' }, /"deleted".*boolean/],
  ] as [string, Record<string, unknown>, RegExp][])(
    'refuses a note with %s and creates nothing; the order’s count is unchanged',
    async (_, patch, message) => {
      const order = await createTestOrder();
      const documentId = ID.unique();
      const [status, type, text] = await refusal(
        new Databases(serverClient()).createDocument({
          ...DB,
          collectionId: COLLECTIONS.notes,
          documentId,
          data: note(order.$id, patch),
        }),
      );
      expect([status, type]).toEqual([400, INVALID]);
      expect(text).toMatch(message);
      expect(await missing(COLLECTIONS.notes, documentId)).toBe(true);
      expect(await readTestOrder(order.$id)).toEqual(order);
    },
  );

  it('accepts 2,000 emoji (2,000 characters) and stores the body as typed', async () => {
    const order = await createTestOrder();
    const body = `  ${'😀'.repeat(1998)}`;
    const created = await new Databases(serverClient()).createDocument({
      ...DB,
      collectionId: COLLECTIONS.notes,
      documentId: ID.unique(),
      data: note(order.$id, { body }),
    });
    expect(created.body).toBe(body);
  });
});

describe('orders: the attribute rules (only functions and the API key write them)', () => {
  it('refuses a desk member’s session writing an order at all', async () => {
    const order = await createTestOrder();
    const [status, type] = await refusal(
      new Databases(staff).updateDocument({
        ...DB,
        collectionId: COLLECTIONS.orders,
        documentId: order.$id,
        data: { totalCents: 1 } as Record<string, unknown>,
      }),
    );
    expect([status, type]).toEqual([401, 'user_unauthorized']);
    expect(await readTestOrder(order.$id)).toEqual(order);
  });

  it.each([
    ['number 0', { number: 0 }, /"number".*between 1 and/],
    ['an unknown status', { status: 'lost' }, /"status".*one of/],
    ['an unknown payment status', { paymentStatus: 'maybe' }, /"paymentStatus".*one of/],
    ['a customer name of 81 characters', { customerName: 'é'.repeat(81) }, /"customerName".*80/],
    ['a customer email that is not one', { customerEmail: 'cleo' }, /"customerEmail".*email/],
    ['items over 16,384 characters', { items: 'x'.repeat(16_385) }, /"items".*16384/],
    ['a negative total', { totalCents: -1 }, /"totalCents".*between 0 and/],
    ['a negative subtotal', { subtotalCents: -1 }, /"subtotalCents".*between 0 and/],
    ['a negative refunded amount', { refundedCents: -1 }, /"refundedCents".*between 0 and/],
    ['a negative note count', { noteCount: -1 }, /"noteCount".*between 0 and/],
    ['a negative rev', { rev: -1 }, /"rev".*between 0 and/],
    ['a card brand of 33 characters', { cardBrand: 'v'.repeat(33) }, /"cardBrand".*32/],
    ['last four of 5 characters', { cardLast4: '42424' }, /"cardLast4".*4 chars/],
    ['an assignee name of 129 characters', { assigneeName: 'a'.repeat(129) }, /"assigneeName"/],
    ['a date that is not one', { paidAt: 'yesterday' }, /"paidAt"/],
  ] as [string, Record<string, unknown>, RegExp][])(
    'refuses %s (create and update), changing nothing',
    async (_, patch, message) => {
      const databases = new Databases(serverClient());
      const documentId = ID.unique();
      const created = await refusal(
        databases.createDocument({
          ...DB,
          collectionId: COLLECTIONS.orders,
          documentId,
          data: { ...orderData(), ...patch },
        }),
      );
      expect(created.slice(0, 2)).toEqual([400, INVALID]);
      expect(created[2]).toMatch(message);
      expect(await missing(COLLECTIONS.orders, documentId)).toBe(true);
      const order = await createTestOrder();
      const updated = await refusal(
        databases.updateDocument({
          ...DB,
          collectionId: COLLECTIONS.orders,
          documentId: order.$id,
          data: patch,
        }),
      );
      expect(updated).toEqual(created);
      expect(await readTestOrder(order.$id)).toEqual(order);
    },
  );
});

describe('activity, attachments, exports, stripe_events, counters: the attribute rules (§4.4, §4.5)', () => {
  const at = '2026-11-23T10:00:00.000+00:00';
  const base: Record<string, Record<string, unknown>> = {
    [COLLECTIONS.activity]: { orderId: 'o1', kind: 'note', data: '{}', at },
    [COLLECTIONS.attachments]: {
      orderId: 'o1',
      fileId: 'f1',
      name: 'receipt.pdf',
      sizeBytes: 10,
      mimeType: 'application/pdf',
      uploadedBy: 'u1',
    },
    [COLLECTIONS.exports]: { requestedBy: 'u1', filter: '{}', status: 'queued' },
    [COLLECTIONS.stripeEvents]: { type: 'payment_intent.succeeded', processedAt: at },
    [COLLECTIONS.counters]: { value: 1 },
  };

  it.each([
    [COLLECTIONS.activity, { kind: 'teleported' }, /"kind".*one of/],
    [COLLECTIONS.activity, { data: 'x'.repeat(4_097) }, /"data".*4096/],
    [COLLECTIONS.activity, { actorName: 'a'.repeat(129) }, /"actorName".*128/],
    [COLLECTIONS.attachments, { sizeBytes: -1 }, /"sizeBytes".*between 0 and/],
    [COLLECTIONS.attachments, { name: '😀'.repeat(256) }, /"name".*255/],
    [COLLECTIONS.exports, { status: 'paused' }, /"status".*one of/],
    [COLLECTIONS.exports, { rowCount: -1 }, /"rowCount".*between 0 and/],
    [COLLECTIONS.exports, { error: 'e'.repeat(1_025) }, /"error".*1024/],
    [COLLECTIONS.stripeEvents, { type: 't'.repeat(129) }, /"type".*128/],
    [COLLECTIONS.counters, { value: -1 }, /"value".*between 0 and/],
  ] as [string, Record<string, unknown>, RegExp][])(
    '%s refuses %o and holds nothing new',
    async (collectionId, patch, message) => {
      const documentId = ID.unique();
      const [status, type, text] = await refusal(
        new Databases(serverClient()).createDocument({
          ...DB,
          collectionId,
          documentId,
          data: { ...base[collectionId], ...patch },
        }),
      );
      expect([status, type]).toEqual([400, INVALID]);
      expect(text).toMatch(message);
      expect(await missing(collectionId, documentId)).toBe(true);
    },
  );

  it('no desk member may write them directly', async () => {
    for (const collectionId of Object.keys(base)) {
      const documentId = ID.unique();
      const [status] = await refusal(
        new Databases(manager).createDocument({
          ...DB,
          collectionId,
          documentId,
          data: base[collectionId]!,
        }),
      );
      expect(status, collectionId).toBe(401);
      expect(await missing(collectionId, documentId), collectionId).toBe(true);
    }
  });
});

describe('order-action: the request rules (§7.1)', () => {
  it.each([
    ['an order id that is not one', { orderId: '../x' }, 'orderId must be an order id.'],
    ['an unknown action', { action: 'teleport' }, 'Unknown action "teleport".'],
    ['a negative expectedRev', { expectedRev: -1 }, 'expectedRev must be a whole number ≥ 0.'],
    ['a fractional expectedRev', { expectedRev: 0.5 }, 'expectedRev must be a whole number ≥ 0.'],
    [
      'a negative refund',
      { action: 'refund', amountCents: -1 },
      'amountCents must be a whole number ≥ 0.',
    ],
  ] as [string, Record<string, unknown>, string][])(
    'refuses %s with VALIDATION and its message; the order is unchanged',
    async (_, patch, message) => {
      const order = await createTestOrder();
      const answer = await execute(manager, FUNCTIONS.orderAction, {
        orderId: order.$id,
        action: 'claim',
        expectedRev: 0,
        ...patch,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'VALIDATION', message });
      expect(await readTestOrder(order.$id)).toEqual(order);
    },
  );

  it('refuses refunding more than is left, naming the amount; the order is unchanged', async () => {
    const order = await createTestOrder({ paymentIntentId: 'pi_validation_test' });
    const answer = await execute(manager, FUNCTIONS.orderAction, {
      orderId: order.$id,
      action: 'refund',
      expectedRev: 0,
      amountCents: 701,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'VALIDATION',
      message: 'You can refund at most €7.00.',
    });
    expect(await readTestOrder(order.$id)).toEqual(order);
  });
});

describe('attachment-action and export-orders: the request rules', () => {
  it('attachment-action refuses a bad order id or file id and an unknown action', async () => {
    const order = await createTestOrder();
    const cases: [Record<string, unknown>, string][] = [
      [{ action: 'attach', orderId: '../x', fileId: 'f1' }, 'orderId must be an id.'],
      [{ action: 'attach', orderId: order.$id, fileId: '' }, 'fileId must be an id.'],
      [{ action: 'shred', orderId: order.$id }, 'Unknown action "shred".'],
    ];
    for (const [body, message] of cases) {
      const answer = await execute(staff, FUNCTIONS.attachmentAction, body);
      expect([answer.status, answer.body.error?.code, answer.body.error?.message]).toEqual([
        400,
        'VALIDATION',
        message,
      ]);
    }
    expect(await readTestOrder(order.$id)).toEqual(order);
  });

  it('attachment-action refuses a file name over 255 characters instead of cutting it', async () => {
    const order = await createTestOrder();
    const name = `${'😀'.repeat(253)}.txt`; // 257 characters
    const file = await new Storage(staff).createFile({
      bucketId: BUCKETS.attachments,
      fileId: ID.unique(),
      file: InputFile.fromBuffer(Buffer.from('hello'), name),
    });
    expect(file.name).toBe(name);
    const answer = await execute(staff, FUNCTIONS.attachmentAction, {
      action: 'attach',
      orderId: order.$id,
      fileId: file.$id,
    });
    expect([answer.status, answer.body.error?.code, answer.body.error?.message]).toEqual([
      400,
      'VALIDATION',
      'File names are limited to 255 characters. Rename the file and try again.',
    ]);
    expect(await missing(COLLECTIONS.attachments, file.$id)).toBe(true);
    expect(await readTestOrder(order.$id)).toEqual(order);
  });

  it('export-orders refuses a bad filter and creates no export record', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ statuses: ['lost'] }, 'Statuses must be some of:'],
      [{ createdFrom: 'yesterday' }, 'createdFrom must be a date and time (ISO 8601).'],
      [
        { createdFrom: '2026-11-02T00:00:00Z', createdBefore: '2026-11-01T00:00:00Z' },
        'The end of the date range must be after its start.',
      ],
      [{ assignee: 'unassigned!' }, 'The assignee must be "any", "none" or a member’s id.'],
    ];
    for (const [filter, message] of cases) {
      const exportId = ID.unique();
      const answer = await execute(manager, FUNCTIONS.exportOrders, { exportId, filter });
      expect([answer.status, answer.body.error?.code]).toEqual([400, 'VALIDATION']);
      expect(answer.body.error?.message).toContain(message);
      expect(await missing(COLLECTIONS.exports, exportId)).toBe(true);
    }
  });
});

describe('checkout: the customer’s name and email (§4.6), stored as sent or refused', () => {
  it('refuses a blank or 81-character name and an email with a space, creating no order', async (context) => {
    if (noDouble) context.skip(noDouble);
    const customers = shop();
    const customer = await customers.arrive();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customerName: '   ' }, 'customerName', 'Enter a name.'],
      [{ customerName: 'é'.repeat(81) }, 'customerName', 'Use at most 80 characters.'],
      [{ customerEmail: 'cleo@example.test ' }, 'customerEmail', 'Enter a valid email address.'],
    ];
    for (const [patch, field, message] of cases) {
      const orderId = ID.unique();
      const answer = await execute(customer.client, FUNCTIONS.checkout, {
        orderId,
        items: [{ productId, qty: 1 }],
        customerName: 'Cleo',
        customerEmail: 'cleo@example.test',
        ...patch,
      });
      expect([answer.status, answer.body.error?.code]).toEqual([400, 'CART_INVALID']);
      expect(answer.body.error?.details).toEqual({ fields: [{ field, message }] });
      expect(await missing(COLLECTIONS.orders, orderId)).toBe(true);
    }
  });

  it('stores the name exactly as typed', async (context) => {
    if (noDouble) context.skip(noDouble);
    const customers = shop();
    const customer = await customers.arrive();
    const orderId = ID.unique();
    const answer = await execute(customer.client, FUNCTIONS.checkout, {
      orderId,
      items: [{ productId, qty: 1 }],
      customerName: ' Zoë  Ünal ',
      customerEmail: 'zoe@example.test',
    });
    expect(answer.status).toBe(200);
    const order = (await readDocument(COLLECTIONS.orders, orderId)) as unknown as OrderDocument;
    expect(order.customerName).toBe(' Zoë  Ünal ');
  });
});

describe('accounts (§4.6): Appwrite’s own rules', () => {
  it.each([
    ['a password of 7 characters', { password: 'short77' }, /Password must be between 8 and 256/],
    ['a name of 129 characters', { name: '😀'.repeat(129) }, /no longer than 128 chars/],
    ['an email that is not one', { email: 'cleo' }, /valid email/],
  ] as [string, Record<string, string>, RegExp][])(
    'sign-up refuses %s and creates no account',
    async (_, patch, message) => {
      const email = `${ID.unique()}@example.test`;
      const [status, , text] = await refusal(
        new Account(guestServerClient()).create({
          userId: ID.unique(),
          email,
          password: 'livedesk-demo',
          name: 'Nia New',
          ...patch,
        }),
      );
      expect(status).toBe(400);
      expect(text).toMatch(message);
      const signIn = await refusal(
        new Account(guestServerClient()).createEmailPasswordSession({
          email: patch.email ?? email,
          password: patch.password ?? 'livedesk-demo',
        }),
      );
      expect(signIn[0]).toBeGreaterThanOrEqual(400);
    },
  );

  it('sign-up counts a 128-emoji name as 128 characters and keeps it as sent', async () => {
    const name = ` ${'😀'.repeat(126)} `;
    const user = await new Account(guestServerClient()).create({
      userId: ID.unique(),
      email: `${ID.unique()}@example.test`,
      password: 'livedesk-demo',
      name,
    });
    expect(user.name).toBe(name);
  });
});
