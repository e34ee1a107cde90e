import { invalidParam, missingParam, StripeApiError } from './errors.ts';

/** Parsed request parameters (form-encoded or query string), as `qs` gives them. */
export type Params = Record<string, unknown>;

/** Refuses any parameter not in `allowed`, as Stripe does (`parameter_unknown`). */
export function allowOnly(params: Params, allowed: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) {
      throw new StripeApiError(
        400,
        {
          type: 'invalid_request_error',
          code: 'parameter_unknown',
          param: key,
          message: `Received unknown parameter: ${key}`,
          doc_url: 'https://stripe.com/docs/error-codes/parameter-unknown',
        },
        false,
      );
    }
  }
}

/** A string parameter, or undefined when absent. */
export function optionalString(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') invalidParam(name, `Invalid string: ${JSON.stringify(value)}`);
  return value;
}

/** A required non-empty string parameter. */
export function requiredString(params: Params, name: string): string {
  const value = optionalString(params, name);
  if (value === undefined) missingParam(name);
  if (value === '')
    invalidParam(
      name,
      `You passed an empty string for '${name}'. We assume empty values are an attempt to unset a parameter; however '${name}' cannot be unset. You should remove '${name}' from your request or supply a non-empty value.`,
      'parameter_invalid_empty',
    );
  return value;
}

/** An integer parameter (sent as digits), or undefined when absent. */
export function optionalInteger(params: Params, name: string): number | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value))
    invalidParam(name, `Invalid integer: ${String(value)}`, 'parameter_invalid_integer');
  return Number(value);
}

/** A boolean parameter (`true`/`false`), or undefined when absent. */
export function optionalBoolean(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false')
    invalidParam(name, `Invalid boolean: ${String(value)}`);
  return value === 'true';
}

/** An object parameter (`name[key]=…`), or undefined when absent. */
export function optionalObject(params: Params, name: string): Params | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    invalidParam(name, `Invalid hash`);
  return value as Params;
}

/** A list of strings (`name[0]=…` or `name[]=…`), or [] when absent. */
export function stringList(params: Params, name: string): string[] {
  const value = params[name];
  if (value === undefined || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  if (!list.every((item) => typeof item === 'string')) invalidParam(name, 'Invalid array');
  return list as string[];
}

/**
 * Applies a `metadata` parameter to `current` as Stripe does: keys are set, a key sent empty is
 * removed, and `metadata=` (empty) clears everything. Limits: 50 keys, keys up to 40 and values
 * up to 500 characters.
 */
export function applyMetadata(
  current: Record<string, string>,
  params: Params,
): Record<string, string> {
  const value = params.metadata;
  if (value === undefined) return current;
  if (value === '') return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    invalidParam('metadata', 'Invalid hash');
  const next = { ...current };
  for (const [key, item] of Object.entries(value as Params)) {
    if (typeof item !== 'string')
      invalidParam(`metadata[${key}]`, 'Metadata values must be strings.');
    if (key.length > 40)
      invalidParam(`metadata[${key}]`, 'Metadata keys can have up to 40 characters.');
    if (item.length > 500)
      invalidParam(`metadata[${key}]`, 'Metadata values can have up to 500 characters.');
    if (item === '') delete next[key];
    else next[key] = item;
  }
  if (Object.keys(next).length > 50) invalidParam('metadata', 'Metadata can have up to 50 keys.');
  return next;
}

/** `limit` of a list request (1–100, 10 by default). */
export function listLimit(params: Params): number {
  const limit = optionalInteger(params, 'limit') ?? 10;
  if (limit < 1 || limit > 100)
    invalidParam(
      'limit',
      'This value must be greater than or equal to 1 and less than or equal to 100.',
    );
  return limit;
}
