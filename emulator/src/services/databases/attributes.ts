import { validateKey } from '../../core/ids.ts';
import { codePoints } from '../../core/text.ts';
import { ApiError, invalidParam } from '../../core/errors.ts';
import { bool, required } from '../../http/params.ts';
import {
  DATETIME_MESSAGE,
  INT64_MAX,
  INT64_MIN,
  isEmail,
  normalizeDatetime,
  numberFormat,
} from './structure.ts';
import type { AttributeKind, AttributeRecord } from './types.ts';

/** The attribute kinds this backend implements, by their endpoint name. */
export const ATTRIBUTE_KINDS: readonly AttributeKind[] = [
  'string',
  'email',
  'enum',
  'integer',
  'float',
  'boolean',
  'datetime',
];

/** Attribute endpoints of the Databases API this backend does not implement. */
export const UNSUPPORTED_ATTRIBUTE_KINDS = [
  'bigint',
  'ip',
  'url',
  'relationship',
  'varchar',
  'text',
  'mediumtext',
  'longtext',
  'point',
  'line',
  'polygon',
] as const;

/** Appwrite's `APP_DATABASE_ATTRIBUTE_STRING_MAX_LENGTH`. */
const STRING_MAX = 1_073_741_824;

function integerParam(input: Record<string, unknown>, name: string): bigint | null {
  const value = input[name];
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isInteger(value)) {
    const big = BigInt(value);
    if (big >= INT64_MIN && big <= INT64_MAX) return big;
    return big > 0n ? INT64_MAX : INT64_MIN;
  }
  if (typeof value === 'string' && /^-?\d{1,19}$/.test(value)) {
    const big = BigInt(value);
    if (big >= INT64_MIN && big <= INT64_MAX) return big;
  }
  throw invalidParam(
    name,
    'Value must be a valid signed 64-bit integer between -9,223,372,036,854,775,808 and 9,223,372,036,854,775,808',
  );
}

function floatParam(input: Record<string, unknown>, name: string): number | null {
  const value = input[name];
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw invalidParam(name, 'Value must be a valid float');
}

function stringDefault(input: Record<string, unknown>): string | null {
  const value = input.default;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidParam('default', 'Value must be a valid string');
  return value;
}

function elementsParam(input: Record<string, unknown>): string[] {
  const value = required(input, 'elements');
  if (
    !Array.isArray(value) ||
    value.length > 100 ||
    value.some((item) => typeof item !== 'string' || codePoints(item) > 255)
  ) {
    throw invalidParam(
      'elements',
      'Value must a valid array no longer than 100 items and Value must be a valid string and no longer than 255 chars',
    );
  }
  return value as string[];
}

function requiredFlag(input: Record<string, unknown>): boolean {
  required(input, 'required');
  return bool(input, 'required', false);
}

function valueInvalid(message: string): ApiError {
  return new ApiError('attribute_value_invalid', message);
}

/** Type-specific settings and default of an attribute, validated as Appwrite's endpoints do. */
function typed(
  kind: AttributeKind,
  input: Record<string, unknown>,
  previous: AttributeRecord | null,
): Pick<AttributeRecord, 'size' | 'default' | 'elements' | 'min' | 'max'> {
  switch (kind) {
    case 'string': {
      let size = previous?.size ?? 0;
      if (input.size !== undefined && input.size !== null) {
        const value = input.size;
        if (
          typeof value !== 'number' ||
          !Number.isInteger(value) ||
          value < 1 ||
          value > STRING_MAX
        )
          throw invalidParam(
            'size',
            `Value must be a valid range between 1 and ${numberFormat(STRING_MAX)}`,
          );
        size = value;
      } else if (!previous) {
        required(input, 'size');
      }
      const fallback = stringDefault(input);
      if (fallback !== null && codePoints(fallback) > size)
        throw valueInvalid(`Value must be a valid string and no longer than ${size} chars`);
      return { size, default: fallback, elements: [], min: null, max: null };
    }
    case 'email': {
      const fallback = stringDefault(input);
      if (fallback !== null && !isEmail(fallback))
        throw invalidParam('default', 'Value must be a valid email address');
      return { size: 254, default: fallback, elements: [], min: null, max: null };
    }
    case 'enum': {
      const elements = elementsParam(input);
      if (previous) {
        if (elements.length === 0) throw valueInvalid('Enum elements must not be empty');
        if (elements.some((element) => element.length === 0))
          throw valueInvalid('Each enum element must not be empty');
      }
      const fallback = stringDefault(input);
      if (fallback !== null && !elements.includes(fallback))
        throw valueInvalid('Default value not found in elements');
      return { size: 255, default: fallback, elements, min: null, max: null };
    }
    case 'integer': {
      const min = integerParam(input, 'min') ?? (previous?.min as bigint | null) ?? INT64_MIN;
      const max = integerParam(input, 'max') ?? (previous?.max as bigint | null) ?? INT64_MAX;
      const fallback = integerParam(input, 'default');
      if (min > max) throw valueInvalid('Minimum value must be lesser than maximum value');
      if (fallback !== null && (fallback < min || fallback > max))
        throw valueInvalid(
          `Value must be a valid range between ${numberFormat(min)} and ${numberFormat(max)}`,
        );
      return {
        size: max > 2147483647n ? 8 : 4,
        default: fallback === null ? null : Number(fallback),
        elements: [],
        min,
        max,
      };
    }
    case 'float': {
      const min = floatParam(input, 'min') ?? (previous?.min as number | null) ?? -Number.MAX_VALUE;
      const max = floatParam(input, 'max') ?? (previous?.max as number | null) ?? Number.MAX_VALUE;
      const fallback = floatParam(input, 'default');
      if (min > max) throw valueInvalid('Minimum value must be lesser than maximum value');
      if (fallback !== null && (fallback < min || fallback > max))
        throw valueInvalid(
          `Value must be a valid range between ${numberFormat(min)} and ${numberFormat(max)}`,
        );
      return { size: 0, default: fallback, elements: [], min, max };
    }
    case 'boolean': {
      const value = input.default;
      if (value !== undefined && value !== null && typeof value !== 'boolean')
        throw invalidParam('default', 'Value must be a valid boolean');
      return {
        size: 0,
        default: typeof value === 'boolean' ? value : null,
        elements: [],
        min: null,
        max: null,
      };
    }
    case 'datetime': {
      const value = input.default;
      let fallback: string | null = null;
      if (value !== undefined && value !== null) {
        fallback = normalizeDatetime(value);
        if (fallback === null) throw invalidParam('default', DATETIME_MESSAGE);
      }
      return { size: 0, default: fallback, elements: [], min: null, max: null };
    }
  }
}

function checkDefaultAllowed(
  attribute: Pick<AttributeRecord, 'required' | 'array' | 'default'>,
): void {
  if (attribute.required && attribute.default !== null)
    throw new ApiError(
      'attribute_default_unsupported',
      'Cannot set default value for required attribute',
    );
  if (attribute.array && attribute.default !== null)
    throw new ApiError(
      'attribute_default_unsupported',
      'Cannot set default value for array attributes',
    );
}

/**
 * A new attribute from a create endpoint's params. Appwrite creates attributes asynchronously
 * (202, `status: "processing"` until a worker adds the column); this backend adds the column
 * within the request, so the attribute is `available` at once.
 */
export function attributeFromCreate(
  kind: AttributeKind,
  input: Record<string, unknown>,
  time: string,
): AttributeRecord {
  const key = validateKey('key', required(input, 'key'));
  const isRequired = requiredFlag(input);
  const array = bool(input, 'array', false);
  const attribute: AttributeRecord = {
    key,
    kind,
    required: isRequired,
    array,
    ...typed(kind, input, null),
    status: 'available',
    error: '',
    createdAt: time,
    updatedAt: time,
  };
  checkDefaultAllowed(attribute);
  return attribute;
}

/** An attribute changed by an update endpoint (`required`, `default`, size/bounds/elements, `newKey`). */
export function attributeFromUpdate(
  kind: AttributeKind,
  existing: AttributeRecord,
  input: Record<string, unknown>,
  time: string,
): AttributeRecord {
  if (existing.kind !== kind) throw new ApiError('attribute_type_invalid', null, [existing.key]);
  const isRequired = requiredFlag(input);
  const newKey =
    input.newKey === undefined || input.newKey === null || input.newKey === ''
      ? existing.key
      : validateKey('newKey', input.newKey);
  const attribute: AttributeRecord = {
    ...existing,
    key: newKey,
    required: isRequired,
    ...typed(kind, input, existing),
    updatedAt: time,
  };
  checkDefaultAllowed(attribute);
  return attribute;
}
