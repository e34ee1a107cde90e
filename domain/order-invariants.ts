import type { OrderStatus } from './order.ts';

/**
 * The invariants every order keeps with the records around it (issue 17): its counts equal what
 * they count, every revision has its activity record, and its status never moved backwards. Pure:
 * the caller reads the order and its evidence; `functions/repair-orders` repairs what it can.
 */

/** What the checker needs of an order. */
export interface AuditedOrder {
  id: string;
  status: OrderStatus;
  rev: number;
  noteCount: number;
  attachmentCount: number;
}

/** One activity record of the order, as stored. */
export interface AuditedRecord {
  id: string;
  kind: string;
  /** The record's `data`, parsed (empty when unreadable). */
  data: Record<string, unknown>;
}

/** What was found around the order. */
export interface OrderEvidence {
  /** Its notes that are not removed. */
  liveNotes: number;
  /** Its attachments that are not removed. */
  liveAttachments: number;
  records: readonly AuditedRecord[];
}

/** A broken invariant, and whether {@link planRepair} can mend it. */
export type Drift =
  | { orderId: string; kind: 'noteCount' | 'attachmentCount'; stored: number; counted: number }
  | { orderId: string; kind: 'missingRecords'; revs: number[] }
  | { orderId: string; kind: 'movedBackwards'; status: OrderStatus; reached: OrderStatus };

/** How far along the workflow each status is; canceled and refunded are final. */
const RANK: Record<OrderStatus, number> = {
  pending_payment: 0,
  payment_failed: 0,
  paid: 1,
  preparing: 2,
  ready: 3,
  fulfilled: 4,
  canceled: 5,
  refunded: 5,
};

function isStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && value in RANK;
}

/** The furthest status a record says the order reached, or null. */
function reachedBy(record: AuditedRecord): OrderStatus | null {
  switch (record.kind) {
    case 'paid':
      return 'paid';
    case 'canceled':
      return 'canceled';
    case 'status':
      return isStatus(record.data.to) ? record.data.to : null;
    case 'refund':
      return record.data.full === true ? 'refunded' : null;
    default:
      return null;
  }
}

/** The activity record id of revision `rev` (`<orderId>.r<rev>`, as functions/_shared writes it). */
export type RecordIdOf = (orderId: string, rev: number) => string;

/**
 * The invariants `order` breaks given `evidence`: `noteCount`/`attachmentCount` other than the
 * live notes/attachments; revisions 1…rev without their record (`recordId`); a status behind
 * one a record says it reached (canceled and refunded count as one final step).
 */
export function checkOrder(
  order: AuditedOrder,
  evidence: OrderEvidence,
  recordId: RecordIdOf,
): Drift[] {
  const drift: Drift[] = [];
  if (order.noteCount !== evidence.liveNotes)
    drift.push({
      orderId: order.id,
      kind: 'noteCount',
      stored: order.noteCount,
      counted: evidence.liveNotes,
    });
  if (order.attachmentCount !== evidence.liveAttachments)
    drift.push({
      orderId: order.id,
      kind: 'attachmentCount',
      stored: order.attachmentCount,
      counted: evidence.liveAttachments,
    });
  const ids = new Set(evidence.records.map((record) => record.id));
  const revs: number[] = [];
  for (let rev = 1; rev <= order.rev; rev++) if (!ids.has(recordId(order.id, rev))) revs.push(rev);
  if (revs.length > 0) drift.push({ orderId: order.id, kind: 'missingRecords', revs });
  let reached: OrderStatus | null = null;
  for (const record of evidence.records) {
    const status = reachedBy(record);
    if (status && (reached === null || RANK[status] > RANK[reached])) reached = status;
  }
  if (reached && RANK[order.status] < RANK[reached])
    drift.push({ orderId: order.id, kind: 'movedBackwards', status: order.status, reached });
  return drift;
}

/** What a repair writes on one order: its counts set right, records for the missing revisions. */
export interface RepairPlan {
  orderId: string;
  noteCount?: number;
  attachmentCount?: number;
  /** Revisions whose record is written as a `repaired` record. */
  missingRevs: number[];
  /** Drift no repair can mend (only logged): a status behind what was reached. */
  unrepairable: Drift[];
}

/**
 * The repair of one order's drift: counts set to what they count (a change of its own, so the
 * desk hears of it), missing records written as `repaired`; a status that moved backwards is
 * reported, never guessed at. Null when there is nothing to write.
 */
export function planRepair(orderId: string, drift: readonly Drift[]): RepairPlan | null {
  const plan: RepairPlan = { orderId, missingRevs: [], unrepairable: [] };
  for (const item of drift) {
    if (item.orderId !== orderId) continue;
    if (item.kind === 'noteCount') plan.noteCount = item.counted;
    else if (item.kind === 'attachmentCount') plan.attachmentCount = item.counted;
    else if (item.kind === 'missingRecords') plan.missingRevs.push(...item.revs);
    else plan.unrepairable.push(item);
  }
  const writes =
    plan.noteCount !== undefined || plan.attachmentCount !== undefined || plan.missingRevs.length;
  return writes || plan.unrepairable.length ? plan : null;
}

/** One line per drift, for a log. */
export function describeDrift(item: Drift): string {
  switch (item.kind) {
    case 'noteCount':
    case 'attachmentCount':
      return `${item.orderId}: ${item.kind} ${item.stored}, counted ${item.counted}`;
    case 'missingRecords':
      return `${item.orderId}: no activity record for rev ${item.revs.join(', ')}`;
    case 'movedBackwards':
      return `${item.orderId}: status ${item.status}, but it had reached ${item.reached}`;
  }
}
