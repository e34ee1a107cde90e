import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Checks responses against Appwrite's OpenAPI response models (`components.schemas` of the 1.8.x
 * server spec): required properties are present and every property present has the basic type
 * the spec gives (string, integer, number, boolean, array with typed items, object, nullable,
 * `$ref` and `anyOf` followed). Extra properties are allowed (documents carry their attributes).
 *
 * The models come from `openapi-models.json`, extracted from the spec by
 * `scripts/extract-openapi-models.ts` from Appwrite's spec (github.com/appwrite/specs, not copied here).
 */

interface Schema {
  type?: string;
  nullable?: boolean;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  $ref?: string;
}

const MODELS_FILE = resolve(import.meta.dirname, 'openapi-models.json');

/**
 * Where the pinned 1.9 SDKs differ from the 1.8 spec, the SDK wins: `$sequence` is a string
 * since response format 1.9.0 (`Models.Document.$sequence: string` in node-appwrite 27.1 and
 * appwrite 26.2), while the 1.8 spec says integer.
 */
const SDK_OVERRIDES: Record<string, Record<string, Schema>> = {
  document: { $sequence: { type: 'string' } },
};

let loaded: Record<string, Schema> | null = null;

function schemas(): Record<string, Schema> {
  if (loaded) return loaded;
  if (!existsSync(MODELS_FILE))
    throw new Error(
      `OpenAPI model check not run: spec not found (${MODELS_FILE} is missing; run scripts/extract-openapi-models.ts)`,
    );
  const file = JSON.parse(readFileSync(MODELS_FILE, 'utf8')) as { schemas: Record<string, Schema> };
  loaded = file.schemas;
  for (const [model, overrides] of Object.entries(SDK_OVERRIDES)) {
    const schema = loaded[model];
    if (schema?.properties) schema.properties = { ...schema.properties, ...overrides };
  }
  return loaded;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function check(schema: Schema, value: unknown, path: string, problems: string[]): void {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    const target = schemas()[name];
    if (!target) {
      problems.push(`${path}: model "${name}" is not in openapi-models.json`);
      return;
    }
    check(target, value, path, problems);
    return;
  }
  if (schema.anyOf) {
    const attempts = schema.anyOf.map((option) => {
      const found: string[] = [];
      check(option, value, path, found);
      return found;
    });
    if (!attempts.some((found) => found.length === 0))
      problems.push(
        `${path}: matches none of its ${schema.anyOf.length} models (${attempts[0]!.join('; ')})`,
      );
    return;
  }
  const actual = typeOf(value);
  if (value === null) {
    if (!schema.nullable && schema.type) problems.push(`${path}: null, expected ${schema.type}`);
    return;
  }
  if (schema.type) {
    const fits =
      schema.type === actual ||
      (schema.type === 'number' && actual === 'integer') ||
      (schema.type === 'object' && actual === 'object');
    if (!fits) {
      problems.push(`${path}: ${actual}, expected ${schema.type}`);
      return;
    }
  }
  if (schema.type === 'array' && schema.items && Array.isArray(value)) {
    value.forEach((item, i) => check(schema.items!, item, `${path}[${i}]`, problems));
  }
  if (schema.properties || schema.required) {
    if (actual !== 'object') {
      problems.push(`${path}: ${actual}, expected an object`);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? [])
      if (!(key in record) || record[key] === undefined) problems.push(`${path}.${key}: missing`);
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      if (key in record && record[key] !== undefined)
        check(property, record[key], `${path}.${key}`, problems);
    }
  }
}

/** What is wrong with `value` as Appwrite's model `model` (empty when it conforms). */
export function modelProblems(model: string, value: unknown): string[] {
  const schema = schemas()[model];
  if (!schema) throw new Error(`OpenAPI model "${model}" is not in openapi-models.json`);
  const problems: string[] = [];
  check(schema, value, model, problems);
  return problems;
}

/** Throws when `value` does not conform to Appwrite's model `model`. */
export function assertModel(model: string, value: unknown): void {
  const problems = modelProblems(model, value);
  if (problems.length)
    throw new Error(
      `Response does not match Appwrite's "${model}" model:\n  ${problems.join('\n  ')}`,
    );
}
