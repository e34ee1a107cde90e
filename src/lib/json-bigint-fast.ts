import jsonBigint from 'json-bigint/index.js';
import { holdsUnsafeInteger, ownStrings } from '../../domain/json-integers.ts';

/**
 * `json-bigint` with a native fast path, for the Appwrite web SDK (vite.config.ts aliases the
 * package to this module in the app's bundle).
 *
 * The SDK parses every REST response and every realtime message with json-bigint, a parser in
 * JavaScript, so that integers beyond 2^53 keep their value; its reviver only turns json-bigint's
 * big numbers (number tokens of over 15 characters) into BigInt or Number: the value differs
 * from the browser's `JSON.parse` (several times faster) only for an integer beyond 2^53. A text
 * is read with `JSON.parse`, and again with json-bigint when what it read holds an integer
 * beyond the safe range ({@link holdsUnsafeInteger}); the strings json-bigint cuts out of the text are
 * then copied ({@link ownStrings}), as `JSON.parse` makes them. Serialising stays json-bigint's
 * (it writes BigInt).
 */
export function fastJsonBigint(
  options?: Parameters<typeof jsonBigint>[0],
): ReturnType<typeof jsonBigint> {
  const original = jsonBigint(options);
  return {
    parse: (text, reviver) => {
      const value: unknown = JSON.parse(text);
      return holdsUnsafeInteger(value) ? ownStrings(original.parse(text, reviver)) : value;
    },
    stringify: original.stringify,
  };
}

const defaults = fastJsonBigint();
/** json-bigint's module shape: the factory, with `parse` and `stringify` of the default options. */
export default Object.assign(fastJsonBigint, {
  parse: defaults.parse,
  stringify: defaults.stringify,
});
