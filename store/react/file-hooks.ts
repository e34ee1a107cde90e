import { useMemo } from 'react';
import type { ExportJob } from '../../domain/entities.ts';
import type { FileView } from '../mutations/files-transport.ts';
import type { UploadState } from '../mutations/upload-state.ts';
import type { DeskState } from '../state.ts';
import { useDeskStore, useDeskStoreApi } from './hooks.ts';

/**
 * The file writes (stable functions): `uploadAttachments`, `cancelUpload`, `retryUpload`,
 * `dismissUpload`, `removeAttachment`, `setProductImage`, `removeProductImage`, `startExport`.
 */
export function useFileActions(): Pick<
  DeskState,
  | 'uploadAttachments'
  | 'cancelUpload'
  | 'retryUpload'
  | 'dismissUpload'
  | 'removeAttachment'
  | 'setProductImage'
  | 'removeProductImage'
  | 'startExport'
> {
  return useDeskStoreApi().getState();
}

/** This tab's uploads to an order (in progress, attaching, or failed), oldest first. */
export function useOrderUploads(orderId: string): readonly UploadState[] {
  const uploads = useDeskStore((state) => state.uploads);
  return useMemo(
    () =>
      Object.values(uploads).filter(
        (upload) => upload.purpose.kind === 'attachment' && upload.purpose.orderId === orderId,
      ),
    [uploads, orderId],
  );
}

/** This tab's image upload for a product, or null. */
export function useProductImageUpload(productId: string): UploadState | null {
  const uploads = useDeskStore((state) => state.uploads);
  return useMemo(
    () =>
      Object.values(uploads).find(
        (upload) =>
          upload.purpose.kind === 'product-image' && upload.purpose.productId === productId,
      ) ?? null,
    [uploads, productId],
  );
}

/** The team's export jobs (managers), newest first. */
export function useExportJobs(): readonly ExportJob[] {
  return useDeskStore((state) => state.exportList);
}

/** The URL to show a file with (a preview of a size, or the download); '' when there is none. */
export function useFileUrl(bucketId: string, fileId: string | null, view: FileView): string {
  const store = useDeskStoreApi();
  const key = view.kind === 'preview' ? `${view.width}x${view.height}` : 'download';
  return useMemo(
    () => (fileId ? store.getState().fileUrl(bucketId, fileId, view) : ''),
    // `view` is described by `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, bucketId, fileId, key],
  );
}
