import type { Client } from 'appwrite';
import { BUCKETS, DESK_SNAPSHOT_FILE_ID } from '../../domain/ids.ts';
import { mark } from '../sync/marks.ts';
import type { StoredSnapshot } from '../sync/persist.ts';
import { decodeSnapshotFile } from '../sync/snapshot-file.ts';

/**
 * Downloads the desk's server-kept snapshot of the orders (the file the `desk-snapshot` function
 * keeps in the `snapshots` bucket, readable by the desk team) with the SDK's request (project,
 * session). Undefined when there is none to be had: not written yet, not the caller's to read,
 * the backend unreachable, or bytes that are not a snapshot file. The body is taken as a `Blob`
 * (the browser process collects it; read as an `ArrayBuffer` it would be read on the page's main
 * thread in small steps).
 */
export async function downloadServerSnapshot(client: Client): Promise<StoredSnapshot | undefined> {
  const path = `/storage/buckets/${BUCKETS.snapshots}/files/${DESK_SNAPSHOT_FILE_ID}/download`;
  const { uri, options } = client.prepareRequest(
    'GET',
    new URL(client.config.endpoint + path),
    { 'X-Appwrite-Project': client.config.project },
    {},
  );
  mark('server-snapshot-request');
  try {
    const response = await fetch(uri, options);
    if (!response.ok) return undefined;
    const body = await (await response.blob()).arrayBuffer();
    mark('server-snapshot-received');
    return decodeSnapshotFile(body);
  } catch {
    return undefined;
  }
}
