import { Databases, type Client } from 'node-appwrite';
import type { PRODUCT_SCHEMA } from '../../../domain/entities.ts';
import { AppError } from '../../../domain/errors.ts';
import { PRODUCT_IMAGE_RULE } from '../../../domain/files.ts';
import { BUCKETS, COLLECTIONS, DATABASE_ID } from '../../../domain/ids.ts';
import { hasAtLeast } from '../../../domain/roles.ts';
import type { DocumentOf } from '../../../domain/schema.ts';
import {
  APPWRITE_ID,
  validateCurrency,
  validateDescription,
  validateName,
  validatePriceCents,
  validateSortOrder,
  type FieldError,
} from '../../../domain/validation.ts';
import {
  answerFailure,
  callerId,
  findDocument,
  functionClient,
  isAppwriteError,
} from '../../_shared/appwrite.ts';
import { loadDeskActor } from '../../_shared/desk-actor.ts';
import type { FunctionContext, FunctionOutput } from '../../_shared/runtime.ts';
import { readCheckedUpload } from '../../_shared/uploads.ts';

/** A product's fields as `product-action` takes them (all for `create`, some for `update`). */
export interface ProductFields {
  name: string;
  description: string;
  priceCents: number;
  currency: string;
  active: boolean;
  imageFileId: string | null;
  sortOrder: number;
}

/** A request of `product-action`. */
export type ProductRequest =
  | { action: 'create'; productId: string; product: ProductFields }
  | { action: 'update'; productId: string; changes: Partial<ProductFields> }
  | { action: 'archive'; productId: string };

/** A `products` document. */
export type ProductDocument = DocumentOf<typeof PRODUCT_SCHEMA>;

const FIELDS: readonly (keyof ProductFields)[] = [
  'name',
  'description',
  'priceCents',
  'currency',
  'active',
  'imageFileId',
  'sortOrder',
];

const REQUIRED: readonly (keyof ProductFields)[] = ['name', 'priceCents', 'currency'];

function refuseField(problem: FieldError): never {
  throw new AppError('VALIDATION', problem.message, { field: problem.field });
}

/** Checks one field by §4.1's rule; a wrong type is refused like a wrong value. */
function checkField(key: keyof ProductFields, value: unknown): ProductFields[typeof key] {
  const text = (check: (v: string) => FieldError | null) => {
    if (typeof value !== 'string') refuseField(check('') ?? { field: key, message: 'Enter text.' });
    const problem = check(value);
    if (problem) refuseField(problem);
    return value;
  };
  switch (key) {
    case 'name': {
      const name = text((v) => validateName(v, 'name'));
      if (name !== name.trim())
        refuseField({ field: 'name', message: 'Remove the spaces around the name.' });
      return name;
    }
    case 'description':
      return text((v) => validateDescription(v, 'description'));
    case 'currency':
      return text((v) => validateCurrency(v, 'currency'));
    case 'priceCents': {
      const problem = validatePriceCents(typeof value === 'number' ? value : NaN, 'priceCents');
      if (problem) refuseField(problem);
      return value as number;
    }
    case 'sortOrder': {
      const problem = validateSortOrder(typeof value === 'number' ? value : NaN, 'sortOrder');
      if (problem) refuseField(problem);
      return value as number;
    }
    case 'active':
      if (typeof value !== 'boolean')
        refuseField({ field: 'active', message: 'active must be true or false.' });
      return value;
    case 'imageFileId':
      if (value === null) return null;
      if (typeof value !== 'string' || !APPWRITE_ID.test(value))
        refuseField({ field: 'imageFileId', message: 'imageFileId must be a file id or null.' });
      return value;
  }
}

function checkFields(value: unknown, field: string, create: boolean): Partial<ProductFields> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new AppError('VALIDATION', `${field} must be an object.`, { field });
  const given = value as Record<string, unknown>;
  const extra = Object.keys(given).find((key) => !FIELDS.includes(key as keyof ProductFields));
  if (extra !== undefined)
    throw new AppError('VALIDATION', `"${extra.slice(0, 40)}" cannot be set on a product.`, {
      field: extra.slice(0, 40),
    });
  if (create) {
    const missing = REQUIRED.find((key) => !(key in given));
    if (missing) refuseField(checkFieldMissing(missing));
  }
  const fields: Partial<ProductFields> = {};
  for (const key of FIELDS)
    if (key in given) (fields as Record<string, unknown>)[key] = checkField(key, given[key]);
  if (!create && Object.keys(fields).length === 0)
    throw new AppError('VALIDATION', 'Nothing to change.', { field });
  return fields;
}

function checkFieldMissing(key: keyof ProductFields): FieldError {
  if (key === 'name') return { field: key, message: 'Enter a name.' };
  if (key === 'priceCents') return { field: key, message: 'Enter a price like 3.80.' };
  return { field: key, message: `${key} is required.` };
}

/**
 * Validates the request body: `{action: 'create', productId, product}`, `{action: 'update',
 * productId, changes}` or `{action: 'archive', productId}`, each field by docs/product.md §4.1
 * (a price is whole cents 0–1,000,000: `-1` is refused; the name is not trimmed for you).
 */
export function parseRequest(bodyText: string): ProductRequest {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new AppError('VALIDATION', 'The request body must be JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('VALIDATION', 'The request body must be a JSON object.');
  const { action, productId, product, changes } = body as Record<string, unknown>;
  if (action !== 'create' && action !== 'update' && action !== 'archive')
    throw new AppError('VALIDATION', `Unknown action "${String(action).slice(0, 40)}".`, {
      field: 'action',
    });
  if (typeof productId !== 'string' || !APPWRITE_ID.test(productId))
    throw new AppError('VALIDATION', 'productId must be an id.', { field: 'productId' });
  if (action === 'archive') return { action, productId };
  if (action === 'update')
    return { action, productId, changes: checkFields(changes, 'changes', false) };
  const fields = checkFields(product, 'product', true);
  return {
    action,
    productId,
    product: {
      description: '',
      active: true,
      imageFileId: null,
      sortOrder: 0,
      ...fields,
    } as ProductFields,
  };
}

const PRODUCTS = { databaseId: DATABASE_ID, collectionId: COLLECTIONS.products } as const;

function readProduct(client: Client, productId: string): Promise<ProductDocument | null> {
  return findDocument<ProductDocument>(client, COLLECTIONS.products, productId);
}

/**
 * An image must be a complete file of the `product-images` bucket within its rule: a JPEG, PNG,
 * GIF or WebP by its content, not only its name (the bucket checks the extension and the size).
 */
async function checkImage(client: Client, fileId: string | null | undefined): Promise<void> {
  if (!fileId) return;
  await readCheckedUpload(client, {
    bucketId: BUCKETS.productImages,
    fileId,
    rule: PRODUCT_IMAGE_RULE,
    field: 'imageFileId',
    missing: 'This image is not uploaded. Upload it again.',
    tooOld: 'This image was uploaded more than 50 minutes ago. Upload it again.',
  });
}

async function apply(client: Client, request: ProductRequest): Promise<ProductDocument> {
  const databases = new Databases(client);
  if (request.action === 'create') {
    await checkImage(client, request.product.imageFileId);
    try {
      return (await databases.createDocument({
        ...PRODUCTS,
        documentId: request.productId,
        data: { ...request.product },
      })) as unknown as ProductDocument;
    } catch (error) {
      if (!isAppwriteError(error, 409)) throw error;
      throw new AppError('VALIDATION', 'This product id is taken.', { field: 'productId' });
    }
  }
  const current = await readProduct(client, request.productId);
  if (!current) throw new AppError('NOT_FOUND', 'This product does not exist.');
  const data = request.action === 'archive' ? { active: false } : request.changes;
  if ('imageFileId' in data && data.imageFileId !== current.imageFileId)
    await checkImage(client, data.imageFileId);
  return (await databases.updateDocument({
    ...PRODUCTS,
    documentId: request.productId,
    data,
  })) as unknown as ProductDocument;
}

/**
 * `product-action`: a manager or owner creates, edits or archives (`active: false`; products are
 * never deleted) a catalog product. Every field is checked by docs/product.md §4.1 before
 * anything is written; the catalog collection takes no client writes. Answers the product
 * document (200) or `{error: {code, message, details?}}` (400/401/403/404/500).
 */
export default async function productAction(ctx: FunctionContext): Promise<FunctionOutput> {
  try {
    const userId = callerId(ctx.req, 'Sign in to edit the catalog.');
    const request = parseRequest(ctx.req.bodyText);
    const client = functionClient(ctx.req);
    const actor = await loadDeskActor(client, userId);
    if (!hasAtLeast(actor.role, 'manager'))
      throw new AppError('FORBIDDEN', 'You don’t have permission to edit the catalog.');
    const product = await apply(client, request);
    ctx.log(`${actor.name} ${request.action} product ${product.$id}`);
    return ctx.res.json(product);
  } catch (error) {
    return answerFailure(ctx, error);
  }
}
