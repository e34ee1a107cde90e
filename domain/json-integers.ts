/**
 * JSON texts of Appwrite's REST and realtime APIs: its SDKs parse them with json-bigint so that an
 * integer beyond 2^53 keeps its exact value. A text that cannot hold one reads the same with the
 * native `JSON.parse`, several times faster.
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
