// Sentence references in a judge's reasoning (docs/core-document.md): `[i]`, `[i-j]`,
// `[i]-[j]` and the odd `[i-j]-[k]`, found left to right without overlap. A hand-written scanner
// rather than a regex keeps it linear on adversarial input (e.g. a million "["). It runs once per
// scored prediction, so it allocates nothing but the ranges it finds (in reused scratch arrays)
// and rejects with a reason code, not an exception. A dump line's byte reader finds them as it
// reads the line's strings (`referenceAt`), rather than reading the text a second time.

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

// The references recorded since clearReferences, in text order: firsts[k]..lasts[k] as written
// (unchecked), the `[` of each at starts[k], for k < recordedCount. A count merges a run of them
// in place into sorted, disjoint ranges: firsts/lasts[from .. from + mergedCount). Reused from
// text to text (they only grow to the most references one line held).
const firsts: number[] = [];
const lasts: number[] = [];
const starts: number[] = [];
let recordedCount = 0;
let mergedFrom = 0;
let mergedCount = 0;
/** Scratch entries kept between texts. */
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

/** Forgets the references recorded so far (a text's, or a dump line's). */
export function clearReferences(): void {
  if (firsts.length > SCRATCH_KEPT) {
    // A hostile text's millions of references are not held until the next one.
    firsts.length = 0;
    lasts.length = 0;
    starts.length = 0;
  }
  recordedCount = 0;
}

/**
 * The reference whose `[` is at `index` of the UTF-8 text bytes[.. end), recorded as written: the
 * index after it, where the search for the next one goes on; or -1 when none starts there (the
 * search goes on at index + 1). In `[i-j]-[k]` the compact end j wins. Only `[`, `]`, `-` and
 * digits are read: a byte reader may give as `end` the end of the line rather than of its string,
 * since a string's closing quote, like a backslash or a control byte, ends any match.
 */
export function referenceAt(bytes: Uint8Array, index: number, end: number): number {
  if (!readDigits(bytes, index + 1, end)) return -1;
  const first = digitsValue;
  let last = first;
  let position = digitsEnd;
  let compactEnd = false;
  const code = position < end ? bytes[position] : -1;
  if (code === HYPHEN) {
    // After "[digits-" only "digits]" can complete a match; the start alone would need "]".
    if (!readDigits(bytes, position + 1, end) || digitsEnd >= end || bytes[digitsEnd] !== CLOSE) return -1;
    last = digitsValue;
    position = digitsEnd + 1;
    compactEnd = true;
  } else if (code === CLOSE) {
    position++;
  } else return -1;
  // A separated end `-[k]`.
  if (position + 1 < end && bytes[position] === HYPHEN && bytes[position + 1] === OPEN && readDigits(bytes, position + 2, end)) {
    if (digitsEnd < end && bytes[digitsEnd] === CLOSE) {
      if (!compactEnd) last = digitsValue;
      position = digitsEnd + 1;
    }
  }
  recordReference(first, last, index);
  return position;
}

/**
 * `recordedReferenceCount` from a summary of the references, as a reader that counted them while
 * it read them gives it: `summary` -2 when one of them starts below 1 or ends before it starts
 * (rejected for any document), else the number of distinct IDs they cite, whose highest is
 * `highest`. The caller has checked sentenceCount ≥ 1.
 */
export function summarizedReferenceCount(summary: number, highest: number, sentenceCount: number): number | DocumentContradictionErrorCode {
  return summary === -2 || highest > sentenceCount ? "reasoning_reference_out_of_document" : summary;
}

/** The references recorded since clearReferences, as [first, last, where its `[` is] (for comparing readers in tests). */
export function recordedReferences(): number[][] {
  const out: number[][] = [];
  for (let k = 0; k < recordedCount; k++) out.push([firsts[k]!, lasts[k]!, starts[k]!]);
  return out;
}

/** Records a reference as written, `[first…last]` with its `[` at `index` (referenceAt's, or one a reader found as it would). */
export function recordReference(first: number, last: number, index: number): void {
  firsts[recordedCount] = first;
  lasts[recordedCount] = last;
  starts[recordedCount] = index;
  recordedCount++;
}

/**
 * Finds the references of the UTF-8 text `bytes[start .. end)`, left to right without overlap,
 * and records them (after clearing). Only `[`, `]`, `-` and digits matter: any other character,
 * whatever its width, only breaks a match, so raw JSON string bytes with escapes other than `\u`
 * give the result of the text they decode to.
 */
function scanReferences(bytes: Uint8Array, start: number, end: number): void {
  clearReferences();
  let index = nextOpen(bytes, start, end);
  while (index !== -1) {
    const after = referenceAt(bytes, index, end);
    index = nextOpen(bytes, after < 0 ? index + 1 : after, end);
  }
}

/**
 * Checks the recorded references k in [from, to) against sentenceCount and merges them (into
 * sorted disjoint ranges from `from` on), or returns the reason they are rejected: a reference
 * starting below 1, a reversed range, or one ending beyond sentenceCount (a year such as `[2023]`
 * included).
 */
function checkRecorded(from: number, to: number, sentenceCount: number): DocumentContradictionErrorCode | undefined {
  if (outOfDocument(from, to, sentenceCount)) return "reasoning_reference_out_of_document";
  mergeRanges(from, to);
  return undefined;
}

/** Whether one of the recorded references [from, to) is rejected (see checkRecorded). */
function outOfDocument(from: number, to: number, sentenceCount: number): boolean {
  for (let k = from; k < to; k++) {
    const first = firsts[k]!;
    const last = lasts[k]!;
    if (first < 1 || last < first || last > sentenceCount || !Number.isFinite(last)) return true;
  }
  return false;
}

/** Scratch for the UTF-8 bytes of a reasoning given as text, grown as needed. */
let encoded = new Uint8Array(1 << 12);
const encoder = new TextEncoder();

/** The references of a reasoning given as a value (scanReferences over its text's UTF-8 bytes), checked and merged. */
function scanReasoning(reasoning: unknown, sentenceCount: number): DocumentContradictionErrorCode | undefined {
  const text = reasoningText(reasoning);
  // At most three bytes per UTF-16 code unit.
  if (encoded.length < 3 * text.length) encoded = new Uint8Array(3 * text.length);
  const { written } = encoder.encodeInto(text, encoded);
  scanReferences(encoded, 0, written);
  return checkRecorded(0, recordedCount, sentenceCount);
}

/** Sorts the ranges [from, to) by their first ID and merges overlapping or adjacent ones, in place from `from`. */
function mergeRanges(from: number, to: number): void {
  if (to - from > INSERTION_SORT_MAX) {
    const order = Array.from({ length: to - from }, (_, k) => from + k).sort((a, b) => firsts[a]! - firsts[b]!);
    const sortedFirsts = order.map((k) => firsts[k]!);
    const sortedLasts = order.map((k) => lasts[k]!);
    for (let k = from; k < to; k++) {
      firsts[k] = sortedFirsts[k - from]!;
      lasts[k] = sortedLasts[k - from]!;
    }
  } else {
    for (let k = from + 1; k < to; k++) {
      const first = firsts[k]!;
      const last = lasts[k]!;
      let at = k;
      while (at > from && firsts[at - 1]! > first) {
        firsts[at] = firsts[at - 1]!;
        lasts[at] = lasts[at - 1]!;
        at--;
      }
      firsts[at] = first;
      lasts[at] = last;
    }
  }
  let merged = from;
  for (let k = from; k < to; k++) {
    const first = firsts[k]!;
    const last = lasts[k]!;
    if (merged > from && first <= lasts[merged - 1]! + 1) {
      if (last > lasts[merged - 1]!) lasts[merged - 1] = last;
    } else {
      firsts[merged] = first;
      lasts[merged] = last;
      merged++;
    }
  }
  mergedFrom = from;
  mergedCount = merged - from;
}

/**
 * How many distinct sentence IDs the reasoning cites (what reference coverage needs, without
 * listing them), or the reason it is rejected: `sentence_count_not_positive` when sentenceCount < 1
 * (checked first), else `reasoning_reference_out_of_document` as parseReasoningReferences throws it.
 */
export function reasoningReferenceCount(reasoning: unknown, sentenceCount: number): number | DocumentContradictionErrorCode {
  if (!(sentenceCount >= 1)) return "sentence_count_not_positive";
  return scanReasoning(reasoning, sentenceCount) ?? citedCount();
}

/** How many distinct IDs the last merged ranges hold. */
function citedCount(): number {
  let total = 0;
  for (let k = mergedFrom; k < mergedFrom + mergedCount; k++) total += lasts[k]! - firsts[k]! + 1;
  return total;
}

/**
 * `reasoningReferenceCount` of the UTF-8 text `bytes[start .. end)`, given as the raw bytes of a
 * JSON string (escapes other than `\u` left in) or as decoded text: the scanner reads either alike.
 * The caller has checked sentenceCount ≥ 1.
 */
export function reasoningReferenceCountOfBytes(bytes: Uint8Array, start: number, end: number, sentenceCount: number): number | DocumentContradictionErrorCode {
  scanReferences(bytes, start, end);
  return referenceCountOf(0, recordedCount, sentenceCount);
}

/**
 * `reasoningReferenceCountOfBytes` of bytes[start .. end), from the references a byte reader
 * recorded (`referenceAt`) while it read the text holding that span left to right. They are those
 * scanReferences finds in the span when no match crosses `start` and the byte at `end` (a quote or
 * a backslash) ends any match. The caller has checked sentenceCount ≥ 1.
 */
export function recordedReferenceCount(start: number, end: number, sentenceCount: number): number | DocumentContradictionErrorCode {
  let from = 0;
  while (from < recordedCount && starts[from]! < start) from++;
  let to = from;
  while (to < recordedCount && starts[to]! < end) to++;
  return referenceCountOf(from, to, sentenceCount);
}

/** How many distinct IDs the recorded references [from, to) cite, or the reason they are rejected. */
function referenceCountOf(from: number, to: number, sentenceCount: number): number | DocumentContradictionErrorCode {
  if (outOfDocument(from, to, sentenceCount)) return "reasoning_reference_out_of_document";
  // Up to two ranges, the usual count, without sorting them: their sizes less their overlap.
  if (to - from <= 2) {
    if (to === from) return 0;
    const size = lasts[from]! - firsts[from]! + 1;
    if (to - from === 1) return size;
    const overlap = Math.min(lasts[from]!, lasts[from + 1]!) - Math.max(firsts[from]!, firsts[from + 1]!) + 1;
    return size + lasts[from + 1]! - firsts[from + 1]! + 1 - Math.max(0, overlap);
  }
  mergeRanges(from, to);
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
  for (let k = mergedFrom; k < mergedFrom + mergedCount; k++) for (let id = firsts[k]!; id <= lasts[k]!; id++) ids.push(id);
  return ids;
}
