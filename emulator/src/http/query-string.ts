/**
 * Parses a query string the way PHP does (the SDKs flatten params that way):
 * `queries[0]=a&queries[1]=b` and `queries[]=a` become arrays, `a[b]=c` an object.
 */
export function parseQueryString(search: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const params = new URLSearchParams(search);
  for (const [rawKey, value] of params) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(rawKey);
    if (!match) {
      result[rawKey] = value;
      continue;
    }
    const [, head, brackets] = match as unknown as [string, string, string];
    const path = [head, ...[...brackets.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    assign(result, path, value);
  }
  return normalizeArrays(result) as Record<string, unknown>;
}

function assign(target: Record<string, unknown>, path: string[], value: string): void {
  let node: Record<string, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    let key = path[i]!;
    if (key === '') key = String(Object.keys(node).length);
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  let last = path[path.length - 1]!;
  if (last === '') last = String(Object.keys(node).length);
  node[last] = value;
}

function normalizeArrays(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => [k, normalizeArrays(v)] as const,
  );
  const numeric = entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
  if (!numeric) return Object.fromEntries(entries);
  return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
}
