import { randomBytes } from 'node:crypto';
import { invalidParam } from './errors.ts';

const CUSTOM_ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;
const KEY = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

/** A new id like the SDK's `ID.unique()`: hex seconds + 5 hex of milliseconds + 7 random hex. */
export function uniqueId(): string {
  const now = Date.now();
  const seconds = Math.floor(now / 1000).toString(16);
  const millis = ((now % 1000) * 1000).toString(16).padStart(5, '0');
  return seconds + millis + randomBytes(4).toString('hex').slice(0, 7);
}

/**
 * Validates a custom id param (or `unique()`) and returns the id to use.
 * Appwrite: at most 36 chars, a-z A-Z 0-9 . - _, not starting with a special char.
 */
export function resolveId(name: string, value: unknown): string {
  if (value === 'unique()' || value === 'ID.unique()') return uniqueId();
  if (typeof value !== 'string' || !CUSTOM_ID.test(value)) {
    throw invalidParam(
      name,
      "UID must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, and underscore. Can't start with a leading underscore",
    );
  }
  return value;
}

/** Validates an attribute or index key. */
export function validateKey(name: string, value: unknown): string {
  if (typeof value !== 'string' || !KEY.test(value)) {
    throw invalidParam(
      name,
      "Key must contain at most 36 chars. Valid chars are a-z, A-Z, 0-9, and underscore. Can't start with a leading underscore",
    );
  }
  return value;
}

/** A random secret of `bytes` bytes, hex encoded. */
export function secret(bytes = 32): string {
  return randomBytes(bytes).toString('hex');
}
