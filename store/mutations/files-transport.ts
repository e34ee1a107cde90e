import type { ExportFilter } from '../../domain/exports.ts';
import type { DocumentMeta } from '../../domain/schema.ts';

/** A file as the storage has it once an upload is complete. */
export interface UploadedFile {
  id: string;
  name: string;
  sizeBytes: number;
  mimeType: string;
}

/** An upload under way: its end, and how to stop it. */
export interface FileUpload {
  /** Resolves with the complete file; rejects with the failure, or {@link UploadCanceled}. */
  done: Promise<UploadedFile>;
  /**
   * Stops the upload: no further request is sent, the ones in flight are awaited (the SDK cannot
   * abort them), then whatever reached the storage is deleted, so nothing is left behind.
   */
  cancel(): Promise<void>;
}

/** What a canceled upload's `done` rejects with. */
export class UploadCanceled extends Error {
  constructor() {
    super('The upload was canceled.');
    this.name = 'UploadCanceled';
  }
}

/** The answer of an attachment write: the attachment record and its order as committed. */
export interface AttachmentWrite {
  attachment: DocumentMeta;
  order: DocumentMeta;
}

/** How a file is shown: an image preview of a size, or the download. */
export type FileView = { kind: 'preview'; width: number; height: number } | { kind: 'download' };

/**
 * Where the store's file writes go (store/appwrite/files-transport.ts in production): uploads to
 * the storage with progress, the `attachment-action` and `export-orders` functions, product
 * images, and the links the views show files with. Like the `DeskTransport`, calls reject with
 * an `AppError`.
 */
export interface FilesTransport {
  /** A new unique id (uploads, exports). */
  newId(): string;
  /** Starts an upload; `onProgress` hears the fraction sent (0–1) after each 5 MB chunk. */
  upload(
    bucketId: string,
    fileId: string,
    file: File,
    onProgress: (fraction: number) => void,
  ): FileUpload;
  deleteFile(bucketId: string, fileId: string): Promise<void>;
  /** Attaches a complete upload to an order (`attachment-action`). */
  attach(orderId: string, fileId: string): Promise<AttachmentWrite>;
  /** Removes an attachment (`attachment-action`). */
  removeAttachment(attachmentId: string): Promise<AttachmentWrite>;
  /** Sets or clears a product's image; resolves with the product document. */
  setProductImage(productId: string, fileId: string | null): Promise<DocumentMeta>;
  /** Starts an export (`export-orders`); resolves with its `queued` record. */
  startExport(exportId: string, filter: ExportFilter): Promise<DocumentMeta>;
  /** The URL a view shows a file with (the browser sends the session with it). */
  fileUrl(bucketId: string, fileId: string, view: FileView): string;
}
