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
// way) and the byte index just after its last digit. Module state instead of a result object:
// the scan is synchronous and never re-entered.
let digitsValue = 0;
let digitsEnd = 0;

/** The code point of the UTF-8 sequence whose lead byte `lead` (≥ 0x80) is at `at`, its length in sequenceWidth. */
let sequenceWidth = 0;

function codePointAt(bytes: Uint8Array, at: number, lead: number): number {
  if (lead < 0xe0) {
    sequenceWidth = 2;
    return ((lead & 0x1f) << 6) | (bytes[at + 1]! & 0x3f);
  }
  if (lead < 0xf0) {
    sequenceWidth = 3;
    return ((lead & 0x0f) << 12) | ((bytes[at + 1]! & 0x3f) << 6) | (bytes[at + 2]! & 0x3f);
  }
  sequenceWidth = 4;
  return ((lead & 0x07) << 18) | ((bytes[at + 1]! & 0x3f) << 12) | ((bytes[at + 2]! & 0x3f) << 6) | (bytes[at + 3]! & 0x3f);
}

/**
 * One or more Unicode decimal digits starting at byte `index` (before `end`) of UTF-8 text, read as
 * Python's int() does, into digitsValue/digitsEnd; false when there is no digit there.
 */
function readDigits(bytes: Uint8Array, index: number, end: number): boolean {
  let value = 0;
  let position = index;
  while (position < end) {
    const code = bytes[position]!;
    let digit: number;
    let width = 1;
    if (code >= 0x30 && code <= 0x39) digit = code - 0x30;
    else if (code < 0x80) break;
    else {
      digit = decimalDigitValue(codePointAt(bytes, position, code));
      if (digit < 0) break;
      width = sequenceWidth;
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

// The text being scanned, read four bytes at a time (little-endian, unaligned) by nextOpen; made
// again only when the array changes (a dump block holds many lines' texts).
let viewOf: Uint8Array | undefined;
let view = new DataView(new ArrayBuffer(0));

/**
 * The index of the next `[` in bytes[from .. end), or -1: a word per step (a Buffer's indexOf is a
 * native call each time, dearer than the short gaps between brackets). In x, the word with every
 * byte xor-ed with `[`, a `[` is a zero byte; the lowest marked byte of the zero test is exact.
 */
function nextOpen(bytes: Uint8Array, from: number, end: number): number {
  if (viewOf !== bytes) {
    viewOf = bytes;
    view = new DataView(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  }
  let i = from;
  for (; i + 4 <= end; i += 4) {
    const x = view.getInt32(i, true) ^ 0x5b5b5b5b;
    const mask = (x - 0x01010101) & ~x & 0x80808080;
    if (mask !== 0) return i + ((31 - Math.clz32(mask & -mask)) >> 3);
  }
  for (; i < end; i++) if (bytes[i] === OPEN) return i;
  return -1;
}

/**
 * Finds the references of the UTF-8 text `bytes[start .. end)` into firsts/lasts (merged into
 * sorted disjoint ranges), or returns the reason it is rejected: a reference starting below 1, a
 * reversed range, or one ending beyond sentenceCount (a year such as `[2023]` included). In
 * `[i-j]-[k]` the compact end j wins. Only `[`, `]`, `-` and digits matter: any other character,
 * whatever its width, only breaks a match, so raw JSON string bytes with escapes other than `\u`
 * give the result of the text they decode to.
 */
function scanReferences(bytes: Uint8Array, start: number, end: number, sentenceCount: number): DocumentContradictionErrorCode | undefined {
  if (firsts.length > SCRATCH_KEPT) {
    // A hostile text's millions of references are not held until the next one.
    firsts.length = 0;
    lasts.length = 0;
  }
  let count = 0;
  let index = nextOpen(bytes, start, end);
  while (index !== -1) {
    if (!readDigits(bytes, index + 1, end)) {
      index = nextOpen(bytes, index + 1, end);
      continue;
    }
    const first = digitsValue;
    let last = first;
    let position = digitsEnd;
    let compactEnd = false;
    const code = position < end ? bytes[position] : -1;
    if (code === HYPHEN) {
      // After "[digits-" only "digits]" can complete a match; the start alone would need "]".
      if (!readDigits(bytes, position + 1, end) || digitsEnd >= end || bytes[digitsEnd] !== CLOSE) {
        index = nextOpen(bytes, index + 1, end);
        continue;
      }
      last = digitsValue;
      position = digitsEnd + 1;
      compactEnd = true;
    } else if (code === CLOSE) {
      position++;
    } else {
      index = nextOpen(bytes, index + 1, end);
      continue;
    }
    // A separated end `-[k]`.
    if (position + 1 < end && bytes[position] === HYPHEN && bytes[position + 1] === OPEN && readDigits(bytes, position + 2, end)) {
      if (digitsEnd < end && bytes[digitsEnd] === CLOSE) {
        if (!compactEnd) last = digitsValue;
        position = digitsEnd + 1;
      }
    }
    if (first < 1 || last < first || last > sentenceCount || !Number.isFinite(last)) return "reasoning_reference_out_of_document";
    firsts[count] = first;
    lasts[count] = last;
    count++;
    index = nextOpen(bytes, position, end);
  }
  mergeRanges(count);
  return undefined;
}

/** Scratch for the UTF-8 bytes of a reasoning given as text, grown as needed. */
let encoded = new Uint8Array(1 << 12);
const encoder = new TextEncoder();

/** The references of a reasoning given as a value (scanReferences over its text's UTF-8 bytes). */
function scanReasoning(reasoning: unknown, sentenceCount: number): DocumentContradictionErrorCode | undefined {
  const text = reasoningText(reasoning);
  // At most three bytes per UTF-16 code unit.
  if (encoded.length < 3 * text.length) encoded = new Uint8Array(3 * text.length);
  const { written } = encoder.encodeInto(text, encoded);
  return scanReferences(encoded, 0, written, sentenceCount);
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
  const rejected = scanReasoning(reasoning, sentenceCount);
  if (rejected !== undefined) return rejected;
  return citedCount();
}

/** How many distinct IDs the last scan's merged ranges hold. */
function citedCount(): number {
  let total = 0;
  for (let k = 0; k < mergedCount; k++) total += lasts[k]! - firsts[k]! + 1;
  return total;
}

/**
 * `reasoningReferenceCount` of the UTF-8 text `bytes[start .. end)`, given as the raw bytes of a
 * JSON string (escapes other than `\u` left in) or as decoded text: the scanner reads either alike.
 * The caller has checked sentenceCount ≥ 1.
 */
export function reasoningReferenceCountOfBytes(bytes: Uint8Array, start: number, end: number, sentenceCount: number): number | DocumentContradictionErrorCode {
  const rejected = scanReferences(bytes, start, end, sentenceCount);
  if (rejected !== undefined) return rejected;
  return citedCount();
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
  const rejected = scanReasoning(reasoning, sentenceCount);
  if (rejected !== undefined) throw new DocumentContradictionError(rejected);
  const ids: number[] = [];
  for (let k = 0; k < mergedCount; k++) for (let id = firsts[k]!; id <= lasts[k]!; id++) ids.push(id);
  return ids;
}
