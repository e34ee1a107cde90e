/**
 * What reconcile compares: a record's version stamp. `rev` is absent on entities without one;
 * `partial` marks a copy with only some fields (an order's list fields), which a whole copy of
 * the same version replaces.
 */
export interface Stamped {
  readonly id: string;
  readonly updatedAt: number;
  readonly rev?: number;
  readonly partial?: boolean;
}

/** Where a change came from: the backend (`remote`) or this tab's optimistic write (`local`). */
export type ChangeSource = 'remote' | 'local';

/** A deleted record's last stamp, kept so a late update cannot bring it back. */
export interface Tombstone {
  readonly id: string;
  readonly rev: number | undefined;
  readonly updatedAt: number;
}

/**
 * The conflict rule: `incoming` wins iff it has the higher `rev`, or the same `rev` (or none on
 * either side) and a later `updatedAt`, or the same version whole where the local copy is
 * partial. Otherwise equal stamps keep the local record, so a duplicate or an echo of what is
 * already held changes nothing, and a partial copy never replaces a whole one of its version.
 */
export function isNewer(incoming: Stamped, local: Stamped | undefined): boolean {
  if (local === undefined) return true;
  const a = incoming.rev;
  const b = local.rev;
  if (a !== undefined && b !== undefined && a !== b) return a > b;
  if (incoming.updatedAt !== local.updatedAt) return incoming.updatedAt > local.updatedAt;
  return local.partial === true && incoming.partial !== true;
}

/** The tombstone a delete of `record` leaves. */
export function tombstoneOf(record: Stamped): Tombstone {
  return { id: record.id, rev: record.rev, updatedAt: record.updatedAt };
}

/** What to do with one incoming change. */
export type Decision = 'apply' | 'ignore';

/**
 * Reconciles an incoming upsert with what is held: the current record (or none) and the
 * tombstone of its deletion (or none). An upsert no newer than the tombstone is a late copy of
 * a deleted record and is ignored: nothing is resurrected.
 */
export function reconcileUpsert(
  incoming: Stamped,
  local: Stamped | undefined,
  tombstone: Tombstone | undefined,
): Decision {
  if (tombstone !== undefined && !isNewer(incoming, tombstone)) return 'ignore';
  return isNewer(incoming, local) ? 'apply' : 'ignore';
}

/**
 * Reconciles a delete (whose payload is the record as it was deleted) with what is held. The
 * delete wins ties: the held record is removed unless it is strictly newer than the deleted
 * one, which a real backend never produces.
 */
export function reconcileDelete(deleted: Stamped, local: Stamped | undefined): Decision {
  if (local === undefined) return 'apply';
  return isNewer(local, deleted) ? 'ignore' : 'apply';
}
