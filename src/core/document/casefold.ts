// Python's str.casefold() as far as ASCII letters and digits are concerned. Token rules such as
// "runs of [a-z0-9] in the case-folded text" only see those characters, so a full case-folding
// table is not needed: only the code points where casefold() yields an ASCII letter that
// toLowerCase() does not. The list below is exhaustive: it was found by comparing, for every code
// point, the [a-z0-9] runs of Python 3.11's casefold() with those of Node 20's toLowerCase().

const CASEFOLD_EXCEPTIONS: Readonly<Record<string, string>> = {
  "\u00df": "ss", // ß
  "\u0149": "\u02bcn", // ŉ → ʼn
  "\u017f": "s", // ſ (long s)
  "\u01f0": "j\u030c", // ǰ
  "\u1e96": "h\u0331", // ẖ
  "\u1e97": "t\u0308", // ẗ
  "\u1e98": "w\u030a", // ẘ
  "\u1e99": "y\u030a", // ẙ
  "\u1e9a": "a\u02be", // ẚ
  "\u1e9e": "ss", // ẞ (capital sharp s)
  "\ufb00": "ff",
  "\ufb01": "fi",
  "\ufb02": "fl",
  "\ufb03": "ffi",
  "\ufb04": "ffl",
  "\ufb05": "st",
  "\ufb06": "st",
};

const CASEFOLD_EXCEPTION_PATTERN = new RegExp(`[${Object.keys(CASEFOLD_EXCEPTIONS).join("")}]`, "g");

/**
 * Lower-cases `text` so that its ASCII letters and digits are exactly those of Python's
 * `text.casefold()` (e.g. "Straße" → "strasse", "ﬁle" → "file", "İ" → "i̇"). Non-ASCII characters
 * in the result may differ from casefold() (e.g. Cherokee, final sigma); callers that keep only
 * [a-z0-9] runs cannot tell.
 */
export function asciiCasefold(text: string): string {
  return text.replace(CASEFOLD_EXCEPTION_PATTERN, (ch) => CASEFOLD_EXCEPTIONS[ch] ?? ch).toLowerCase();
}
