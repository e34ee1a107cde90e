import { ORPHAN_AFTER_MS } from '../../../domain/files.ts';

/** A stored file as the sweep reads it. */
export interface StoredFile {
  $id: string;
  /** When the file was last written (its last chunk, or its permissions). */
  $updatedAt: string;
}

/**
 * The ids of the files of `files` that are orphans at `now`: no record names them (`named`) and
 * nothing has touched them for {@link ORPHAN_AFTER_MS} — an upload refused at attach whose tab
 * closed before the client deleted it, an upload never attached, a replaced product image the
 * client could not delete. A younger file may still be on its way to its record (an upload is
 * attached within `ATTACH_WITHIN_MS`, ten minutes less, or refused).
 */
export function orphansOf(
  files: readonly StoredFile[],
  named: ReadonlySet<string>,
  now: number,
): string[] {
  const cutoff = now - ORPHAN_AFTER_MS;
  return files
    .filter((file) => !named.has(file.$id) && Date.parse(file.$updatedAt) < cutoff)
    .map((file) => file.$id);
}

/** What one sweep did. */
export interface SweepRun {
  /** Files read, in both buckets. */
  checked: number;
  /** Orphans deleted. */
  deleted: number;
  /** False when the run stopped before the end of a bucket (its time budget, a file gone). */
  complete: boolean;
}

/** The sweep's log line. */
export function describeSweep(run: SweepRun): string {
  const end = run.complete ? 'every file checked' : 'stopped early, the next run goes on';
  return `sweep-uploads: ${run.checked} files checked, ${run.deleted} orphans deleted; ${end}`;
}
