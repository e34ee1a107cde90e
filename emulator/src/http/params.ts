import { ApiError, invalidParam } from '../core/errors.ts';
import { codePoints } from '../core/text.ts';

/** A required param: throws Appwrite's "Param "x" is not optional." when missing. */
export function required(input: Record<string, unknown>, name: string): unknown {
  const value = input[name];
  if (value === undefined || value === null || value === '') {
    throw new ApiError('general_argument_invalid', `Param "${name}" is not optional.`);
  }
  return value;
}

/** A string param of at most `max` characters. */
export function text(
  input: Record<string, unknown>,
  name: string,
  options: { required?: boolean; max?: number; min?: number; fallback?: string } = {},
): string {
  const value = options.required ? required(input, name) : input[name];
  if (value === undefined || value === null) return options.fallback ?? '';
  if (typeof value !== 'string') throw invalidParam(name, 'Value must be a valid string');
  const max = options.max ?? 256;
  // Appwrite's Text validator counts code points (mb_strlen), not UTF-16 units.
  const length = codePoints(value);
  if (length > max || length < (options.min ?? 0)) {
    throw invalidParam(
      name,
      `Value must be a valid string and at least ${options.min ?? 1} chars and no longer than ${max} chars`,
    );
  }
  return value;
}

/** An optional string param that may be null. */
export function nullableText(
  input: Record<string, unknown>,
  name: string,
  max = 256,
): string | null {
  const value = input[name];
  if (value === undefined || value === null) return null;
  return text(input, name, { max });
}

/** A boolean param (accepts `true`/`false` strings from query strings). */
export function bool(input: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = input[name];
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1' || value === 1) return true;
  if (value === 'false' || value === '0' || value === 0) return false;
  throw invalidParam(name, 'Value must be a valid boolean');
}

/** An integer param within a range (accepts numeric strings from query strings). */
export function integer(
  input: Record<string, unknown>,
  name: string,
  options: { required?: boolean; min?: number; max?: number; fallback?: number | null } = {},
): number | null {
  const raw = options.required ? required(input, name) : input[name];
  if (raw === undefined || raw === null || raw === '') return options.fallback ?? null;
  const value = typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
  const min = options.min ?? Number.MIN_SAFE_INTEGER;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidParam(
      name,
      `Value must be a valid range between ${min.toLocaleString('en-US')} and ${max.toLocaleString('en-US')}`,
    );
  }
  return value;
}

/** An array of strings param. */
export function stringArray(
  input: Record<string, unknown>,
  name: string,
  options: { required?: boolean; maxItems?: number; maxLength?: number } = {},
): string[] {
  const value = options.required ? required(input, name) : input[name];
  if (value === undefined || value === null) return [];
  const max = options.maxItems ?? 100;
  if (
    !Array.isArray(value) ||
    value.length > max ||
    value.some((item) => typeof item !== 'string' || codePoints(item) > (options.maxLength ?? 4096))
  ) {
    throw invalidParam(
      name,
      `Value must a valid array no longer than ${max} items and Value must be a valid string`,
    );
  }
  return value as string[];
}

/** An email param. */
export function email(input: Record<string, unknown>, name: string, isRequired = true): string {
  const value = text(input, name, { required: isRequired, max: 320 });
  if (value && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
    throw invalidParam(name, 'Value must be a valid email address');
  return value;
}

/** A password param, as Appwrite checks it (8–256 characters). */
export function password(input: Record<string, unknown>, name = 'password'): string {
  const value = input[name];
  if (typeof value !== 'string' || value.length < 8 || value.length > 256) {
    throw invalidParam(name, 'Password must be between 8 and 256 characters long.');
  }
  return value;
}

/** A JSON object param (or a JSON string holding one). */
export function object(
  input: Record<string, unknown>,
  name: string,
  isRequired = false,
): Record<string, unknown> | null {
  let value = isRequired ? required(input, name) : input[name];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidParam(name, 'Value must be a valid JSON object');
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParam(name, 'Value must be a valid JSON object');
  return value as Record<string, unknown>;
}
