import {
  LIMITS,
  validateDescription,
  validateName,
  validatePriceCents,
} from '../../../domain/validation.ts';
import { amountInput, parseAmountInput } from '../../lib/amount-input.ts';
import { DEFAULT_LOCALE, formatAmount } from '../../lib/format.ts';

/** A product form's fields as typed. */
export interface Draft {
  name: string;
  description: string;
  price: string;
}

/** An empty product form. */
export const EMPTY_DRAFT: Draft = { name: '', description: '', price: '' };

/**
 * Checks a product form as the catalog's rules do (docs/product.md §4.1): the message of each
 * field refused, and the price in cents when it reads as one. Amounts in messages are written as
 * `locale` writes them (the functions answer in en-US).
 */
export function validateDraft(
  draft: Draft,
  locale = DEFAULT_LOCALE,
): { errors: Partial<Record<keyof Draft, string>>; cents: number | null } {
  const errors: Partial<Record<keyof Draft, string>> = {};
  const name = validateName(draft.name);
  if (name) errors.name = name.message;
  const description = validateDescription(draft.description);
  if (description) errors.description = description.message;
  const cents = parseAmountInput(draft.price, locale);
  if (cents === null) errors.price = `Enter a price like ${amountInput(380, locale)}.`;
  else if (validatePriceCents(cents))
    errors.price = `Enter a price between ${formatAmount(0, locale)} and ${formatAmount(LIMITS.priceMaxCents, locale)}.`;
  return { errors, cents };
}
