/**
 * The page side of bench:storage, bundled by esbuild and run in Chromium: the same
 * deterministic bytes as the Node side, uploaded through the web SDK or with one plain request.
 */
import { Client, ID, Storage } from 'appwrite';

/** What the bench asks the page to do. */
export interface PageUpload {
  endpoint: string;
  project: string;
  session: string;
  bucketId: string;
  size: number;
  seed: number;
}

let cached: { size: number; seed: number; file: File } | null = null;

/** xorshift32 bytes, as scripts/bench-storage.ts makes them. */
function fileOf(size: number, seed: number): File {
  if (cached && cached.size === size && cached.seed === seed) return cached.file;
  const words = new Uint32Array(Math.ceil(size / 4));
  let state = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[i] = state >>> 0;
  }
  const file = new File([new Uint8Array(words.buffer, 0, size)], 'bench.bin');
  cached = { size, seed, file };
  return file;
}

async function viaSdk(task: PageUpload): Promise<{ ms: number; id: string }> {
  const file = fileOf(task.size, task.seed);
  const client = new Client()
    .setEndpoint(task.endpoint)
    .setProject(task.project)
    .setSession(task.session);
  const started = performance.now();
  const created = await new Storage(client).createFile({
    bucketId: task.bucketId,
    fileId: ID.unique(),
    file,
  });
  return { ms: performance.now() - started, id: created.$id };
}

async function viaPlainRequest(task: PageUpload): Promise<{ ms: number; id: string }> {
  const file = fileOf(task.size, task.seed);
  const form = new FormData();
  form.append('fileId', ID.unique());
  form.append('file', file, file.name);
  const started = performance.now();
  const response = await fetch(`${task.endpoint}/storage/buckets/${task.bucketId}/files`, {
    method: 'POST',
    headers: { 'X-Appwrite-Project': task.project, 'X-Appwrite-Session': task.session },
    body: form,
  });
  const body = (await response.json()) as { $id: string; message?: string };
  if (response.status !== 201) throw new Error(`plain upload: ${response.status} ${body.message}`);
  return { ms: performance.now() - started, id: body.$id };
}

(window as unknown as Record<string, unknown>).bench = {
  prepare: (size: number, seed: number) => void fileOf(size, seed),
  sdk: viaSdk,
  plain: viaPlainRequest,
};
