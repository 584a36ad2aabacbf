// Python's whitespace set: the canonical sentence split and every str.strip() the reference does
// depend on it, and it differs from JavaScript's `\s`.

/**
 * Python's `\s` (and `str.isspace()`/`str.strip()`) set, written out: 29 characters. Unlike
 * JavaScript's `\s` it includes U+001C–U+001F and U+0085, and excludes U+FEFF.
 */
export const PYTHON_WHITESPACE =
  "\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680" +
  "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" +
  "\u2028\u2029\u202f\u205f\u3000";

// All members are single UTF-16 code units, so testing char codes is exact.
const WHITESPACE_CODES: ReadonlySet<number> = new Set(Array.from(PYTHON_WHITESPACE, (ch) => ch.charCodeAt(0)));

export function isPythonWhitespace(code: number): boolean {
  // Printable ASCII, most of any text, answered without the set lookup (no member lies in 0x21–0x84).
  if (code > 0x20 && code < 0x85) return false;
  return WHITESPACE_CODES.has(code);
}

/** Python's `text.strip()`: removes leading and trailing characters of PYTHON_WHITESPACE. */
export function stripPythonWhitespace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPythonWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isPythonWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}
