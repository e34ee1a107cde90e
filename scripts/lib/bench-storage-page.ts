/**
 * The page side of bench:storage, bundled by esbuild and run in Chromium: the file the bench
 * picked in the page's file input (the same bytes as the Node side), uploaded through the web SDK
 * or with one plain request.
 */
import { Client, ID, Storage } from 'appwrite';

/** What the bench asks the page to do. */
export interface PageUpload {
  endpoint: string;
  project: string;
  session: string;
  bucketId: string;
  size: number;
}

/** The file picked in the page's file input (`#bench-file`): a File on disk, as a person picks one. */
function pickedFile(size: number): File {
  const file = (document.getElementById('bench-file') as HTMLInputElement | null)?.files?.[0];
  if (!file || file.size !== size) throw new Error(`no ${size}-byte file picked in #bench-file`);
  return file;
}

async function viaSdk(task: PageUpload): Promise<{ ms: number; id: string }> {
  const file = pickedFile(task.size);
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
  const file = pickedFile(task.size);
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
  sdk: viaSdk,
  plain: viaPlainRequest,
};
