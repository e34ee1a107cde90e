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

/** An Appwrite id: 1–36 of `a-z A-Z 0-9 . _ -`, not starting with a symbol. */
export const APPWRITE_ID = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,35}$/;

/**
 * Length of a text in characters as Appwrite counts them (Unicode code points, PHP's
 * `mb_strlen`): `'😀'` is 1, not its 2 UTF-16 units.
 */
export function charCount(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** True when a text is empty or only white space (then a required text counts as missing). */
export function isBlank(value: string): boolean {
  return value.trim() === '';
}

/**
 * Checks a name (products, customers, people): not blank, at most 80 characters. The text is
 * stored exactly as typed — never trimmed — so the length counts every character sent.
 */
export function validateName(value: string, field = 'name'): FieldError | null {
  if (isBlank(value)) return { field, message: 'Enter a name.' };
  if (charCount(value) > LIMITS.nameMax) {
    return { field, message: `Use at most ${LIMITS.nameMax} characters.` };
  }
  return null;
}

/** Checks an email address (`something@domain.tld`, no spaces anywhere). */
export function validateEmail(value: string, field = 'email'): FieldError | null {
  if (!EMAIL.test(value)) return { field, message: 'Enter a valid email address.' };
  return null;
}

/** Checks a product description (at most 500 characters; may be empty). */
export function validateDescription(value: string, field = 'description'): FieldError | null {
  if (charCount(value) > LIMITS.descriptionMax) {
    return { field, message: `Use at most ${LIMITS.descriptionMax} characters.` };
  }
  return null;
}

/** Checks a password the way Appwrite does (8–256 characters). */
export function validatePassword(value: string, field = 'password'): FieldError | null {
  if (value.length < 8) return { field, message: 'Use at least 8 characters.' };
  if (value.length > 256) return { field, message: 'Use at most 256 characters.' };
  return null;
}

/** Checks a note body: not blank, at most 2,000 characters (stored exactly as typed). */
export function validateNoteBody(value: string, field = 'body'): FieldError | null {
  if (isBlank(value)) return { field, message: 'Write something first.' };
  if (charCount(value) > LIMITS.noteMax) {
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

/** Checks a currency code: ISO 4217 in lower case (`eur`). */
export function validateCurrency(value: string, field = 'currency'): FieldError | null {
  if (!/^[a-z]{3}$/.test(value))
    return { field, message: 'Use a three-letter currency code such as eur.' };
  return null;
}

/** Checks a catalog position (a whole number between −1,000,000 and 1,000,000). */
export function validateSortOrder(value: number, field = 'sortOrder'): FieldError | null {
  if (!Number.isInteger(value) || Math.abs(value) > 1_000_000)
    return { field, message: 'Use a whole number between -1,000,000 and 1,000,000.' };
  return null;
}
