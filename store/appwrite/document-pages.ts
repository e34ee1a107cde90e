import { AppwriteException, Databases, type Client } from 'appwrite';
import { holdsUnsafeInteger } from '../../domain/json-integers.ts';

/** The `listDocuments` parameters the snapshot reads with. */
export interface ListDocumentsParams {
  databaseId: string;
  collectionId: string;
  queries?: string[];
  /** `false`: the backend does not count the matches. */
  total?: boolean;
}

/** The list of documents as `Databases.listDocuments` resolves it. */
type DocumentList = Awaited<ReturnType<Databases['listDocuments']>>;

/**
 * `Databases.listDocuments` for pages of thousands of documents: the same request (the SDK's
 * `prepareRequest`: project, session, locale), the same answer and errors, but the body is taken
 * as a `Blob` and read from it. Chromium reads a large `Response` through `text()` on the page's
 * main thread in small steps (190–430 ms for 5 MB of JSON here); as a `Blob` the browser
 * process collects it, and `blob()` then its `text()` take 90–150 ms (docs/benchmarks.md). A page
 * holding an integer beyond 2^53 ({@link holdsUnsafeInteger}) is asked again through the SDK,
 * which keeps it exact.
 */
export async function listDocumentsViaBlob(
  client: Client,
  params: ListDocumentsParams,
): Promise<DocumentList> {
  const { databaseId, collectionId, queries, total } = params;
  const path = `/databases/${encodeURIComponent(databaseId)}/collections/${encodeURIComponent(collectionId)}/documents`;
  const payload: Record<string, unknown> = {};
  if (queries !== undefined) payload['queries'] = queries;
  if (total !== undefined) payload['total'] = total;
  const headers = { 'X-Appwrite-Project': client.config.project, accept: 'application/json' };
  const url = new URL(client.config.endpoint + path);
  const { uri, options } = client.prepareRequest('GET', url, headers, payload);
  const response = await fetch(uri, options);
  const text = await (await response.blob()).text();
  const json = response.headers.get('content-type')?.includes('application/json');
  const data = (json ? JSON.parse(text) : { message: text }) as Record<string, unknown>;
  // An integer beyond 2^53 is read by the SDK itself (json-bigint), as it reads every answer.
  if (holdsUnsafeInteger(data)) return new Databases(client).listDocuments(params);
  if (response.status >= 400) {
    throw new AppwriteException(
      String(data['message'] ?? text),
      response.status,
      String(data['type'] ?? ''),
      text,
    );
  }
  return data as unknown as DocumentList;
}
