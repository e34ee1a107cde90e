/** Field limits of docs/product.md §4 and §9. */
export const LIMITS = {
  nameMax: 80,
  descriptionMax: 500,
  noteMax: 2000,
  cartLinesMax: 50,
  qtyMax: 99,
  priceMaxCents: 1_000_000,
  attachmentMaxBytes: 50 * 1024 * 1024,
  productImageMaxBytes: 5 * 1024 * 1024,
} as const;

/** A field-level validation problem: which field and what to tell the person. */
export interface FieldError {
  field: string;
  message: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checks a person's name (1–80 characters after trimming). */
export function validateName(value: string, field = 'name'): FieldError | null {
  const trimmed = value.trim();
  if (trimmed.length === 0) return { field, message: 'Enter a name.' };
  if (trimmed.length > LIMITS.nameMax) {
    return { field, message: `Use at most ${LIMITS.nameMax} characters.` };
  }
  return null;
}

/** Checks an email address. */
export function validateEmail(value: string, field = 'email'): FieldError | null {
  if (!EMAIL.test(value.trim())) return { field, message: 'Enter a valid email address.' };
  return null;
}

/** Checks a password the way Appwrite does (8–256 characters). */
export function validatePassword(value: string, field = 'password'): FieldError | null {
  if (value.length < 8) return { field, message: 'Use at least 8 characters.' };
  if (value.length > 256) return { field, message: 'Use at most 256 characters.' };
  return null;
}

/** Checks a note body (1–2,000 characters after trimming). */
export function validateNoteBody(value: string, field = 'body'): FieldError | null {
  const trimmed = value.trim();
  if (trimmed.length === 0) return { field, message: 'Write something first.' };
  if (trimmed.length > LIMITS.noteMax) {
    return {
      field,
      message: `Notes are limited to ${LIMITS.noteMax.toLocaleString('en-US')} characters.`,
    };
  }
  return null;
}

/** Checks a price in cents (integer, 0–1,000,000). */
export function validatePriceCents(value: number, field = 'priceCents'): FieldError | null {
  if (!Number.isInteger(value) || value < 0 || value > LIMITS.priceMaxCents) {
    return { field, message: 'Enter a price between 0.00 and 10,000.00.' };
  }
  return null;
}
