/** JSON with integers beyond 2^53 kept exact: SQLite's 64-bit integers and the SDKs' queries carry them. */

/** Parses JSON keeping integers beyond 2^53 exact (as bigints). */
export function parseExactJson(text: string): unknown {
  return JSON.parse(
    text,
    function (this: unknown, _key: string, value: unknown, ...rest: unknown[]) {
      const source = (rest[0] as { source?: string } | undefined)?.source;
      if (
        typeof value === 'number' &&
        !Number.isSafeInteger(value) &&
        source !== undefined &&
        /^-?\d+$/.test(source)
      )
        return BigInt(source);
      return value;
    },
  );
}

/** `JSON.rawJSON` (Node ≥ 21): a number written verbatim by `JSON.stringify`. */
export function rawJson(text: string): unknown {
  return (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(text);
}
