// Unicode decimal digits as Python's `\d` and int() treat them: any character of category Nd,
// worth its digit value (fullwidth "３" is 3, Arabic-Indic "٣" is 3).

const DECIMAL_DIGIT = /^\p{Nd}$/u;

function isDecimalDigitCodePoint(codePoint: number): boolean {
  return DECIMAL_DIGIT.test(String.fromCodePoint(codePoint));
}

// Only Nd code points are cached, so the cache is bounded by the size of that category (~700).
const digitValueCache = new Map<number, number>();

/**
 * The value 0–9 of a decimal digit code point, or -1 when it is not one. Unicode guarantees that Nd
 * characters come in contiguous runs of ten, 0 through 9, so a digit's value is its distance from
 * the start of its run of Nd code points, modulo 10 (runs such as the mathematical digits hold
 * several sets back to back).
 */
export function decimalDigitValue(codePoint: number): number {
  if (codePoint >= 0x30 && codePoint <= 0x39) return codePoint - 0x30;
  if (codePoint < 0x80) return -1;
  const cached = digitValueCache.get(codePoint);
  if (cached !== undefined) return cached;
  if (!isDecimalDigitCodePoint(codePoint)) return -1;
  let runStart = codePoint;
  while (isDecimalDigitCodePoint(runStart - 1)) runStart--;
  const value = (codePoint - runStart) % 10;
  digitValueCache.set(codePoint, value);
  return value;
}
