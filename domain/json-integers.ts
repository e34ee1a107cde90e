/**
 * JSON texts of Appwrite's REST and realtime APIs: its SDKs parse them with json-bigint so that an
 * integer beyond 2^53 keeps its exact value. A text whose numbers all read back as safe integers
 * or as non-integers reads the same with the native `JSON.parse`, several times faster.
 */

/**
 * Whether a value read with `JSON.parse` holds a number that is an integer beyond the safe range
 * (±(2^53 − 1)) or not finite. Only such a number can differ from what json-bigint reads in the
 * text (an integer token beyond 2^53, rounded; a token beyond the doubles, which json-bigint
 * refuses); when there is none, `JSON.parse` read every number exactly. A walk of the parsed
 * value: ~1–2 ms for a page of 5,000 orders, where scanning its 3.6 MB of text for long digit
 * runs and exponents took ~10 ms.
 */
export function holdsUnsafeInteger(value: unknown): boolean {
  if (typeof value === 'number')
    return !Number.isSafeInteger(value) && (Number.isInteger(value) || !Number.isFinite(value));
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (holdsUnsafeInteger(value[i])) return true;
    return false;
  }
  for (const key in value)
    if (holdsUnsafeInteger((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * A string of its own: json-bigint cuts long strings out of the text it parses, and V8 keeps such
 * a slice as a pointer into its parent, so one field kept in a record would keep a whole page of
 * documents alive. The copy holds only its own characters. (`JSON.parse` makes every string its
 * own.)
 */
export function ownString<T>(value: T): T {
  return typeof value === 'string' && value.length >= 13 ? ((' ' + value).slice(1) as T) : value;
}

/** `value` (read by json-bigint) with every long string in it replaced by {@link ownString}'s copy, in place. */
export function ownStrings<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return ownString(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = ownStrings(value[i]);
    return value;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) object[key] = ownStrings(object[key]);
  return value;
}
