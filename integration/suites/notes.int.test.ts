import {
  AppwriteException,
  Databases as WebDatabases,
  ID,
  Permission,
  Role,
  type Models,
} from 'appwrite';
import { Databases, Query } from 'node-appwrite';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS, DATABASE_ID, FUNCTIONS } from '../../domain/ids.ts';
import { installBrowserGlobals } from '../support/browser.ts';
import { backend, beforeAllOnTarget, serverClient, webClient } from '../support/clients.ts';
import {
  callFunction,
  createTestOrder,
  deskPerson,
  readTestOrder,
  type FunctionAnswer,
  type Person,
} from '../support/desk.ts';
import { loadSize } from '../support/load-size.ts';

/** Notes one session sends at once in the flood test (2,000 on the local target). */
const FLOOD = loadSize(2_000, { minimum: 400 });

installBrowserGlobals();

// Notes are written only by note-action: the note, the order's noteCount and rev and the `note`
// activity record in one transaction, the author taken from the caller's session. The notes
// collection grants the team read and no client write.

type NoteAnswer = FunctionAnswer<{
  note: Record<string, unknown> & { $id: string; $permissions: string[] };
  order: Record<string, unknown> & { rev: number; noteCount: number };
}>;

const admin = new Databases(serverClient());
const NOTES = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.notes } as const;

function note(person: Person, body: Record<string, unknown>): Promise<NoteAnswer> {
  return callFunction(person.client, FUNCTIONS.noteAction, body) as Promise<NoteAnswer>;
}

function add(person: Person, orderId: string, text = 'Extra hot, please.', noteId = ID.unique()) {
  return note(person, { action: 'add', noteId, orderId, body: text });
}

async function notesOf(orderId: string) {
  const { documents } = await admin.listDocuments({
    ...NOTES,
    queries: [Query.equal('orderId', [orderId]), Query.limit(5000)],
  });
  return documents;
}

async function activityOf(orderId: string) {
  const { documents } = await admin.listDocuments({
    databaseId: DATABASE_ID,
    collectionId: COLLECTIONS.activity,
    queries: [Query.equal('orderId', [orderId]), Query.limit(5000)],
  });
  return documents;
}

/** The order's counts and timeline agree: noteCount = live notes, one record per rev. */
async function expectConsistent(orderId: string, liveNotes: number) {
  const order = await readTestOrder(orderId);
  const notes = await notesOf(orderId);
  expect(notes.filter((n) => n.deleted !== true)).toHaveLength(liveNotes);
  expect(order.noteCount).toBe(liveNotes);
  const ids = new Set((await activityOf(orderId)).map((record) => record.$id));
  for (let rev = 1; rev <= order.rev; rev++) expect(ids.has(`${orderId}.r${rev}`)).toBe(true);
  return order;
}

/** A REST call with a person's session, as any script could make it. */
async function rest(person: Person, method: string, path: string, body: unknown): Promise<number> {
  const { endpoint, projectId } = backend();
  const answer = await fetch(`${endpoint}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-appwrite-project': projectId,
      'x-appwrite-session': person.secret,
    },
    body: JSON.stringify(body),
  });
  return answer.status;
}

/** What a refused client write answers (the SDK's exception), or 'written'. */
async function refusal(write: () => Promise<unknown>): Promise<number | 'written'> {
  try {
    await write();
    return 'written';
  } catch (error) {
    if (error instanceof AppwriteException) return error.code;
    throw error;
  }
}

describe('note-action: notes written with their order count and activity', () => {
  let sam: Person;
  let tia: Person;
  let mia: Person;
  let outsider: Person;

  beforeAllOnTarget(async () => {
    [sam, tia, mia, outsider] = await Promise.all([
      deskPerson('Sam Notes', 'staff'),
      deskPerson('Tia Notes', 'staff'),
      deskPerson('Mia Notes', 'manager'),
      deskPerson('Olga Notes', null),
    ]);
  });

  it('adds a note by the caller, team-readable, with noteCount, rev and its activity record', async () => {
    const order = await createTestOrder();
    const answer = await add(sam, order.$id, '  Extra hot, please. ');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.note).toMatchObject({
      orderId: order.$id,
      authorId: sam.userId,
      authorName: 'Sam Notes',
      body: '  Extra hot, please. ',
      deleted: false,
    });
    expect(answer.body.note.$permissions).toEqual(['read("team:desk")']);
    expect(answer.body.order).toMatchObject({ rev: 1, noteCount: 1, updatedById: sam.userId });
    const record = await admin.getDocument({
      databaseId: DATABASE_ID,
      collectionId: COLLECTIONS.activity,
      documentId: `${order.$id}.r1`,
    });
    expect(record).toMatchObject({ kind: 'note', actorId: sam.userId, actorName: 'Sam Notes' });
    expect(JSON.parse(record.data as string)).toMatchObject({
      action: 'added',
      noteId: answer.body.note.$id,
    });
    // The same request again (a retry) answers the same note and counts nothing twice.
    const again = await add(sam, order.$id, '  Extra hot, please. ', answer.body.note.$id);
    expect(again.status).toBe(200);
    expect(again.body.order).toMatchObject({ rev: 1, noteCount: 1 });
    // Another person cannot take over that id.
    const taken = await add(tia, order.$id, 'Mine now', answer.body.note.$id);
    expect(taken).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION' } } });
    await expectConsistent(order.$id, 1);
  });

  it('refuses a bad note with a specific message and writes nothing', async () => {
    const order = await createTestOrder();
    const cases: [Record<string, unknown>, string][] = [
      [{ body: '' }, 'Write something first.'],
      [{ body: ' \n\t ' }, 'Write something first.'],
      [{ body: 'x'.repeat(2001) }, 'Notes are limited to 2,000 characters.'],
      [{ body: `${'😀'.repeat(2000)}!` }, 'Notes are limited to 2,000 characters.'],
      [{ body: 42 }, 'Write something first.'],
      [{ authorId: tia.userId }, '"authorId" cannot be set on a note.'],
      [{ authorName: 'Boss' }, '"authorName" cannot be set on a note.'],
      [{ $permissions: ['read("any")'] }, '"$permissions" cannot be set on a note.'],
      [{ orderId: '../x' }, 'orderId must be an id.'],
      [{ action: 'delete' }, 'Unknown action "delete".'],
    ];
    for (const [patch, message] of cases) {
      const answer = await note(sam, {
        action: 'add',
        noteId: ID.unique(),
        orderId: order.$id,
        body: 'Fine',
        ...patch,
      });
      expect([answer.status, answer.body.error?.message], JSON.stringify(patch)).toEqual([
        400,
        message,
      ]);
    }
    // 2,000 code points are fine even when they are 4,000 UTF-16 units.
    expect((await add(sam, order.$id, '😀'.repeat(2000))).status).toBe(200);
    // Not a desk member, or no order.
    expect((await add(outsider, order.$id)).body.error?.code).toBe('FORBIDDEN');
    expect((await add(sam, 'no-such-order')).body.error?.code).toBe('NOT_FOUND');
    await expectConsistent(order.$id, 1);
    expect((await readTestOrder(order.$id)).rev).toBe(1);
  });

  it('removes a note by setting deleted (its author or a manager), counting it off once', async () => {
    const order = await createTestOrder();
    const first = (await add(sam, order.$id, 'One')).body.note.$id;
    const second = (await add(sam, order.$id, 'Two')).body.note.$id;
    const refused = await note(tia, { action: 'remove', noteId: first });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    const removed = await note(sam, { action: 'remove', noteId: first });
    expect(removed.status).toBe(200);
    expect(removed.body.note).toMatchObject({ deleted: true, body: 'One' });
    expect(removed.body.order).toMatchObject({ noteCount: 1, rev: 3 });
    // Again: nothing more.
    expect((await note(sam, { action: 'remove', noteId: first })).body.order).toMatchObject({
      noteCount: 1,
      rev: 3,
    });
    expect((await note(mia, { action: 'remove', noteId: second })).body.order).toMatchObject({
      noteCount: 0,
      rev: 4,
    });
    expect((await notesOf(order.$id)).map((n) => n.deleted)).toEqual([true, true]);
    await expectConsistent(order.$id, 0);
  });

  it('keeps a staff member from creating, deleting, moving, re-authoring or publishing a note', async () => {
    const order = await createTestOrder();
    const other = await createTestOrder();
    const noteId = (await add(sam, order.$id, 'Internal: VIP')).body.note.$id;
    const web = new WebDatabases(sam.client);
    const attempts: [string, () => Promise<unknown>][] = [
      [
        'create',
        () =>
          web.createDocument<Models.DefaultDocument>({
            ...NOTES,
            documentId: ID.unique(),
            data: { orderId: order.$id, authorId: tia.userId, authorName: 'Tia', body: 'x' },
          }),
      ],
      [
        'create, readable by anyone',
        () =>
          web.createDocument<Models.DefaultDocument>({
            ...NOTES,
            documentId: ID.unique(),
            data: { orderId: order.$id, authorId: sam.userId, authorName: 'Sam', body: 'x' },
            permissions: [Permission.read(Role.any())],
          }),
      ],
      ['delete', () => web.deleteDocument({ ...NOTES, documentId: noteId })],
      [
        'move',
        () =>
          web.updateDocument<Models.DefaultDocument>({
            ...NOTES,
            documentId: noteId,
            data: { orderId: other.$id },
          }),
      ],
      [
        're-author',
        () =>
          web.updateDocument<Models.DefaultDocument>({
            ...NOTES,
            documentId: noteId,
            data: { authorId: tia.userId, authorName: 'Tia Notes' },
          }),
      ],
      [
        'publish',
        () =>
          web.updateDocument<Models.DefaultDocument>({
            ...NOTES,
            documentId: noteId,
            permissions: [Permission.read(Role.any())],
          }),
      ],
      [
        'upsert',
        () =>
          web.upsertDocument<Models.DefaultDocument>({
            ...NOTES,
            documentId: noteId,
            data: { orderId: other.$id, authorId: sam.userId, authorName: 'Sam', body: 'moved' },
          }),
      ],
    ];
    for (const [what, attempt] of attempts)
      expect(await refusal(attempt), what).toBeOneOf([401, 403, 404]);
    // Plain REST with the session cookie: bulk routes too.
    const path = `/databases/${DATABASE_ID}/collections/${COLLECTIONS.notes}/documents`;
    for (const [method, url, body] of [
      ['DELETE', path, { queries: [] }],
      ['PATCH', path, { data: { orderId: other.$id } }],
      ['PUT', `${path}/${noteId}`, { data: { body: 'x' } }],
      ['POST', path, { documents: [{ $id: ID.unique(), orderId: order.$id, body: 'x' }] }],
    ] as const) {
      expect(await rest(sam, method, url, body), `${method} ${url}`).toBeOneOf([
        401, 403, 404, 405,
      ]);
    }
    // A guest reads nothing; the note is as written.
    expect(
      await refusal(() =>
        new WebDatabases(webClient()).getDocument({ ...NOTES, documentId: noteId }),
      ),
    ).toBeOneOf([401, 404]);
    expect(await admin.getDocument({ ...NOTES, documentId: noteId })).toMatchObject({
      orderId: order.$id,
      authorId: sam.userId,
      body: 'Internal: VIP',
      deleted: false,
    });
    expect(await notesOf(other.$id)).toEqual([]);
    await expectConsistent(order.$id, 1);
  });

  it('counts exactly with 20 concurrent writers adding, then 10 removing', async () => {
    const order = await createTestOrder();
    const writers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => deskPerson(`Writer ${i}`, 'staff')),
    );
    const added = await Promise.all(writers.map((w, i) => add(w, order.$id, `Note ${i}`)));
    expect(added.map((a) => a.status)).toEqual(writers.map(() => 200));
    const removed = await Promise.all(
      writers
        .slice(0, 10)
        .map((w, i) => note(w, { action: 'remove', noteId: added[i]!.body.note.$id })),
    );
    expect(removed.map((a) => a.status)).toEqual(removed.map(() => 200));
    const final = await expectConsistent(order.$id, 10);
    expect(final.rev).toBe(30);
    expect(await activityOf(order.$id)).toHaveLength(30);
  });

  it(`counts a flood of ${FLOOD.toLocaleString('en-US')} notes from one session exactly (or refuses each with 429)`, async () => {
    const orders = await Promise.all([createTestOrder(), createTestOrder()]);
    const ids = Array.from({ length: FLOOD }, () => ID.unique());
    const outcome = new Map<string, number>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 24 }, async () => {
        while (next < ids.length) {
          const index = next++;
          const answer = await add(sam, orders[index % 2]!.$id, `Flood ${index}`, ids[index]);
          outcome.set(ids[index]!, answer.status);
        }
      }),
    );
    const accepted = ids.filter((id) => outcome.get(id) === 200);
    const limited = ids.filter((id) => outcome.get(id) === 429);
    expect(accepted.length + limited.length).toBe(FLOOD);
    const stored = new Set(
      [...(await notesOf(orders[0]!.$id)), ...(await notesOf(orders[1]!.$id))].map((n) => n.$id),
    );
    for (const id of limited) expect(stored.has(id)).toBe(false);
    expect(stored.size).toBe(accepted.length);
    const counted = (await Promise.all(orders.map((o) => readTestOrder(o.$id)))).reduce(
      (sum, o) => sum + o.noteCount,
      0,
    );
    expect(counted).toBe(accepted.length);
    console.log(
      `[notes] flood: ${accepted.length} accepted, ${limited.length} refused with 429, counted ${counted}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 600_000);
});
