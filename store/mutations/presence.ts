/**
 * A presence id for a member viewing an order: valid for Appwrite (at most 36 of `a-zA-Z0-9._-`).
 * Appwrite keeps one presence per user (and its first id), so this only names the first.
 */
export function presenceIdFor(userId: string, orderId: string): string {
  return `${userId}-${orderId}`.replace(/[^a-zA-Z0-9._-]/g, '').slice(0, 36);
}
