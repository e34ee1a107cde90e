import jsonBigint from 'json-bigint/index.js';
import { mayHoldBigInteger } from '../../domain/json-integers.ts';

/**
 * `json-bigint` with a native fast path, for the Appwrite web SDK (vite.config.ts aliases the
 * package to this module in the app's bundle).
 *
 * The SDK parses every REST response and every realtime message with json-bigint, a parser in
 * JavaScript, so that integers beyond 2^53 keep their value; its reviver only turns json-bigint's
 * big numbers (number tokens of over 15 characters) into BigInt or Number. Such an integer is
 * written with 16 digits in a row or with an exponent, so a text with neither parses to the same
 * value with the browser's `JSON.parse` (several times faster, and the reviver would change
 * nothing); any other text goes through json-bigint. Serialising stays json-bigint's (it writes
 * BigInt).
 */
export function fastJsonBigint(
  options?: Parameters<typeof jsonBigint>[0],
): ReturnType<typeof jsonBigint> {
  const original = jsonBigint(options);
  return {
    parse: (text, reviver) =>
      mayHoldBigInteger(text) ? original.parse(text, reviver) : JSON.parse(text),
    stringify: original.stringify,
  };
}

const defaults = fastJsonBigint();
/** json-bigint's module shape: the factory, with `parse` and `stringify` of the default options. */
export default Object.assign(fastJsonBigint, {
  parse: defaults.parse,
  stringify: defaults.stringify,
});
