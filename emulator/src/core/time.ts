/** Formats a date the way Appwrite does: `2026-11-22T10:00:00.000+00:00`. */
export function formatDate(date: Date | number): string {
  return new Date(date).toISOString().replace('Z', '+00:00');
}

/** The current time in Appwrite's format. */
export function now(): string {
  return formatDate(Date.now());
}

/** Parses an ISO 8601 datetime into Appwrite's format, or null when it is not one. */
export function normalizeDate(value: string): string | null {
  if (
    !/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value)
  ) {
    return null;
  }
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.length > 10;
  const iso = value.length === 10 ? `${value}T00:00:00Z` : hasZone ? value : `${value}Z`;
  const ms = Date.parse(iso.replace(' ', 'T'));
  return Number.isNaN(ms) ? null : formatDate(ms);
}
