// Go-compatible text primitives: the whitespace set of `unicode.IsSpace` and per-code-point
// simple lower-casing (docs/classifier.md). JS `\s`, `trim()` and
// `toLowerCase()` differ from Go on a few code points, and those differences change verdicts.

/** Go's `unicode.IsSpace`: includes NEL (U+0085), excludes the BOM (U+FEFF). All are BMP code units. */
export function isGoSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Go's `strings.Fields`: the non-empty runs between whitespace. */
export function splitFields(text: string): string[] {
  const fields: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    if (isGoSpace(text.charCodeAt(i))) {
      if (start >= 0) {
        fields.push(text.slice(start, i));
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) fields.push(text.slice(start));
  return fields;
}

// The only code points where JS's full, context-sensitive lower-casing differs from Go's simple
// per-code-point mapping: İ (U+0130, which JS expands to i + U+0307) and Σ (U+03A3, final sigma).
const CONTEXT_SENSITIVE_UPPER = /[\u0130\u03a3]/g;

/** Go's `strings.ToLower`: every code point through the simple Unicode lowercase mapping. */
export function simpleLower(text: string): string {
  // Mapping those two first leaves nothing on which `toLowerCase` differs from the simple mapping.
  return text.replace(CONTEXT_SENSITIVE_UPPER, (ch) => (ch === "\u0130" ? "i" : "\u03c3")).toLowerCase();
}

// Anything `splitFields` + join would change: non-space whitespace, double, leading or trailing spaces.
const NEEDS_COLLAPSE = /[\t-\r\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]| {2}|^ | $/;

/**
 * The identity-check form (§2) of an already lower-cased text: fields joined by single spaces.
 * Lower-casing maps whitespace to itself and nothing else to whitespace, so lower-casing before
 * or after the join gives the same string.
 */
export function fingerprintOfLower(lower: string): string {
  return NEEDS_COLLAPSE.test(lower) ? splitFields(lower).join(" ") : lower;
}

/** The identity-check form (§2): fields joined by single spaces, then lower-cased. */
export function fingerprint(text: string): string {
  return fingerprintOfLower(simpleLower(text));
}
