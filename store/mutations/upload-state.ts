import type { AppError } from '../../domain/errors.ts';

/** What an upload is for: an order's attachment, or a product's image. */
export type UploadPurpose =
  { kind: 'attachment'; orderId: string } | { kind: 'product-image'; productId: string };

/** One file this tab is uploading (or failed to), shown until it is attached or dismissed. */
export interface UploadState {
  /** The upload's file id. */
  id: string;
  purpose: UploadPurpose;
  name: string;
  sizeBytes: number;
  status: 'uploading' | 'attaching' | 'canceling' | 'failed';
  /** The fraction sent (0–1), as the SDK reports it after each 5 MB chunk; null before. */
  progress: number | null;
  error: AppError | null;
  /** What "Try again" does: send the file again, or only attach it; null: it cannot be retried. */
  retry: 'upload' | 'attach' | null;
}
