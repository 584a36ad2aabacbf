// Sentence references in a judge's reasoning (docs/core-document.md): `[i]`, `[i-j]`,
// `[i]-[j]` and the odd `[i-j]-[k]`, found left to right without overlap. A hand-written scanner
// rather than a regex keeps it linear on adversarial input (e.g. a million "["). It runs once per
// scored prediction, so it allocates nothing but the ranges it finds (in reused scratch arrays)
// and rejects with a reason code, not an exception.

import { decimalDigitValue } from "../python/decimal-digits.js";
import { DocumentContradictionError, type DocumentContradictionErrorCode } from "./errors.js";

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const HYPHEN = 0x2d; // -

// The last readDigits result: the number (Infinity beyond 2^53 − 1, outside every document either
// way) and the UTF-16 index just after its last digit. Module state instead of a result object:
// the scan is synchronous and never re-entered.
let digitsValue = 0;
let digitsEnd = 0;

/**
 * One or more Unicode decimal digits starting at `index`, read as Python's int() does, into
 * digitsValue/digitsEnd; false when there is no digit there.
 */
function readDigits(text: string, index: number): boolean {
  let value = 0;
  let position = index;
  const length = text.length;
  while (position < length) {
    const code = text.charCodeAt(position);
    let digit: number;
    let width = 1;
    if (code >= 0x30 && code <= 0x39) digit = code - 0x30;
    else if (code < 0x80) break;
    else {
      const codePoint = text.codePointAt(position) as number;
      digit = decimalDigitValue(codePoint);
      if (digit < 0) break;
      if (codePoint > 0xffff) width = 2;
    }
    value = value * 10 + digit;
    if (value > Number.MAX_SAFE_INTEGER) value = Infinity;
    position += width;
  }
  if (position === index) return false;
  digitsValue = value;
  digitsEnd = position;
  return true;
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

// The references found by the last scan, merged: firsts[k]..lasts[k] for k < mergedCount, sorted
// and disjoint. Reused from scan to scan (they only grow to the most references one text held).
const firsts: number[] = [];
const lasts: number[] = [];
let mergedCount = 0;
/** Scratch entries kept between scans. */
const SCRATCH_KEPT = 4096;
/** Above this many references the pairs are sorted with Array#sort rather than by insertion. */
const INSERTION_SORT_MAX = 16;

/**
 * Finds the references of `text` into firsts/lasts (merged into sorted disjoint ranges), or returns
 * the reason it is rejected: a reference starting below 1, a reversed range, or one ending beyond
 * sentenceCount (a year such as `[2023]` included). In `[i-j]-[k]` the compact end j wins.
 */
function scanReferences(text: string, sentenceCount: number): DocumentContradictionErrorCode | undefined {
  if (firsts.length > SCRATCH_KEPT) {
    // A hostile text's millions of references are not held until the next one.
    firsts.length = 0;
    lasts.length = 0;
  }
  let count = 0;
  let index = text.indexOf("[");
  while (index !== -1) {
    if (!readDigits(text, index + 1)) {
      index = text.indexOf("[", index + 1);
      continue;
    }
    const first = digitsValue;
    let last = first;
    let position = digitsEnd;
    let compactEnd = false;
    const code = text.charCodeAt(position);
    if (code === HYPHEN) {
      // After "[digits-" only "digits]" can complete a match; the start alone would need "]".
      if (!readDigits(text, position + 1) || text.charCodeAt(digitsEnd) !== CLOSE) {
        index = text.indexOf("[", index + 1);
        continue;
      }
      last = digitsValue;
      position = digitsEnd + 1;
      compactEnd = true;
    } else if (code === CLOSE) {
      position++;
    } else {
      index = text.indexOf("[", index + 1);
      continue;
    }
    // A separated end `-[k]`.
    if (text.charCodeAt(position) === HYPHEN && text.charCodeAt(position + 1) === OPEN && readDigits(text, position + 2)) {
      if (text.charCodeAt(digitsEnd) === CLOSE) {
        if (!compactEnd) last = digitsValue;
        position = digitsEnd + 1;
      }
    }
    if (first < 1 || last < first || last > sentenceCount || !Number.isFinite(last)) return "reasoning_reference_out_of_document";
    firsts[count] = first;
    lasts[count] = last;
    count++;
    index = position < text.length ? text.indexOf("[", position) : -1;
  }
  mergeRanges(count);
  return undefined;
}

/** Sorts the `count` ranges by their first ID and merges overlapping or adjacent ones, in place. */
function mergeRanges(count: number): void {
  if (count > INSERTION_SORT_MAX) {
    const order = Array.from({ length: count }, (_, k) => k).sort((a, b) => firsts[a]! - firsts[b]!);
    const sortedFirsts = order.map((k) => firsts[k]!);
    const sortedLasts = order.map((k) => lasts[k]!);
    for (let k = 0; k < count; k++) {
      firsts[k] = sortedFirsts[k]!;
      lasts[k] = sortedLasts[k]!;
    }
  } else {
    for (let k = 1; k < count; k++) {
      const first = firsts[k]!;
      const last = lasts[k]!;
      let at = k;
      while (at > 0 && firsts[at - 1]! > first) {
        firsts[at] = firsts[at - 1]!;
        lasts[at] = lasts[at - 1]!;
        at--;
      }
      firsts[at] = first;
      lasts[at] = last;
    }
  }
  let merged = 0;
  for (let k = 0; k < count; k++) {
    const first = firsts[k]!;
    const last = lasts[k]!;
    if (merged > 0 && first <= lasts[merged - 1]! + 1) {
      if (last > lasts[merged - 1]!) lasts[merged - 1] = last;
    } else {
      firsts[merged] = first;
      lasts[merged] = last;
      merged++;
    }
  }
  mergedCount = merged;
}

/**
 * How many distinct sentence IDs the reasoning cites (what reference coverage needs, without
 * listing them), or the reason it is rejected: `sentence_count_not_positive` when sentenceCount < 1
 * (checked first), else `reasoning_reference_out_of_document` as parseReasoningReferences throws it.
 */
export function reasoningReferenceCount(reasoning: unknown, sentenceCount: number): number | DocumentContradictionErrorCode {
  if (!(sentenceCount >= 1)) return "sentence_count_not_positive";
  const rejected = scanReferences(reasoningText(reasoning), sentenceCount);
  if (rejected !== undefined) return rejected;
  let total = 0;
  for (let k = 0; k < mergedCount; k++) total += lasts[k]! - firsts[k]! + 1;
  return total;
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
  const rejected = scanReferences(reasoningText(reasoning), sentenceCount);
  if (rejected !== undefined) throw new DocumentContradictionError(rejected);
  const ids: number[] = [];
  for (let k = 0; k < mergedCount; k++) for (let id = firsts[k]!; id <= lasts[k]!; id++) ids.push(id);
  return ids;
}
