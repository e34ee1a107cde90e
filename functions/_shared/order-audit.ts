import { Databases, Query, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID } from '../../domain/ids.ts';
import type { OrderDocument } from '../../domain/order.ts';
import { SYSTEM_ACTOR } from '../../domain/order-machine.ts';
import {
  checkOrder,
  planRepair,
  type AuditedRecord,
  type Drift,
  type OrderEvidence,
} from '../../domain/order-invariants.ts';
import { activityIdFor } from './appwrite.ts';
import { activityWrite, commitUntilLanded, type StagedWrite } from './order-writes.ts';

/**
 * Reads what the invariants of domain/order-invariants.ts need — an order's live notes and
 * attachments and its activity records — for many orders at once (100 ids a query, only the
 * fields needed), and repairs one order's drift in one transaction.
 */

/** Orders per evidence query (Appwrite's `equal` takes at most 100 values). */
export const AUDIT_BATCH = 100;
const PAGE = 5000;

/** Every document of `collectionId` matching `queries`, `select`ed, in cursor pages. */
async function everyDocument(
  databases: Databases,
  collectionId: string,
  queries: string[],
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let after: string | null = null;
  for (;;) {
    const { documents }: { documents: { $id: string }[] } = await databases.listDocuments({
      databaseId: DATABASE_ID,
      collectionId,
      queries: [
        ...queries,
        Query.orderAsc('$id'),
        Query.limit(PAGE),
        ...(after ? [Query.cursorAfter(after)] : []),
      ],
    });
    out.push(...(documents as unknown as Record<string, unknown>[]));
    if (documents.length < PAGE) return out;
    after = documents[documents.length - 1]!.$id;
  }
}

function parseData(value: unknown): Record<string, unknown> {
  if (typeof value !== 'string') return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The evidence of each of `orderIds` (at most {@link AUDIT_BATCH}). */
export async function readEvidence(
  client: Client,
  orderIds: readonly string[],
): Promise<Map<string, OrderEvidence>> {
  const databases = new Databases(client);
  const ids = [...orderIds];
  const live = [Query.equal('orderId', ids), Query.equal('deleted', [false])];
  const [notes, attachments, records] = await Promise.all([
    everyDocument(databases, COLLECTIONS.notes, [...live, Query.select(['orderId'])]),
    everyDocument(databases, COLLECTIONS.attachments, [...live, Query.select(['orderId'])]),
    everyDocument(databases, COLLECTIONS.activity, [
      Query.equal('orderId', ids),
      Query.select(['orderId', 'kind', 'data']),
    ]),
  ]);
  const evidence = new Map<
    string,
    { liveNotes: number; liveAttachments: number; records: AuditedRecord[] }
  >(ids.map((id) => [id, { liveNotes: 0, liveAttachments: 0, records: [] }]));
  for (const note of notes) evidence.get(note.orderId as string)!.liveNotes++;
  for (const attachment of attachments)
    evidence.get(attachment.orderId as string)!.liveAttachments++;
  for (const record of records)
    evidence.get(record.orderId as string)!.records.push({
      id: record.$id as string,
      kind: record.kind as string,
      data: parseData(record.data),
    });
  return evidence;
}

/** The drift of `orders` (any number; read {@link AUDIT_BATCH} at a time). */
export async function auditOrders(
  client: Client,
  orders: readonly OrderDocument[],
): Promise<Drift[]> {
  const drift: Drift[] = [];
  for (let start = 0; start < orders.length; start += AUDIT_BATCH) {
    const batch = orders.slice(start, start + AUDIT_BATCH);
    const evidence = await readEvidence(
      client,
      batch.map((order) => order.$id),
    );
    for (const order of batch)
      drift.push(
        ...checkOrder(
          {
            id: order.$id,
            status: order.status,
            rev: order.rev,
            noteCount: order.noteCount ?? 0,
            attachmentCount: order.attachmentCount ?? 0,
          },
          evidence.get(order.$id)!,
          activityIdFor,
        ),
      );
  }
  return drift;
}

/** Nothing (left) to repair on the order as read again. */
class NothingToRepair extends Error {}

/**
 * Repairs one order's drift, decided again on the order as read inside
 * {@link commitUntilLanded}: counts set to what they count and the missing revisions' records
 * written as `repaired`, with a `repaired` record of the change itself, in one transaction.
 * Returns the drift it mended ([] when nothing was left to mend).
 */
export async function repairOrder(client: Client, orderId: string): Promise<Drift[]> {
  let mended: Drift[] = [];
  try {
    await commitUntilLanded(client, orderId, async (read) => {
      const drift = await auditOrders(client, [read]);
      const plan = planRepair(orderId, drift);
      const writable = drift.filter((item) => item.kind !== 'movedBackwards');
      if (!plan || writable.length === 0) throw new NothingToRepair();
      mended = writable;
      const at = Date.now();
      const lost: StagedWrite[] = plan.missingRevs.map((rev) =>
        activityWrite(orderId, rev, { kind: 'repaired', data: { lost: true } }, SYSTEM_ACTOR, at),
      );
      return {
        change: {
          patch: {
            rev: read.rev + 1,
            updatedById: SYSTEM_ACTOR.id,
            updatedByName: SYSTEM_ACTOR.name,
            ...(plan.noteCount === undefined ? {} : { noteCount: plan.noteCount }),
            ...(plan.attachmentCount === undefined
              ? {}
              : { attachmentCount: plan.attachmentCount }),
          },
          activity: { kind: 'repaired', data: { drift: writable } },
        },
        author: SYSTEM_ACTOR,
        writes: lost,
      };
    });
  } catch (error) {
    if (error instanceof NothingToRepair) return [];
    throw error;
  }
  return mended;
}
