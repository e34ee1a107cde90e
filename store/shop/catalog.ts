import type { Product } from '../../domain/entities.ts';

/** The catalog's order: `sortOrder`, then name (as the shop lists it). */
function byMenuOrder(a: Product, b: Product): number {
  return a.sortOrder - b.sortOrder || a.name.localeCompare(b.name);
}

/**
 * The catalog with one change applied (a realtime event): a product added, renamed or repriced
 * in place, or taken off the menu (kept, inactive, so a cart holding it can still name it; the
 * menu lists the active ones). A change older than the copy held (`updatedAt`) is ignored, so a
 * late event never undoes a newer read.
 */
export function withProduct(products: readonly Product[], product: Product): Product[] {
  const held = products.find((p) => p.id === product.id);
  if (held && held.updatedAt > product.updatedAt) return products as Product[];
  return [...products.filter((p) => p.id !== product.id), product].sort(byMenuOrder);
}
