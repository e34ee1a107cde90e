const formatters = new Map<string, Intl.NumberFormat>();

/** Formats integer cents in a currency, e.g. `formatMoney(1250, 'eur')` → `€12.50`. */
export function formatMoney(cents: number, currency: string, locale = 'en-US'): string {
  const key = `${locale}:${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: currency.toUpperCase(),
    });
    formatters.set(key, formatter);
  }
  return formatter.format(cents / 100);
}

/** Sums line totals of cart or order items in cents. */
export function itemsTotalCents(items: readonly { unitPriceCents: number; qty: number }[]): number {
  let total = 0;
  for (const item of items) total += item.unitPriceCents * item.qty;
  return total;
}
