/**
 * Extracts the response models the integration suites check (and every model they reference)
 * from Appwrite's OpenAPI spec into `integration/support/openapi-models.json`, so the checker
 * works without the spec. Run again when the spec or the list below changes, with Appwrite's
 * server spec (github.com/appwrite/specs, `specs/1.8.x/open-api3-1.8.x-server.json`):
 *
 *   node scripts/extract-openapi-models.ts path/to/open-api3-1.8.x-server.json
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { format, resolveConfig } from 'prettier';

const ROOT = resolve(import.meta.dirname, '..');
if (!process.argv[2]) {
  console.error(
    'Usage: node scripts/extract-openapi-models.ts path/to/open-api3-1.8.x-server.json',
  );
  process.exit(1);
}
const SPEC = resolve(process.argv[2]);
const OUT = resolve(ROOT, 'integration/support/openapi-models.json');

/** Models checked by the suites; referenced ones are added. */
const MODELS = [
  'database',
  'databaseList',
  'collection',
  'collectionList',
  'attributeList',
  'attributeString',
  'attributeInteger',
  'attributeFloat',
  'attributeBoolean',
  'attributeEmail',
  'attributeEnum',
  'attributeDatetime',
  'index',
  'indexList',
  'document',
  'documentList',
];

type Schema = Record<string, unknown>;

const spec = JSON.parse(readFileSync(SPEC, 'utf8')) as {
  info: { version: string };
  components: { schemas: Record<string, Schema> };
};
const all = spec.components.schemas;
const picked: Record<string, Schema> = {};

function refsOf(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsOf(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') out.add(item.split('/').pop()!);
      else refsOf(item, out);
    }
  }
  return out;
}

const queue = [...MODELS];
while (queue.length) {
  const name = queue.shift()!;
  if (picked[name]) continue;
  const schema = all[name];
  if (!schema) throw new Error(`${SPEC} has no model "${name}"`);
  picked[name] = schema;
  queue.push(...refsOf(schema, new Set()));
}

const text = JSON.stringify({
  source: `${SPEC.split('/').pop()} (info.version ${spec.info.version})`,
  schemas: picked,
});
writeFileSync(OUT, await format(text, { ...(await resolveConfig(OUT)), parser: 'json' }));
console.log(`${Object.keys(picked).length} models written to ${OUT}`);
