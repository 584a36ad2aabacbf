// Sentence references in a judge's reasoning (docs/core-document.md): `[i]`, `[i-j]`,
// `[i]-[j]` and the odd `[i-j]-[k]`, found left to right without overlap. A hand-written scanner
// rather than a regex keeps it linear on adversarial input (e.g. a million "[").

import { decimalDigitValue } from "../python/decimal-digits.js";
import { DocumentContradictionError } from "./errors.js";

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const HYPHEN = 0x2d; // -

interface DigitRun {
  /** The number, or Infinity beyond 2^53 − 1 (outside every document either way). */
  value: number;
  /** UTF-16 index just after the last digit. */
  end: number;
}

/** One or more Unicode decimal digits starting at `index`, read as Python's int() does. */
function readDigits(text: string, index: number): DigitRun | undefined {
  let value = 0;
  let position = index;
  while (position < text.length) {
    const codePoint = text.codePointAt(position) as number;
    const digit = decimalDigitValue(codePoint);
    if (digit < 0) break;
    value = value * 10 + digit;
    if (value > Number.MAX_SAFE_INTEGER) value = Infinity;
    position += codePoint > 0xffff ? 2 : 1;
  }
  return position === index ? undefined : { value, end: position };
}

/** `[digits]` at `index`, or undefined. */
function readBracketedNumber(text: string, index: number): DigitRun | undefined {
  if (text.charCodeAt(index) !== OPEN) return undefined;
  const run = readDigits(text, index + 1);
  if (run === undefined || text.charCodeAt(run.end) !== CLOSE) return undefined;
  return { value: run.value, end: run.end + 1 };
}

/** Python's str() of the reasoning, as far as bracketed numbers are concerned. */
function reasoningText(reasoning: unknown): string {
  if (typeof reasoning === "string") return reasoning;
  if (reasoning === null || reasoning === undefined) return "";
  if (typeof reasoning !== "object") return String(reasoning as number | boolean | bigint);
  // Lists and dicts: str([3]) is "[3]" in Python, so bracketed numbers inside them count. JSON text
  // keeps those brackets and digits the same way; anything it cannot render carries no references.
  try {
    return JSON.stringify(reasoning) ?? "";
  } catch {
    return "";
  }
}

/**
 * The sorted, de-duplicated 1-based sentence IDs the reasoning cites. Ranges are inclusive; in
 * `[i-j]-[k]` the compact end j wins and k is dropped. Throws DocumentContradictionError with
 * `sentence_count_not_positive` when sentenceCount < 1 (checked first), and with
 * `reasoning_reference_out_of_document` for a reference starting below 1, a reversed range, or one
 * ending beyond sentenceCount (a year such as `[2023]` included).
 */
export function parseReasoningReferences(reasoning: unknown, sentenceCount: number): number[] {
  if (!(sentenceCount >= 1)) throw new DocumentContradictionError("sentence_count_not_positive");
  const text = reasoningText(reasoning);
  const ranges: Array<[number, number]> = [];
  let index = 0;
  while (index < text.length) {
    if (text.charCodeAt(index) !== OPEN) {
      index++;
      continue;
    }
    const start = readDigits(text, index + 1);
    if (start === undefined) {
      index++;
      continue;
    }
    let last = start.value;
    let position = start.end;
    let compactEnd = false;
    if (text.charCodeAt(position) === HYPHEN) {
      // After "[digits-" only "digits]" can complete a match; the start alone would need "]".
      const end = readDigits(text, position + 1);
      if (end === undefined || text.charCodeAt(end.end) !== CLOSE) {
        index++;
        continue;
      }
      last = end.value;
      position = end.end + 1;
      compactEnd = true;
    } else if (text.charCodeAt(position) === CLOSE) {
      position++;
    } else {
      index++;
      continue;
    }
    if (text.charCodeAt(position) === HYPHEN) {
      const separatedEnd = readBracketedNumber(text, position + 1);
      if (separatedEnd !== undefined) {
        if (!compactEnd) last = separatedEnd.value;
        position = separatedEnd.end;
      }
    }
    const first = start.value;
    if (first < 1 || last < first || last > sentenceCount || !Number.isFinite(last)) {
      throw new DocumentContradictionError("reasoning_reference_out_of_document");
    }
    ranges.push([first, last]);
    index = position;
  }
  return expandRanges(ranges);
}

/** Sorted unique members of inclusive ranges; merging first keeps repeated wide ranges cheap. */
function expandRanges(ranges: Array<[number, number]>): number[] {
  ranges.sort((a, b) => a[0] - b[0]);
  const ids: number[] = [];
  let next = -Infinity; // smallest ID not yet emitted that can still appear
  for (const [first, last] of ranges) {
    for (let id = Math.max(first, next); id <= last; id++) ids.push(id);
    next = Math.max(next, last + 1);
  }
  return ids;
}
