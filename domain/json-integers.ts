/**
 * JSON texts of Appwrite's REST and realtime APIs, read as its SDKs read them: an integer beyond
 * 2^53 keeps its exact value (the SDKs parse with json-bigint), every other value as `JSON.parse`.
 */

/**
 * 16 digits in a row; a number token with an exponent after `:`, `[` or `,`; one that starts the
 * text. Three expressions tried in turn: one alternation of them scans a response about 3× slower
 * (every position tries each branch), and every page of the initial load is scanned.
 */
const SIXTEEN_DIGITS = /\d{16}/;
const EXPONENT = /[:[,]\s*-?\d+(?:\.\d+)?[eE]/;
const LEADING_EXPONENT = /^\s*-?\d+(?:\.\d+)?[eE]/;

/**
 * Whether a JSON text may hold an integer beyond 2^53 (16 digits in a row, or a number with an
 * exponent); when not, `JSON.parse` reads every number in it exactly.
 */
export function mayHoldBigInteger(text: string): boolean {
  return SIXTEEN_DIGITS.test(text) || EXPONENT.test(text) || LEADING_EXPONENT.test(text);
}

/**
 * Keeps integers beyond 2^53 exact as the SDK does: a safe integer stays a number, a 64-bit one
 * becomes a `BigInt`, from the token's own text (`context.source`, where the engine gives it).
 */
function exactIntegers(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
  const source = context?.source;
  if (source === undefined || !/^-?\d+$/.test(source)) return value;
  const big = BigInt(source);
  return big >= -(2n ** 63n) && big < 2n ** 63n ? big : value;
}

/** A JSON text of Appwrite's REST API, parsed with its integers as the SDK keeps them. */
export function parseAppwriteJson(text: string): unknown {
  return mayHoldBigInteger(text)
    ? JSON.parse(text, exactIntegers as (key: string, value: unknown) => unknown)
    : JSON.parse(text);
}
