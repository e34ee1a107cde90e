import { AppwriteException, Client, ID, Storage, type Payload } from 'appwrite';
import { AppError } from '../../domain/errors.ts';
import { RULE_OF_BUCKET } from '../../domain/files.ts';
import { FUNCTIONS } from '../../domain/ids.ts';
import type { DocumentMeta } from '../../domain/schema.ts';
import {
  UploadCanceled,
  type AttachmentWrite,
  type FilesTransport,
} from '../mutations/files-transport.ts';
import { toAppError } from './errors.ts';
import { executeFunction, parseFunctionAnswer, type FunctionsClient } from './transport.ts';

/** The SDK parts the file writes use. */
export interface FilesSdk {
  client: Client;
  functions: FunctionsClient;
}

/**
 * A client for one upload, with the app client's endpoint, project and credentials. The SDK's
 * `createFile` has no way to abort: once stopped, this client sends no further request (the SDK
 * then gives up the upload), and {@link stop} resolves when the requests in flight have been
 * answered — after that, nothing more of the upload can reach the storage.
 */
class UploadClient extends Client {
  #stopped = false;
  readonly #inFlight = new Set<Promise<unknown>>();

  constructor(from: Client) {
    super();
    Object.assign(this.config, from.config);
    Object.assign(this.headers, from.headers);
  }

  override call(
    method: string,
    url: URL,
    headers?: Record<string, string>,
    params?: Payload,
    responseType?: string,
  ): Promise<unknown> {
    if (this.#stopped) return Promise.reject(new UploadCanceled());
    const request = super.call(method, url, headers, params, responseType);
    this.#inFlight.add(request);
    void request.finally(() => this.#inFlight.delete(request)).catch(() => {});
    return request;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }
}

/** The bucket's refusals as the product says them (docs/product.md §8). */
function uploadError(bucketId: string, error: unknown): AppError {
  const rule = RULE_OF_BUCKET[bucketId];
  if (rule && error instanceof AppwriteException) {
    if (error.type === 'storage_file_type_unsupported')
      return new AppError('UPLOAD_TYPE', rule.message);
    if (error.type === 'storage_invalid_file_size')
      return new AppError('UPLOAD_TOO_LARGE', rule.message);
  }
  return toAppError(error, 'upload files');
}

function isDocument(value: unknown): value is DocumentMeta {
  return (
    typeof value === 'object' && value !== null && typeof (value as DocumentMeta).$id === 'string'
  );
}

function isAttachmentWrite(value: unknown): value is AttachmentWrite {
  const answer = value as Partial<AttachmentWrite> | null;
  return isDocument(answer?.attachment) && isDocument(answer?.order);
}

/**
 * The production {@link FilesTransport}: uploads through the SDK's `createFile` (5 MB chunks,
 * `onProgress`), `attachment-action` and `export-orders` run synchronously, product images set
 * through `product-action`, links from the SDK's URL builders.
 */
export function createAppwriteFiles(sdk: FilesSdk): FilesTransport {
  const storage = new Storage(sdk.client);

  const run = (functionId: string, body: object) =>
    executeFunction(sdk.functions, 'do that', functionId, body);

  const deleteFile = async (bucketId: string, fileId: string) => {
    try {
      await storage.deleteFile({ bucketId, fileId });
    } catch (error) {
      if (error instanceof AppwriteException && error.code === 404) return;
      throw toAppError(error, 'delete files');
    }
  };

  return {
    newId: () => ID.unique(),

    upload(bucketId, fileId, file, onProgress) {
      const client = new UploadClient(sdk.client);
      let canceled = false;
      const done = new Storage(client)
        .createFile({
          bucketId,
          fileId,
          file,
          onProgress: (progress) => onProgress(progress.sizeUploaded / file.size),
        })
        .then(
          (created) => {
            if (canceled) throw new UploadCanceled();
            return {
              id: created.$id,
              name: created.name,
              sizeBytes: created.sizeOriginal,
              mimeType: created.mimeType,
            };
          },
          (error: unknown) => {
            throw canceled ? new UploadCanceled() : uploadError(bucketId, error);
          },
        );
      return {
        done,
        async cancel() {
          canceled = true;
          await client.stop();
          await deleteFile(bucketId, fileId);
        },
      };
    },

    deleteFile,

    async attach(orderId, fileId) {
      const execution = await run(FUNCTIONS.attachmentAction, {
        action: 'attach',
        orderId,
        fileId,
      });
      return parseFunctionAnswer(execution, isAttachmentWrite);
    },

    async removeAttachment(attachmentId) {
      const execution = await run(FUNCTIONS.attachmentAction, { action: 'remove', attachmentId });
      return parseFunctionAnswer(execution, isAttachmentWrite);
    },

    async setProductImage(productId, fileId) {
      const execution = await run(FUNCTIONS.productAction, {
        action: 'update',
        productId,
        changes: { imageFileId: fileId },
      });
      return parseFunctionAnswer(execution, isDocument);
    },

    async startExport(exportId, filter) {
      const execution = await run(FUNCTIONS.exportOrders, { exportId, filter });
      return parseFunctionAnswer(execution, isDocument);
    },

    fileUrl(bucketId, fileId, view) {
      return view.kind === 'preview'
        ? storage.getFilePreview({ bucketId, fileId, width: view.width, height: view.height })
        : storage.getFileDownload({ bucketId, fileId });
    },
  };
}
