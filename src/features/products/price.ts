/**
 * Parses a price typed by a person (`3.80`, `3,80`, `€4`, `4 €`) to integer cents, or null when
 * it is not a price. A minus sign is kept, never dropped: `-1` is −100 cents, which the range
 * check (`validatePriceCents`) then refuses; any other character makes it not a price.
 */
export function parsePriceInput(text: string): number | null {
  const match = /^\s*(-)?\s*€?\s*(-)?\s*(\d+)(?:[.,](\d{1,2}))?\s*€?\s*$/.exec(text);
  if (!match) return null;
  const [, signBefore, signAfter, whole, fraction = ''] = match;
  if (signBefore && signAfter) return null;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return signBefore || signAfter ? -cents : cents;
}

/** Cents as an editable decimal string: 380 → `3.80`. */
export function centsToInput(cents: number): string {
  return (cents / 100).toFixed(2);
}
