import { AppError } from '../../domain/errors.ts';
import type { ExportFilter } from '../../domain/exports.ts';
import { ATTACHMENT_RULE, PRODUCT_IMAGE_RULE, checkFile } from '../../domain/files.ts';
import { BUCKETS } from '../../domain/ids.ts';
import type { DocumentMeta } from '../../domain/schema.ts';
import { toAppError } from '../appwrite/errors.ts';
import type { RemoteChange, SyncedCollection } from '../records/changes.ts';
import type { DeskSlice, DeskState } from '../state.ts';
import { recordFromDocument } from '../sync/documents.ts';
import type { DeskChange } from '../transactions.ts';
import {
  UploadCanceled,
  type FileUpload,
  type FilesTransport,
  type FileView,
} from './files-transport.ts';
import type { MutationResult, MutationTarget, MutationsState } from './mutations.ts';
import type { UploadPurpose, UploadState } from './upload-state.ts';

/** The file writes: attachments, product images, exports. None throws. */
export interface FilesActions {
  /**
   * Uploads files to an order: each checked first (the product's limits; a refused one is listed
   * with the reason and never sent), uploaded with progress, then attached by `attachment-action`.
   */
  uploadAttachments(orderId: string, files: readonly File[]): void;
  /** Stops an upload; nothing of it is left in the storage. */
  cancelUpload(uploadId: string): Promise<void>;
  /** Tries a failed upload again (sent again, or only attached when the file is complete). */
  retryUpload(uploadId: string): void;
  /** Forgets a failed upload (and deletes what reached the storage). */
  dismissUpload(uploadId: string): void;
  removeAttachment(attachmentId: string): Promise<MutationResult>;
  /** Uploads a product's image (≤ 5 MB) and sets it, replacing (and deleting) the previous one. */
  setProductImage(productId: string, file: File): Promise<MutationResult>;
  removeProductImage(productId: string): Promise<MutationResult>;
  /** Starts a CSV export of the orders matching `filter` (`export-orders`). */
  startExport(filter: ExportFilter): Promise<MutationResult>;
  /** The URL to show a file with ('' without a files transport). */
  fileUrl(bucketId: string, fileId: string, view: FileView): string;
}

/** What the file writes need from their surroundings. */
export interface FilesContext {
  files(): FilesTransport | null;
  commit(change: DeskChange): void;
}

const UNAVAILABLE = () => new AppError('SERVER_ERROR', 'Files are not available.');

function without<V>(map: Readonly<Record<string, V>>, key: string): Record<string, V> {
  if (!(key in map)) return map;
  const { [key]: _gone, ...rest } = map;
  return rest;
}

function changesOf(collection: SyncedCollection, doc: DocumentMeta): RemoteChange[] {
  const record = recordFromDocument(collection, doc);
  return record === null ? [] : [{ collection, kind: 'upsert', record } as RemoteChange];
}

/** Refusals the same file meets again however often it is sent: not offered to try again. */
const FINAL_REFUSALS: ReadonlySet<AppError['code']> = new Set([
  'UPLOAD_TYPE',
  'UPLOAD_TOO_LARGE',
  'FORBIDDEN',
]);

function bucketOf(purpose: UploadPurpose): string {
  return purpose.kind === 'attachment' ? BUCKETS.attachments : BUCKETS.productImages;
}

/** The file writes' part: uploads are kept in the mutations' `uploads`. */
export function createFilesSlice(context: FilesContext): DeskSlice<FilesActions> {
  /** The files of uploads that may be sent again, and the uploads under way. */
  const chosen = new Map<string, File>();
  const tasks = new Map<string, FileUpload>();

  return (_set, get, api) => {
    const commitUploads = (
      uploads: MutationsState['uploads'],
      extra: Omit<DeskChange, 'mutations'> & { mutations?: Partial<MutationsState> } = {},
    ) => context.commit({ ...extra, mutations: { ...extra.mutations, uploads } });

    const patch = (id: string, changes: Partial<UploadState>) => {
      const current = get().uploads[id];
      if (current) commitUploads({ ...get().uploads, [id]: { ...current, ...changes } });
    };

    const fail = (id: string, error: AppError, retry: UploadState['retry']) =>
      patch(id, { status: 'failed', error, retry });

    const forget = (id: string, extra: Omit<DeskChange, 'mutations'> = {}) => {
      chosen.delete(id);
      tasks.delete(id);
      commitUploads(without(get().uploads, id), extra);
    };

    /** Attaches or sets a complete upload; the answer and the upload's end in one commit. */
    const finish = async (id: string) => {
      const upload = get().uploads[id];
      const files = context.files();
      if (!upload || !files) return;
      patch(id, { status: 'attaching', error: null });
      try {
        if (upload.purpose.kind === 'attachment') {
          const answer = await files.attach(upload.purpose.orderId, id);
          forget(id, {
            remote: [
              ...changesOf('attachments', answer.attachment),
              ...changesOf('orders', answer.order),
            ],
          });
        } else {
          const { productId } = upload.purpose;
          const previous = get().products.get(productId)?.imageFileId ?? null;
          const product = await files.setProductImage(productId, id);
          forget(id, { remote: changesOf('products', product) });
          if (previous && previous !== id)
            void files.deleteFile(BUCKETS.productImages, previous).catch(() => {});
        }
      } catch (thrown) {
        const error = toAppError(thrown, 'attach files');
        if (!FINAL_REFUSALS.has(error.code)) return fail(id, error, 'attach');
        // Never to be attached: the file sent is deleted now, not left in the bucket.
        void files.deleteFile(bucketOf(upload.purpose), id).catch(() => {});
        fail(id, error, null);
      }
    };

    const send = async (id: string) => {
      const upload = get().uploads[id];
      const file = chosen.get(id);
      const files = context.files();
      if (!upload || !file) return;
      if (!files) return fail(id, UNAVAILABLE(), null);
      patch(id, { status: 'uploading', progress: null, error: null, retry: null });
      const task = files.upload(bucketOf(upload.purpose), id, file, (progress) => {
        if (get().uploads[id]?.status === 'uploading') patch(id, { progress });
      });
      tasks.set(id, task);
      try {
        await task.done;
      } catch (thrown) {
        tasks.delete(id);
        if (thrown instanceof UploadCanceled || get().uploads[id]?.status === 'canceling') return;
        const error = toAppError(thrown, 'upload files');
        return fail(id, error, FINAL_REFUSALS.has(error.code) ? null : 'upload');
      }
      tasks.delete(id);
      if (get().uploads[id]?.status !== 'uploading') return;
      await finish(id);
    };

    /** Lists a new upload and starts it, or lists it refused when it breaks the limits. */
    const start = (purpose: UploadPurpose, file: File): string => {
      const files = context.files();
      const id = files?.newId() ?? `local-${Math.random().toString(36).slice(2)}`;
      const rule = purpose.kind === 'attachment' ? ATTACHMENT_RULE : PRODUCT_IMAGE_RULE;
      const problem = files ? checkFile(rule, file) : UNAVAILABLE();
      const upload: UploadState = {
        id,
        purpose,
        name: file.name,
        sizeBytes: file.size,
        status: problem ? 'failed' : 'uploading',
        progress: null,
        error: problem,
        retry: null,
      };
      commitUploads({ ...get().uploads, [id]: upload });
      if (!problem) {
        chosen.set(id, file);
        void send(id);
      }
      return id;
    };

    /** A write that is not an upload: marked running, its answer applied, or its failure kept. */
    const write = async (
      target: MutationTarget,
      action: string,
      run: (files: FilesTransport) => Promise<RemoteChange[]>,
    ): Promise<MutationResult> => {
      const files = context.files();
      const s = get();
      if (!files) {
        const error = UNAVAILABLE();
        context.commit({
          mutations: { failures: { ...s.failures, [target]: { action, error, at: Date.now() } } },
        });
        return { ok: false, error };
      }
      context.commit({
        mutations: {
          running: { ...s.running, [target]: action },
          failures: without(s.failures, target),
        },
      });
      try {
        const remote = await run(files);
        context.commit({ remote, mutations: { running: without(get().running, target) } });
        return { ok: true };
      } catch (thrown) {
        const error = toAppError(thrown, action);
        const now = get();
        context.commit({
          mutations: {
            running: without(now.running, target),
            failures: { ...now.failures, [target]: { action, error, at: Date.now() } },
          },
        });
        return { ok: false, error };
      }
    };

    /** Waits until an upload has ended: gone (attached or canceled) or failed. */
    const ended = (id: string) =>
      new Promise<UploadState | undefined>((resolve) => {
        const end = (state: DeskState) => {
          const upload = state.uploads[id];
          return !upload || upload.status === 'failed' ? { upload } : null;
        };
        const now = end(get());
        if (now) return resolve(now.upload);
        const unsubscribe = api.subscribe((state) => {
          const over = end(state);
          if (!over) return;
          unsubscribe();
          resolve(over.upload);
        });
      });

    return {
      uploadAttachments(orderId, files) {
        for (const file of files) start({ kind: 'attachment', orderId }, file);
      },

      async cancelUpload(uploadId) {
        const upload = get().uploads[uploadId];
        if (!upload || upload.status !== 'uploading') return;
        patch(uploadId, { status: 'canceling' });
        const task = tasks.get(uploadId);
        try {
          await task?.cancel();
          forget(uploadId);
        } catch (thrown) {
          fail(uploadId, toAppError(thrown, 'cancel uploads'), null);
        }
      },

      retryUpload(uploadId) {
        const upload = get().uploads[uploadId];
        if (!upload || upload.status !== 'failed' || upload.retry === null) return;
        if (upload.retry === 'attach') {
          void finish(uploadId);
          return;
        }
        // Sent again under a new id: what the failed attempt left is deleted.
        const file = chosen.get(uploadId);
        const files = context.files();
        forget(uploadId);
        if (files) void files.deleteFile(bucketOf(upload.purpose), uploadId).catch(() => {});
        if (file) start(upload.purpose, file);
      },

      dismissUpload(uploadId) {
        const upload = get().uploads[uploadId];
        if (!upload || upload.status !== 'failed') return;
        const files = context.files();
        if (files && upload.retry !== null)
          void files.deleteFile(bucketOf(upload.purpose), uploadId).catch(() => {});
        forget(uploadId);
      },

      removeAttachment(attachmentId) {
        return write(`attachment:${attachmentId}`, 'remove attachments', async (files) => {
          const answer = await files.removeAttachment(attachmentId);
          return [
            ...changesOf('attachments', answer.attachment),
            ...changesOf('orders', answer.order),
          ];
        });
      },

      async setProductImage(productId, file) {
        const id = start({ kind: 'product-image', productId }, file);
        const upload = await ended(id);
        return upload?.error ? { ok: false, error: upload.error } : { ok: true };
      },

      removeProductImage(productId) {
        return write(`product:${productId}`, 'edit the catalog', async (files) => {
          const previous = get().products.get(productId)?.imageFileId ?? null;
          const product = await files.setProductImage(productId, null);
          if (previous) void files.deleteFile(BUCKETS.productImages, previous).catch(() => {});
          return changesOf('products', product);
        });
      },

      startExport(filter) {
        return write('export:new', 'export orders', async (files) =>
          changesOf('exports', await files.startExport(files.newId(), filter)),
        );
      },

      fileUrl(bucketId, fileId, view) {
        return context.files()?.fileUrl(bucketId, fileId, view) ?? '';
      },
    };
  };
}
