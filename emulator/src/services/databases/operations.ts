import { invalidParam } from '../../core/errors.ts';
import { resolveId } from '../../core/ids.ts';

/** What a staged operation of a transaction does (Appwrite 1.9's `Operation` validator). */
export type OperationAction =
  | 'create'
  | 'update'
  | 'upsert'
  | 'delete'
  | 'increment'
  | 'decrement'
  | 'bulkCreate'
  | 'bulkUpdate'
  | 'bulkUpsert'
  | 'bulkDelete';

/** The actions on many documents (API keys only). */
export const BULK_ACTIONS: ReadonlySet<OperationAction> = new Set([
  'bulkCreate',
  'bulkUpdate',
  'bulkUpsert',
  'bulkDelete',
]);

const ACTIONS: readonly OperationAction[] = [
  'create',
  'update',
  'upsert',
  'delete',
  'increment',
  'decrement',
  'bulkCreate',
  'bulkUpdate',
  'bulkUpsert',
  'bulkDelete',
];

/** Actions on one document: they name it. */
const SINGLE = new Set<OperationAction>([
  'create',
  'update',
  'upsert',
  'delete',
  'increment',
  'decrement',
]);

/**
 * One operation of `createOperations`, in the legacy API's terms whichever API sent it
 * (TablesDB's `tableId`, `rowId` and `column` are read as `collectionId`, `documentId`,
 * `attribute`). `data` is what the action takes: a document's data (create, update, upsert), a
 * list of documents (bulkCreate, bulkUpsert), `{data, queries}` (bulkUpdate), `{queries}`
 * (bulkDelete), `{attribute, value?, max?|min?}` (increment, decrement), or `{}` (delete).
 */
export interface OperationInput {
  action: OperationAction;
  databaseId: string;
  collectionId: string;
  /** Set for the actions on one document (`unique()` already replaced by a new id). */
  documentId: string | null;
  data: unknown;
}

/** The parameter names of an API's operations. */
export type OperationNaming = 'legacy' | 'tablesdb';

const NAMES = {
  legacy: { collection: 'collectionId', document: 'documentId', attribute: 'attribute' },
  tablesdb: { collection: 'tableId', document: 'rowId', attribute: 'column' },
} as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** PHP's `is_array`: an object or a list. */
function isPhpArray(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

/** PHP's `is_numeric`. */
function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value);
}

/** Why one operation is malformed (Appwrite's `Operation` validator's description), or null. */
function problemOf(value: unknown, naming: OperationNaming): string | null {
  const names = NAMES[naming];
  if (!isPhpArray(value) || Array.isArray(value)) return 'Value must be an array';
  const op = value as Record<string, unknown>;
  const required = ['databaseId', 'action', names.collection];
  for (const key of required) if (!(key in op)) return `Missing required key: ${key}`;
  for (const key of required)
    if (typeof op[key] !== 'string' || op[key].trim() === '')
      return `Key '${key}' must be a non‑empty string`;
  const action = op.action as OperationAction;
  if (!ACTIONS.includes(action)) return `Key 'action' must be one of: ${ACTIONS.join(', ')}`;
  if (SINGLE.has(action) && !(names.document in op))
    return `Key '${names.document}' is required for action '${action}'`;
  if (names.document in op) {
    const id = op[names.document];
    if (typeof id !== 'string' || id.trim() === '')
      return `Key '${names.document}' must be a non-empty string`;
  }
  if (action !== 'delete' && !('data' in op)) return 'Missing required key: data';
  if ('data' in op && !isPhpArray(op.data)) return "Key 'data' must be an array";
  const data = op.data as Record<string, unknown> | unknown[] | undefined;
  if (action === 'bulkUpdate' || action === 'bulkDelete') {
    if (!isObject(data) || !('queries' in data))
      return `Key 'queries' is required in data for ${action}`;
    if (!Array.isArray(data.queries)) return `Key 'queries' must be an array for ${action}`;
  }
  if (action === 'bulkUpdate') {
    const update = (data as Record<string, unknown>).data;
    if (update === undefined) return `Key 'data' is required in data for ${action}`;
    if (!isObject(update)) return `Key 'data.data' must be an array for ${action}`;
  }
  if (action === 'bulkCreate' || action === 'bulkUpsert') {
    if (!Array.isArray(data) || data.some((item) => !isObject(item)))
      return `Key 'data' must be a list of documents for ${action}`;
  }
  if (action === 'increment' || action === 'decrement') {
    if (!isObject(data) || !(names.attribute in data))
      return `Key '${names.attribute}' is required in data for ${action}`;
    if ('value' in data && !isNumeric(data.value))
      return `Key 'value' must be a numeric value for ${action}`;
  }
  if ((action === 'create' || action === 'update' || action === 'upsert') && !isObject(data))
    return "Key 'data' must be an object";
  return null;
}

/**
 * Reads `createOperations`' `operations` param: every malformed operation is a 400
 * (`general_argument_invalid`, with the reason Appwrite's validator gives); `unique()` document
 * ids become new ids. An empty list is returned as is (the route refuses it after the
 * transaction checks, as Appwrite does).
 */
export function parseOperations(value: unknown, naming: OperationNaming): OperationInput[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidParam('operations', 'Value must a valid array');
  const names = NAMES[naming];
  return value.map((item: unknown) => {
    const problem = problemOf(item, naming);
    if (problem) throw invalidParam('operations', `Value must a valid array and ${problem}`);
    const op = item as Record<string, unknown>;
    const action = op.action as OperationAction;
    let data: unknown = op.data ?? {};
    if ((action === 'increment' || action === 'decrement') && names.attribute !== 'attribute') {
      const { [names.attribute]: attribute, ...rest } = data as Record<string, unknown>;
      data = { ...rest, attribute };
    }
    const rawId = op[names.document];
    return {
      action,
      databaseId: op.databaseId as string,
      collectionId: op[names.collection] as string,
      documentId: SINGLE.has(action) ? resolveId(names.document, rawId) : null,
      data,
    };
  });
}
