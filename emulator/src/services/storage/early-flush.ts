/** Bytes recorded in an upload between two flushes started in the background. */
const FLUSH_EVERY = 32 * 1024 * 1024;

interface UploadFlush {
  /** Bytes recorded since the last flush started. */
  since: number;
  running: Promise<void> | null;
}

/**
 * Starts the flush of an upload's file to the disk (`fdatasync`) in the background every 32 MiB
 * recorded, one at a time: chunks are acknowledged once in the page cache, and the one flush that
 * must finish before the upload is recorded complete then only has the last few MiB to write —
 * not the whole file (0.2 s for 200 MB on this machine's disk) while the client waits. Nothing
 * waits for these flushes and their failures are ignored: the final flush is the one that counts.
 */
export class EarlyFlushes {
  private readonly flush: (path: string) => Promise<void>;
  private readonly every: number;
  private readonly uploads = new Map<string, UploadFlush>();

  constructor(flush: (path: string) => Promise<void>, every = FLUSH_EVERY) {
    this.flush = flush;
    this.every = every;
  }

  /** `bytes` of upload `key` (its file at `path`) were recorded: starts a flush when one is due. */
  recorded(key: string, path: string, bytes: number): void {
    const upload = this.uploads.get(key) ?? { since: 0, running: null };
    this.uploads.set(key, upload);
    upload.since += bytes;
    if (upload.since < this.every || upload.running) return;
    upload.since = 0;
    upload.running = this.flush(path)
      .catch(() => {})
      .finally(() => {
        upload.running = null;
      });
  }

  /** Whether a flush of upload `key` is running. */
  running(key: string): boolean {
    return this.uploads.get(key)?.running != null;
  }

  /** Forgets upload `key` (finished or deleted); a flush running goes on by itself. */
  forget(key: string): void {
    this.uploads.delete(key);
  }
}
