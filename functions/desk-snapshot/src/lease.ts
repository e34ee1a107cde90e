import { Databases, type Client } from 'node-appwrite';
import { COLLECTIONS, DATABASE_ID, DESK_SNAPSHOT_LEASE_ID } from '../../../domain/ids.ts';
import type { DocumentMeta } from '../../../domain/schema.ts';
import { isAppwriteError, updateDocumentIfUnchanged } from '../../_shared/appwrite.ts';

/**
 * How long a run holds the lease: the function's timeout (scripts/schema.ts), after which
 * Appwrite has ended the run; a lease a crashed run left is taken over then.
 */
export const LEASE_MS = 300_000;

const LEASE = {
  databaseId: DATABASE_ID,
  collectionId: COLLECTIONS.counters,
  documentId: DESK_SNAPSHOT_LEASE_ID,
} as const;

/** The lease document: until when (epoch ms) a run holds it, 0 once released. */
type LeaseDocument = DocumentMeta & { value: number };

/** A lease held by this run: the `$updatedAt` it was written with. */
export interface Lease {
  updatedAt: string;
}

/** Whether a lease held until `heldUntil` (epoch ms; 0: released) is free at `now`. */
export function isLeaseFree(heldUntil: number, now: number): boolean {
  return heldUntil <= now;
}

/**
 * Takes the lease on writing the snapshot file until `now` + {@link LEASE_MS}, or null while
 * another run holds it. Chunks of two uploads of one file id would mix into one file (Appwrite
 * adds a chunk to the upload of that id in progress), so one run at a time writes it. Taking and
 * releasing are writes that name the `$updatedAt` they read: of two runs, one wins.
 */
export async function takeLease(client: Client, now: number): Promise<Lease | null> {
  const databases = new Databases(client);
  const value = now + LEASE_MS;
  try {
    const created = await databases.createDocument({ ...LEASE, data: { value } });
    return { updatedAt: created.$updatedAt };
  } catch (error) {
    if (!isAppwriteError(error, 409)) throw error;
  }
  const current = (await databases.getDocument(LEASE)) as unknown as LeaseDocument;
  if (!isLeaseFree(current.value, now)) return null;
  try {
    const taken = await updateDocumentIfUnchanged(
      client,
      COLLECTIONS.counters,
      DESK_SNAPSHOT_LEASE_ID,
      { value },
      current.$updatedAt,
    );
    return { updatedAt: taken.$updatedAt };
  } catch (error) {
    if (isAppwriteError(error, 409) || isAppwriteError(error, 404)) return null;
    throw error;
  }
}

/** Releases `lease` unless another run took it over meanwhile (then it is theirs). */
export async function releaseLease(client: Client, lease: Lease): Promise<void> {
  try {
    await updateDocumentIfUnchanged(
      client,
      COLLECTIONS.counters,
      DESK_SNAPSHOT_LEASE_ID,
      { value: 0 },
      lease.updatedAt,
    );
  } catch (error) {
    if (!isAppwriteError(error, 409) && !isAppwriteError(error, 404)) throw error;
  }
}
