import type { Segment } from '../sync/snapshot-codec.ts';
import type { SnapshotWrite } from '../sync/persist.ts';
import {
  deleteAllSnapshots,
  deleteSnapshot,
  writeSnapshot,
  type WriterReply,
  type WriterRequest,
} from './idb-writes.ts';

/**
 * The desk's snapshot writer: puts a snapshot's segments into IndexedDB off the page's main
 * thread (a put of a 0.27 MB segment holds the thread 5–50 ms; handing it over here, 1–2 ms).
 * A write arrives as `begin`, one `segment` a message and `commit`, and is put at once (nothing
 * here waits on this thread); requests are done one after another, in the order they came.
 */

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WriterRequest>) => void) | null;
  postMessage(reply: WriterReply): void;
};

let writing: { key: string; write: SnapshotWrite & { segments: Map<number, Segment> } } | null =
  null;
let queue: Promise<void> = Promise.resolve();

function answer(id: number, work: () => Promise<void>): void {
  queue = queue.then(work).then(
    () => scope.postMessage({ id, error: null }),
    (error: unknown) =>
      scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
}

scope.onmessage = ({ data: request }) => {
  switch (request.op) {
    case 'begin':
      writing = { key: request.key, write: { ...request.write, segments: new Map() } };
      return;
    case 'segment':
      writing?.write.segments.set(request.chunk, request.segment as Segment);
      return;
    case 'commit': {
      const done = writing;
      writing = null;
      answer(request.id, () =>
        done
          ? writeSnapshot(done.key, { ...done.write, urgent: true })
          : Promise.reject(new Error('No write begun.')),
      );
      return;
    }
    case 'delete':
      answer(request.id, () => deleteSnapshot(request.key));
      return;
    case 'clear':
      answer(request.id, deleteAllSnapshots);
  }
};
