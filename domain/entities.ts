import type { DocumentMeta } from './order.ts';

/** A catalog product. */
export interface Product {
  id: string;
  updatedAt: number;
  name: string;
  description: string;
  priceCents: number;
  currency: string;
  active: boolean;
  imageFileId: string | null;
  sortOrder: number;
}

/** A note on an order; removal sets `deleted`. */
export interface Note {
  id: string;
  createdAt: number;
  updatedAt: number;
  orderId: string;
  authorId: string;
  authorName: string;
  body: string;
  deleted: boolean;
}

/** Kinds of activity records. */
export type ActivityKind =
  | 'created'
  | 'paid'
  | 'payment_failed'
  | 'claimed'
  | 'unclaimed'
  | 'status'
  | 'note'
  | 'attachment'
  | 'refund'
  | 'canceled';

/** One entry of an order's timeline. */
export interface Activity {
  id: string;
  updatedAt: number;
  orderId: string;
  kind: ActivityKind;
  actorId: string | null;
  actorName: string | null;
  data: Record<string, unknown>;
  at: number;
}

/** A file attached to an order. */
export interface Attachment {
  id: string;
  updatedAt: number;
  orderId: string;
  fileId: string;
  name: string;
  sizeBytes: number;
  mimeType: string;
  uploadedBy: string;
  deleted: boolean;
}

/** Status of a CSV export job. */
export type ExportStatus = 'queued' | 'running' | 'done' | 'failed';

/** A CSV export job. */
export interface ExportJob {
  id: string;
  createdAt: number;
  updatedAt: number;
  requestedBy: string;
  filter: Record<string, unknown>;
  status: ExportStatus;
  rowCount: number;
  fileId: string | null;
  error: string | null;
}

type Doc<T> = DocumentMeta & T;

function parseJsonObject(json: unknown): Record<string, unknown> {
  if (typeof json !== 'string') return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Converts a `products` document. */
export function productFromDocument(
  doc: Doc<Omit<Product, 'id' | 'updatedAt' | 'imageFileId'> & { imageFileId?: string | null }>,
): Product {
  return {
    id: doc.$id,
    updatedAt: Date.parse(doc.$updatedAt),
    name: doc.name,
    description: doc.description ?? '',
    priceCents: doc.priceCents,
    currency: doc.currency,
    active: doc.active,
    imageFileId: doc.imageFileId ?? null,
    sortOrder: doc.sortOrder ?? 0,
  };
}

/** Converts a `notes` document. */
export function noteFromDocument(
  doc: Doc<{
    orderId: string;
    authorId: string;
    authorName: string;
    body: string;
    deleted?: boolean;
  }>,
): Note {
  return {
    id: doc.$id,
    createdAt: Date.parse(doc.$createdAt),
    updatedAt: Date.parse(doc.$updatedAt),
    orderId: doc.orderId,
    authorId: doc.authorId,
    authorName: doc.authorName,
    body: doc.body,
    deleted: doc.deleted ?? false,
  };
}

/** Converts an `activity` document. */
export function activityFromDocument(
  doc: Doc<{
    orderId: string;
    kind: ActivityKind;
    actorId?: string | null;
    actorName?: string | null;
    data?: string | null;
    at: string;
  }>,
): Activity {
  return {
    id: doc.$id,
    updatedAt: Date.parse(doc.$updatedAt),
    orderId: doc.orderId,
    kind: doc.kind,
    actorId: doc.actorId ?? null,
    actorName: doc.actorName ?? null,
    data: parseJsonObject(doc.data),
    at: Date.parse(doc.at),
  };
}

/** Converts an `attachments` document. */
export function attachmentFromDocument(
  doc: Doc<Omit<Attachment, 'id' | 'updatedAt' | 'deleted'> & { deleted?: boolean }>,
): Attachment {
  return {
    id: doc.$id,
    updatedAt: Date.parse(doc.$updatedAt),
    orderId: doc.orderId,
    fileId: doc.fileId,
    name: doc.name,
    sizeBytes: doc.sizeBytes,
    mimeType: doc.mimeType,
    uploadedBy: doc.uploadedBy,
    deleted: doc.deleted ?? false,
  };
}

/** Converts an `exports` document. */
export function exportFromDocument(
  doc: Doc<{
    requestedBy: string;
    filter?: string | null;
    status: ExportStatus;
    rowCount?: number | null;
    fileId?: string | null;
    error?: string | null;
  }>,
): ExportJob {
  return {
    id: doc.$id,
    createdAt: Date.parse(doc.$createdAt),
    updatedAt: Date.parse(doc.$updatedAt),
    requestedBy: doc.requestedBy,
    filter: parseJsonObject(doc.filter),
    status: doc.status,
    rowCount: doc.rowCount ?? 0,
    fileId: doc.fileId ?? null,
    error: doc.error ?? null,
  };
}
