/** Parses a price typed by a person (`3.80`, `3,80`, `€4`) to integer cents, or null. */
export function parsePriceInput(text: string): number | null {
  const cleaned = text.replace(/[^\d.,]/g, '').replace(',', '.');
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return null;
  return Math.round(Number(cleaned) * 100);
}

/** Cents as an editable decimal string: 380 → `3.80`. */
export function centsToInput(cents: number): string {
  return (cents / 100).toFixed(2);
}
