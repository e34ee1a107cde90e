/**
 * A text's length as Appwrite counts it (PHP's `mb_strlen`): Unicode code points, so `'😀'` is 1
 * (two UTF-16 units in JavaScript). A high surrogate without its low half counts as one.
 */
export function codePoints(value: string): number {
  let length = value.length;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}
