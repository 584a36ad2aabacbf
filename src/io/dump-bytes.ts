// A dump line's fastest path (docs/eval.md, "Performance"): one pass over the line's UTF-8 bytes,
// as read, for the three shapes judges write (structured, cache-shaped, raw completion), recording where
// the values scoring needs lie in the block, the few numbers it needs and the sentence references
// of the reasoning and completion (core/document/references.ts), and building no string and no
// object. It accepts a narrower grammar than the string scanner (dump-scan.ts):
//   line   = "{" [member ("," member)*] "}" [spaces]     spaces (0x20) only between tokens
//   member = key ":" value     key: a string without escapes, a field below at most once
//   case_id, run: a string without escapes (run: or an integer); judgment: true, false or such a
//   string; evidence_sentence_ids: a list of integers; reasoning, completion: a string whose
//   escapes are `\" \\ \/ \b \f \n \r \t` (no `\u`); any other key but `id`, `sample`, `evidence`,
//   `error`, `custom_id`, `response` and `__proto__`: a string, true, false, an
//   integer, a list of those, or an object of those and lists (its value is checked, then unused).
//   prediction (the cache shape): an object of judgment, evidence_sentence_ids, reasoning, completion
//   and other keys as above (nested one level less), with none of those four on the line itself.
//   integer: 0, or 1-9 then digits, at most 15 digits in all.
// No control byte, no `null`, no number with a sign, fraction or exponent. Any other line is not
// this scanner's: the caller decodes it and takes the string path, which keeps every rule of the
// full parser (floats such as `2.0`, duplicate keys, depth, `\u` escapes, `null`) in one place.
// test/document-eval/score-bytes.property.test.ts holds the two paths to the same scores.

import {
  type BlockRows,
  ROW_CASE_END,
  ROW_CASE_START,
  ROW_COMPLETION_END,
  ROW_COMPLETION_START,
  ROW_EVIDENCE_COUNT,
  ROW_EVIDENCE_FROM,
  ROW_FIELDS,
  ROW_JUDGMENT,
  ROW_LAYOUT_MIDDLE,
  ROW_LAYOUT_NEWLINE,
  ROW_REASONING_END,
  ROW_REASONING_ESCAPED,
  ROW_REASONING_START,
  ROW_REFERENCE_COUNT,
  ROW_REFERENCE_FROM,
  ROW_REFERENCE_HIGHEST,
  ROW_REFERENCE_SUMMARY,
  ROW_RUN_END,
  ROW_RUN_KIND,
  ROW_RUN_START,
  ROW_RUN_VALUE,
  ROW_STATUS,
  scanBlockRows,
} from "./block-scan.js";
import { byteWords, byteWordsAt, type ByteWords } from "./byte-words.js";
import { RAW_MARKERS, tagAt } from "./layout-bytes.js";
import { clearReferences, recordReference, referenceAt } from "../core/document/references.js";

/** Digits an integer may have here: every such value is exact in a double. */
const MAX_DIGITS = 15;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const LESS = 0x3c;
const OPEN_REFERENCE = OPEN_LIST;
const SLASH = 0x2f;
/** The `n` of the escape `\n`. */
const NEWLINE_ESCAPE = 0x6e;

/** Where a scanned string's content lies in the block (quotes excluded), and whether it holds an escape. */
export interface ByteSpan {
  start: number;
  end: number;
  escaped: boolean;
}

/** A field's value as scanned: absent, or where it lies. */
export const RUN_ABSENT = 0;
export const RUN_INTEGER = 1;
export const RUN_STRING = 2;
export const JUDGMENT_ABSENT = 0;
export const JUDGMENT_TRUE = 1;
export const JUDGMENT_FALSE = 2;
export const JUDGMENT_STRING = 3;

/**
 * The fields of the line scanned last (one object, reused: nothing is allocated per line). Offsets
 * are into the block given to `scanLineBytes`; a span's start is -1 when the field is absent.
 */
export interface ScannedLine {
  caseId: ByteSpan;
  runKind: number;
  /** The integer run (RUN_INTEGER). */
  runValue: number;
  /** The string run (RUN_STRING). */
  run: ByteSpan;
  judgmentKind: number;
  /** The string judgment (JUDGMENT_STRING). */
  judgment: ByteSpan;
  /** Entries of evidence_sentence_ids in evidence[0 .. evidenceCount); -1 when absent. */
  evidenceCount: number;
  evidence: Float64Array;
  reasoning: ByteSpan;
  completion: ByteSpan;
  /**
   * When the completion's raw bytes hold the layout: where its middle marker (a newline,
   * `</think>`, …) begins, and the newline ending its judgment line; else layoutMiddle is -1. Set
   * with `completion`.
   */
  layoutMiddle: number;
  layoutNewline: number;
  /**
   * In the completion's decoded bytes, after decodeCompletion: where each newline (0x0a) lies, in
   * newlines[0 .. newlineCount), and each `<`, in tags[0 .. tagCount).
   */
  newlines: Int32Array;
  newlineCount: number;
  tags: Int32Array;
  tagCount: number;
  /** Whether the completion holds a `\/` escape: a `/` its raw bytes do not show, so a tag they do not show. */
  completionSlash: boolean;
  /** The bytes decodeCompletion wrote, valid until its next call. */
  decoded: Uint8Array;
  /**
   * What the line's references come to when its row said it (`summarizedReferenceCount`): the
   * summary, -1 when the references were recorded instead, and the highest ID they cite.
   */
  referenceSummary: number;
  referenceHighest: number;
}

const span = (): ByteSpan => ({ start: -1, end: -1, escaped: false });

export const scanned: ScannedLine = {
  caseId: span(),
  runKind: RUN_ABSENT,
  runValue: 0,
  run: span(),
  judgmentKind: JUDGMENT_ABSENT,
  judgment: span(),
  evidenceCount: -1,
  evidence: new Float64Array(64),
  reasoning: span(),
  completion: span(),
  layoutMiddle: -1,
  layoutNewline: -1,
  newlines: new Int32Array(64),
  newlineCount: 0,
  tags: new Int32Array(64),
  tagCount: 0,
  completionSlash: false,
  decoded: new Uint8Array(1 << 12),
  referenceSummary: -1,
  referenceHighest: 0,
};

// Whether the last string scanString read holds an escape (its content lies between the quote it
// was given and the position it returned). Module state, not a result object (the scan is
// synchronous and never re-entered); positions are passed and returned as numbers (-1: the line
// leaves the grammar), so the loops run on locals.
let stringEscaped = false;
/** Whether the last string restOfString read holds the escape `\/`. */
let stringSlash = false;
/** The integer scanScalar or scanInteger read last. */
let integerValue = 0;

function skipSpaces(b: Uint8Array, at: number, limit: number): number {
  while (at < limit && b[at] === SPACE) at++;
  return at;
}

/** Bytes a string's scan stops at: the quote, the backslash, and control bytes (refused raw in a JSON string). */
const STOPS = new Uint8Array(256);
for (let c = 0; c < SPACE; c++) STOPS[c] = 1;
STOPS[QUOTE] = 1;
STOPS[BACKSLASH] = 1;
/** A reasoning's scan stops at a `[` too: where a sentence reference may start. */
const STOPS_OR_REFERENCE = STOPS.slice();
STOPS_OR_REFERENCE[OPEN_REFERENCE] = 1;
/** A think text's scan stops at a `<` as well: where a tag may start. */
const STOPS_OR_TAG = STOPS_OR_REFERENCE.slice();
STOPS_OR_TAG[LESS] = 1;

// The block being scanned, seen four bytes at a time (little-endian, unaligned): string content
// and keys are read a word per step. Made again only when the block changes.
let viewOf: Uint8Array | undefined;
let view = new DataView(new ArrayBuffer(0));

/** The block scanLineBytes scanned last, read four bytes at a time (little-endian, unaligned). */
export function blockWords(): DataView {
  return view;
}

function viewBlock(block: Uint8Array): void {
  if (viewOf === block) return;
  viewOf = block;
  view = new DataView(block.buffer as ArrayBuffer, block.byteOffset, block.byteLength);
}

// Stop bytes in a word x (four bytes, little-endian), as a mask whose lowest set bit is the top bit
// of the first one: each term borrows into a byte's top bit when the byte is below 0x20, or equal
// to the quote, the backslash, the `[` or the `<`; `& ~x` drops bytes of 0x80 and above. A borrow
// can mark a byte above a real stop, never below one, so the lowest mark is exact.
const belowSpace = (x: number): number => x - 0x20202020;
const equalTo = (x: number, repeated: number): number => (x ^ repeated) - 0x01010101;
const QUOTES = 0x22222222;
const BACKSLASHES = 0x5c5c5c5c;
const LESSES = 0x3c3c3c3c;
const OPENS = 0x5b5b5b5b;

/** The byte whose top bit is the lowest set bit of `mask`, counted from `at`. */
const firstMarked = (at: number, mask: number): number => at + ((31 - Math.clz32(mask & -mask)) >> 3);

/** The first stop byte in b[i .. limit), or limit. */
function nextStop(b: Uint8Array, i: number, limit: number): number {
  const words = view;
  for (; i + 4 <= limit; i += 4) {
    const x = words.getInt32(i, true);
    const mask = (belowSpace(x) | equalTo(x, QUOTES) | equalTo(x, BACKSLASHES)) & ~x & 0x80808080;
    if (mask !== 0) return firstMarked(i, mask);
  }
  while (i < limit && STOPS[b[i]!] === 0) i++;
  return i;
}

/** The first stop byte or `[` in b[i .. limit), or limit. */
function nextStopOrReference(b: Uint8Array, i: number, limit: number): number {
  const words = view;
  for (; i + 4 <= limit; i += 4) {
    const x = words.getInt32(i, true);
    const mask = (belowSpace(x) | equalTo(x, QUOTES) | equalTo(x, BACKSLASHES) | equalTo(x, OPENS)) & ~x & 0x80808080;
    if (mask !== 0) return firstMarked(i, mask);
  }
  while (i < limit && STOPS_OR_REFERENCE[b[i]!] === 0) i++;
  return i;
}

/** The first stop byte, `[` or `<` in b[i .. limit), or limit. */
function nextStopOrTag(b: Uint8Array, i: number, limit: number): number {
  const words = view;
  for (; i + 4 <= limit; i += 4) {
    const x = words.getInt32(i, true);
    const mask = (belowSpace(x) | equalTo(x, QUOTES) | equalTo(x, BACKSLASHES) | equalTo(x, OPENS) | equalTo(x, LESSES)) & ~x & 0x80808080;
    if (mask !== 0) return firstMarked(i, mask);
  }
  while (i < limit && STOPS_OR_TAG[b[i]!] === 0) i++;
  return i;
}

/**
 * Escapes that decode to one character which is neither a digit nor a bracket nor a hyphen (nor
 * a `<`); `\u` can spell any character, so it is the string path's.
 */
function plainEscape(e: number | undefined): boolean {
  return e === QUOTE || e === BACKSLASH || e === SLASH || e === 0x62 || e === 0x66 || e === NEWLINE_ESCAPE || e === 0x72 || e === 0x74;
}

/** The string whose opening quote is at `at`: the position after its closing quote, or -1. */
function scanString(b: Uint8Array, at: number, limit: number, allowEscapes: boolean): number {
  return restOfString(b, at + 1, limit, allowEscapes, false);
}

/**
 * The rest of a string from `i` (a byte of its content, not inside an escape): the position after
 * its closing quote, or -1. With `references`, its sentence references are recorded on the way
 * (`referenceAt`): a reasoning's or a think text's, found as the string is read rather than read
 * again for them.
 */
function restOfString(b: Uint8Array, i: number, limit: number, allowEscapes: boolean, references: boolean): number {
  let escaped = false;
  let slash = false;
  for (;;) {
    i = references ? nextStopOrReference(b, i, limit) : nextStop(b, i, limit);
    if (i >= limit) return -1;
    const c = b[i]!;
    if (c === QUOTE) break;
    if (c === OPEN_REFERENCE) {
      const after = referenceAt(b, i, limit);
      i = after < 0 ? i + 1 : after;
      continue;
    }
    const e = b[i + 1];
    if (c !== BACKSLASH || !allowEscapes || !plainEscape(e)) return -1;
    if (e === SLASH) slash = true;
    escaped = true;
    i += 2;
  }
  stringEscaped = escaped;
  stringSlash = slash;
  return i + 1;
}

/**
 * The completion string whose opening quote is at `at`, as scanString reads it: the position
 * after its closing quote, or -1. Read in the layout (layout-bytes.ts) as far as its raw bytes
 * hold it, recording the think text's references on the way, then as any other string: when the
 * layout holds to the closing quote, scanned.layoutMiddle and layoutNewline say where its parts
 * lie; scanned.completionSlash says whether it holds `\/` (a `/`, so maybe a tag, that the raw
 * bytes do not show).
 */
function scanCompletion(b: Uint8Array, at: number, limit: number): number {
  const s = scanned;
  s.layoutMiddle = -1;
  const start = at + 1;
  let i = start;
  if (byteWordsAt(view, start, limit, RAW_MARKERS.thinkOpen)) {
    i = layoutUntil(b, start, limit);
    if (i < 0 || s.layoutMiddle >= 0) {
      s.completionSlash = false;
      stringEscaped = true;
      return i;
    }
  }
  const after = restOfString(b, i, limit, true, false);
  s.completionSlash = stringSlash;
  stringEscaped ||= i > start;
  return after;
}

/**
 * Reads the completion from `start` (its content's first byte, after which `<think>` and a raw
 * newline lie) in the layout, as `parseCompletionLayout` (dump.ts) reads the text: on to after its
 * closing quote, setting scanned.layoutMiddle and layoutNewline, when the layout holds to there;
 * else the position where it stops holding (never inside an escape), for the caller to read on as
 * any string; -1 when the line leaves the grammar. It stops where the layout cannot hold (no
 * middle marker, a tag out of place, answer lines or an end other than the layout's, none of
 * which the raw bytes hide) or at a `\/`, which may hide a tag.
 */
function layoutUntil(b: Uint8Array, start: number, limit: number): number {
  const m = RAW_MARKERS;
  // The middle marker begins at the first newline it can, the one after `<think>` included: a
  // newline then `<` (checked first, as most newlines begin no marker). One without `Judgment: `
  // after it is passed over, and its `</think>` then read as a tag out of place.
  let i = start + m.thinkOpen.length - m.newline;
  if (b[i + m.newline] !== LESS || !byteWordsAt(view, i, limit, m.thinkToJudgment)) {
    i += m.newline;
    for (;;) {
      i = nextStopOrTag(b, i, limit);
      if (i >= limit) return -1;
      const c = b[i]!;
      if (c === OPEN_REFERENCE) {
        const after = referenceAt(b, i, limit);
        i = after < 0 ? i + 1 : after;
        continue;
      }
      if (c === LESS) {
        if (tagAt(b, view, i, limit)) return i;
        i++;
        continue;
      }
      // The closing quote, a control byte, `\/` or an escape outside the grammar: read on as a string.
      const e = b[i + 1];
      if (c !== BACKSLASH || e === SLASH || !plainEscape(e)) return i;
      if (e === NEWLINE_ESCAPE && b[i + m.newline] === LESS && byteWordsAt(view, i, limit, m.thinkToJudgment)) break;
      i += 2;
    }
  }
  const middle = i;
  // The judgment line up to the first newline, the evidence line up to the newline of `</answer>`, then the quote.
  const newline = nextStop(b, middle + m.thinkToJudgment.length, limit);
  if (!byteWordsAt(view, newline, limit, m.judgmentToEvidence)) return newline;
  const answerEnd = nextStop(b, newline + m.judgmentToEvidence.length, limit);
  const quote = answerEnd + m.answerClose.length;
  if (!byteWordsAt(view, answerEnd, limit, m.answerClose) || b[quote] !== QUOTE) return answerEnd;
  scanned.layoutMiddle = middle;
  scanned.layoutNewline = newline;
  return quote + 1;
}

/** The integer at `at` into integerValue: the position after it, or -1 when it is not one of the grammar's integers. */
function scanInteger(b: Uint8Array, at: number, limit: number): number {
  const start = at;
  let value = 0;
  while (at < limit) {
    const c = b[at]!;
    if (c < 0x30 || c > 0x39) break;
    value = value * 10 + (c - 0x30);
    at++;
  }
  const digits = at - start;
  if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && b[start] === 0x30)) return -1;
  // A fraction or an exponent: the string path's float rule applies.
  if (at < limit && (b[at] === 0x2e || b[at] === 0x65 || b[at] === 0x45)) return -1;
  integerValue = value;
  return at;
}

// `true`, and `false` after its `f`, as `view` reads them.
const TRUE_WORD = byteWords("true").words[0]!;
const ALSE_WORD = byteWords("alse").words[0]!;

/** Whether `true` is at `at` (inside the line). */
function trueAt(at: number, limit: number): boolean {
  return at + 4 <= limit && view.getInt32(at, true) === TRUE_WORD;
}

/** Whether `false` is at `at` (inside the line), where the block has an `f`. */
function falseAt(at: number, limit: number): boolean {
  return at + 5 <= limit && view.getInt32(at + 1, true) === ALSE_WORD;
}

/** Kind of the scalar scanScalar read last. */
let scalarKind = 0;
const STRING = 1;
const INTEGER = 2;
const BOOLEAN_TRUE = 3;
const BOOLEAN_FALSE = 4;

/** A scalar at `at` (its kind in scalarKind): the position after it, or -1. */
function scanScalar(b: Uint8Array, at: number, limit: number): number {
  const c = b[at];
  if (c === QUOTE) {
    scalarKind = STRING;
    return scanString(b, at, limit, true);
  }
  if (c !== undefined && c >= 0x30 && c <= 0x39) {
    scalarKind = INTEGER;
    return scanInteger(b, at, limit);
  }
  if (c === 0x74 && trueAt(at, limit)) {
    scalarKind = BOOLEAN_TRUE;
    return at + 4;
  }
  if (c === 0x66 && falseAt(at, limit)) {
    scalarKind = BOOLEAN_FALSE;
    return at + 5;
  }
  return -1;
}

/** A list of scalars at `at`; with `ids`, of integers only, kept in scanned.evidence. The position after it, or -1. */
function scanList(b: Uint8Array, at: number, limit: number, ids: boolean): number {
  let count = 0;
  at = skipSpaces(b, at + 1, limit);
  if (b[at] === CLOSE_LIST) {
    if (ids) scanned.evidenceCount = 0;
    return at + 1;
  }
  for (;;) {
    at = scanScalar(b, skipSpaces(b, at, limit), limit);
    if (at < 0 || (ids && scalarKind !== INTEGER)) return -1;
    if (ids) {
      if (count === scanned.evidence.length) {
        const grown = new Float64Array(count * 2);
        grown.set(scanned.evidence);
        scanned.evidence = grown;
      }
      scanned.evidence[count++] = integerValue;
    }
    at = skipSpaces(b, at, limit);
    if (at >= limit) return -1;
    const c = b[at++];
    if (c === CLOSE_LIST) {
      if (ids) scanned.evidenceCount = count;
      return at;
    }
    if (c !== COMMA) return -1;
  }
}

/** A value nobody reads: checked against the grammar (an object one level deep at most), then dropped. */
function skipValue(b: Uint8Array, at: number, limit: number, nested: boolean): number {
  const c = b[at];
  if (c === OPEN_LIST) return scanList(b, at, limit, false);
  if (c !== OPEN_OBJECT) return scanScalar(b, at, limit);
  if (nested) return -1;
  at = skipSpaces(b, at + 1, limit);
  if (b[at] === CLOSE_OBJECT) return at + 1;
  for (;;) {
    at = skipSpaces(b, at, limit);
    if (b[at] !== QUOTE || (at = scanString(b, at, limit, true)) < 0) return -1;
    at = skipSpaces(b, at, limit);
    if (b[at] !== COLON) return -1;
    at = skipValue(b, skipSpaces(b, at + 1, limit), limit, true);
    if (at < 0) return -1;
    at = skipSpaces(b, at, limit);
    if (at >= limit) return -1;
    const next = b[at++];
    if (next === CLOSE_OBJECT) return at;
    if (next !== COMMA) return -1;
  }
}

/** The keys this scanner reads, and those whose presence sends a line to the string path. */
const KEY_OTHER = 0;
const KEY_CASE_ID = 1;
const KEY_RUN = 2;
const KEY_JUDGMENT = 3;
const KEY_EVIDENCE_IDS = 4;
const KEY_REASONING = 5;
const KEY_COMPLETION = 6;
const KEY_LEFT_TO_STRING_PATH = 7;
const KEY_PREDICTION = 8;

// The keys in an open-addressing table keyed by their first word as `view` reads it after the
// opening quote (`run`, under four bytes, with its closing quote), each with its byte length and
// all its words (at 0, 4, 8 … and the one ending at its last byte, so that every byte is in one).
// A key is told by its first word, its length and its closing quote, without first scanning it.
const KEY_SLOTS = 64;
const slotLength = new Uint8Array(KEY_SLOTS);
const slotHead = new Int32Array(KEY_SLOTS);
const slotKind = new Uint8Array(KEY_SLOTS);
const slotWords: ByteWords[] = [];
const keySlot = (head: number): number => Math.imul(head, 0x9e3779b1) >>> 26;
for (const [key, kind] of [
  ["case_id", KEY_CASE_ID],
  ["run", KEY_RUN],
  ["judgment", KEY_JUDGMENT],
  ["evidence_sentence_ids", KEY_EVIDENCE_IDS],
  ["reasoning", KEY_REASONING],
  ["completion", KEY_COMPLETION],
  ["prediction", KEY_PREDICTION],
  ...["sample", "evidence", "error", "custom_id", "response", "__proto__"].map((k) => [k, KEY_LEFT_TO_STRING_PATH] as const),
] as const) {
  const spelled = byteWords(key.length < 4 ? `${key}"` : key);
  const head = spelled.words[0]!;
  let slot = keySlot(head);
  while (slotLength[slot] !== 0) slot = (slot + 1) & (KEY_SLOTS - 1);
  slotLength[slot] = key.length;
  slotHead[slot] = head;
  slotKind[slot] = kind;
  slotWords[slot] = spelled;
}
/** `id` and its closing quote, the one key under three bytes: the first three bytes of its word. */
const ID_HEAD = 0x22 * 0x10000 + 0x64 * 0x100 + 0x69;

/** The kind of the key scanKey read last. */
let keyRead = KEY_OTHER;

/** The key whose opening quote is at `at` (its kind in keyRead): the position after its closing quote, or -1. */
function scanKey(b: Uint8Array, at: number, limit: number): number {
  if (at + 5 <= limit) {
    const head = view.getInt32(at + 1, true);
    for (let slot = keySlot(head); slotLength[slot] !== 0; slot = (slot + 1) & (KEY_SLOTS - 1)) {
      const after = at + 2 + slotLength[slot]!;
      if (slotHead[slot] === head && after <= limit && b[after - 1] === QUOTE && byteWordsAt(view, at + 1, limit, slotWords[slot]!)) {
        keyRead = slotKind[slot]!;
        return after;
      }
    }
    if ((head & 0xffffff) === ID_HEAD) {
      keyRead = KEY_LEFT_TO_STRING_PATH;
      return at + 4;
    }
  }
  // Not a key this scanner reads, or one spelled with an escape (which the string path reads).
  keyRead = KEY_OTHER;
  return scanString(b, at, limit, false);
}

/** Records the string scanString read from the quote at `quote` to the position `after` it returned. */
function setSpan(target: ByteSpan, quote: number, after: number): void {
  target.start = quote + 1;
  target.end = after - 1;
  target.escaped = stringEscaped;
}

/** Whether the line has a `prediction` object (the cache shape): its fields are the prediction's, the line's own are not read. */
let inPrediction = false;
let predictionSeen = false;

/** Whether one of the prediction's own fields (judgment, evidence, reasoning, completion) was read already. */
function predictionFieldRead(): boolean {
  return scanned.judgmentKind !== JUDGMENT_ABSENT || scanned.evidenceCount >= 0 || scanned.reasoning.start >= 0 || scanned.completion.start >= 0;
}

/**
 * A `prediction` object at `at`: the position after it, or -1. Its judgment, evidence IDs, reasoning
 * and completion fill the slots; any other field mari reads inside it, or any of those fields on
 * the line itself, leaves the line to the string path.
 */
function scanPrediction(b: Uint8Array, at: number, limit: number): number {
  if (predictionSeen || predictionFieldRead()) return -1;
  predictionSeen = true;
  inPrediction = true;
  at = skipSpaces(b, at + 1, limit);
  if (b[at] === CLOSE_OBJECT) {
    inPrediction = false;
    return at + 1;
  }
  for (;;) {
    at = skipSpaces(b, at, limit);
    if (b[at] !== QUOTE || (at = scanKey(b, at, limit)) < 0) return -1;
    const kind = keyRead;
    if (kind !== KEY_OTHER && kind !== KEY_JUDGMENT && kind !== KEY_EVIDENCE_IDS && kind !== KEY_REASONING && kind !== KEY_COMPLETION) return -1;
    at = skipSpaces(b, at, limit);
    if (b[at] !== COLON) return -1;
    at = skipSpaces(b, at + 1, limit);
    if (at >= limit || (at = kind === KEY_OTHER ? skipValue(b, at, limit, true) : scanField(b, at, limit, kind)) < 0) return -1;
    at = skipSpaces(b, at, limit);
    if (at >= limit) return -1;
    const next = b[at++];
    if (next === CLOSE_OBJECT) {
      inPrediction = false;
      return at;
    }
    if (next !== COMMA) return -1;
  }
}

/** One member's value at `at`, for a key of kind `kind`: the position after it, or -1. */
function scanField(b: Uint8Array, at: number, limit: number, kind: number): number {
  const c = b[at];
  const value = at;
  // A line's own prediction fields beside a `prediction` object are not the prediction's.
  if (predictionSeen && !inPrediction && kind >= KEY_JUDGMENT && kind <= KEY_COMPLETION) return -1;
  switch (kind) {
    case KEY_CASE_ID:
      if (scanned.caseId.start >= 0 || c !== QUOTE || (at = scanString(b, at, limit, false)) < 0) return -1;
      setSpan(scanned.caseId, value, at);
      return at;
    case KEY_RUN:
      if (scanned.runKind !== RUN_ABSENT) return -1;
      if (c === QUOTE) {
        if ((at = scanString(b, at, limit, false)) < 0) return -1;
        setSpan(scanned.run, value, at);
        scanned.runKind = RUN_STRING;
        return at;
      }
      if ((at = scanInteger(b, at, limit)) < 0) return -1;
      scanned.runValue = integerValue;
      scanned.runKind = RUN_INTEGER;
      return at;
    case KEY_JUDGMENT:
      if (scanned.judgmentKind !== JUDGMENT_ABSENT) return -1;
      if (c === QUOTE) {
        if ((at = scanString(b, at, limit, false)) < 0) return -1;
        setSpan(scanned.judgment, value, at);
        scanned.judgmentKind = JUDGMENT_STRING;
        return at;
      }
      if (c === 0x74 && trueAt(at, limit)) {
        scanned.judgmentKind = JUDGMENT_TRUE;
        return at + 4;
      }
      if (c === 0x66 && falseAt(at, limit)) {
        scanned.judgmentKind = JUDGMENT_FALSE;
        return at + 5;
      }
      return -1;
    case KEY_EVIDENCE_IDS:
      return scanned.evidenceCount < 0 && c === OPEN_LIST ? scanList(b, at, limit, true) : -1;
    case KEY_REASONING:
      if (scanned.reasoning.start >= 0 || c !== QUOTE || (at = restOfString(b, at + 1, limit, true, true)) < 0) return -1;
      setSpan(scanned.reasoning, value, at);
      return at;
    case KEY_COMPLETION:
      if (scanned.completion.start >= 0 || c !== QUOTE || (at = scanCompletion(b, at, limit)) < 0) return -1;
      setSpan(scanned.completion, value, at);
      return at;
    case KEY_PREDICTION:
      return c === OPEN_OBJECT ? scanPrediction(b, at, limit) : -1;
    case KEY_OTHER:
      return skipValue(b, at, limit, false);
    default:
      return -1;
  }
}

/**
 * Scans the line `block[start .. end)` (its newline excluded; a final "\r" is the caller's to drop)
 * into `scanned`; false when the line is outside the grammar (then nothing in `scanned` holds). The
 * block must be valid UTF-8.
 */
export function scanLineBytes(block: Uint8Array, start: number, end: number): boolean {
  if (start >= end || block[start] !== OPEN_OBJECT) return false;
  viewBlock(block);
  scanned.caseId.start = -1;
  scanned.runKind = RUN_ABSENT;
  scanned.judgmentKind = JUDGMENT_ABSENT;
  scanned.evidenceCount = -1;
  scanned.reasoning.start = -1;
  scanned.completion.start = -1;
  predictionSeen = false;
  inPrediction = false;
  scanned.referenceSummary = -1;
  clearReferences();
  let at = skipSpaces(block, start + 1, end);
  if (block[at] === CLOSE_OBJECT) return skipSpaces(block, at + 1, end) === end;
  for (;;) {
    at = skipSpaces(block, at, end);
    if (block[at] !== QUOTE || (at = scanKey(block, at, end)) < 0) return false;
    const kind = keyRead;
    at = skipSpaces(block, at, end);
    if (block[at] !== COLON) return false;
    at = skipSpaces(block, at + 1, end);
    if (at >= end || (at = scanField(block, at, end, kind)) < 0) return false;
    at = skipSpaces(block, at, end);
    if (at >= end) return false;
    const next = block[at++];
    if (next === CLOSE_OBJECT) return skipSpaces(block, at, end) === end;
    if (next !== COMMA) return false;
  }
}

// A block's lines read ahead in WebAssembly (block-scan.ts): the block they were read from, and their rows.
let aheadBlock: Uint8Array | undefined;
let ahead: BlockRows | undefined;

/**
 * Reads the block's lines ahead (block-scan.ts), line k ending at ends[k]: scanLineAt then takes
 * each line of the shape read there from its row. The block must be valid UTF-8. Returns the rows
 * (undefined when the block was not read there), with `tailBytes` of room after them for the caller.
 */
export function scanLinesAhead(block: Uint8Array, ends: Int32Array, tailBytes = 0): BlockRows | undefined {
  ahead = scanBlockRows(block, ends, tailBytes);
  aheadBlock = ahead === undefined ? undefined : block;
  return ahead;
}

/**
 * scanLineBytes of line `line` (block[start .. end)) of the block scanLinesAhead read last: from its
 * row when the line has the shape read there, else by this module's scanner.
 */
export function scanLineAt(block: Uint8Array, start: number, end: number, line: number): boolean {
  if (block !== aheadBlock || ahead === undefined || ahead.rows[line * ROW_FIELDS + ROW_STATUS] !== 1) return scanLineBytes(block, start, end);
  viewBlock(block);
  const { rows, numbers, references } = ahead;
  const row = line * ROW_FIELDS;
  const s = scanned;
  s.caseId.start = rows[row + ROW_CASE_START]!;
  s.caseId.end = rows[row + ROW_CASE_END]!;
  s.caseId.escaped = false;
  const runKind = rows[row + ROW_RUN_KIND]!;
  s.runKind = runKind;
  if (runKind === RUN_INTEGER) s.runValue = numbers[rows[row + ROW_RUN_VALUE]!]!;
  else if (runKind === RUN_STRING) {
    s.run.start = rows[row + ROW_RUN_START]!;
    s.run.end = rows[row + ROW_RUN_END]!;
    s.run.escaped = false;
  }
  s.judgmentKind = rows[row + ROW_JUDGMENT]!;
  const count = rows[row + ROW_EVIDENCE_COUNT]!;
  s.evidenceCount = count;
  if (count > 0) {
    if (s.evidence.length < count) s.evidence = new Float64Array(2 * count);
    const from = rows[row + ROW_EVIDENCE_FROM]!;
    for (let k = 0; k < count; k++) s.evidence[k] = numbers[from + k]!;
  }
  s.reasoning.start = rows[row + ROW_REASONING_START]!;
  s.reasoning.end = rows[row + ROW_REASONING_END]!;
  s.reasoning.escaped = rows[row + ROW_REASONING_ESCAPED] === 1;
  const completion = rows[row + ROW_COMPLETION_START]!;
  s.completion.start = completion;
  if (completion >= 0) {
    // The whole layout in the raw bytes: as scanCompletion records it.
    s.completion.end = rows[row + ROW_COMPLETION_END]!;
    s.completion.escaped = true;
    s.layoutMiddle = rows[row + ROW_LAYOUT_MIDDLE]!;
    s.layoutNewline = rows[row + ROW_LAYOUT_NEWLINE]!;
    s.completionSlash = false;
  }
  clearReferences();
  const summary = rows[row + ROW_REFERENCE_SUMMARY]!;
  s.referenceSummary = summary;
  s.referenceHighest = rows[row + ROW_REFERENCE_HIGHEST]!;
  if (summary === -1) {
    const first = rows[row + ROW_REFERENCE_FROM]!;
    const last = first + rows[row + ROW_REFERENCE_COUNT]!;
    for (let k = first; k < last; k++) recordReference(references[3 * k]!, references[3 * k + 1]!, references[3 * k + 2]!);
  }
  return true;
}

/** Positions of newlines or `<`s kept from one completion to the next. */
const POSITIONS_KEPT = 4096;

/** Appends `value` to `list` holding `count` entries: the list, grown when full. */
function appended(list: Int32Array, count: number, value: number): Int32Array {
  if (count === list.length) {
    const grown = new Int32Array(2 * count);
    grown.set(list);
    list = grown;
  }
  list[count] = value;
  return list;
}

/**
 * Decodes the completion into scanned.decoded (valid until the next call) and records where its
 * newlines and `<`s are there: its length.
 */
export function decodeCompletion(block: Uint8Array): number {
  const s = scanned;
  const { start, end } = s.completion;
  // A hostile completion's millions of positions are not held until the next one.
  if (s.newlines.length > POSITIONS_KEPT) s.newlines = new Int32Array(64);
  if (s.tags.length > POSITIONS_KEPT) s.tags = new Int32Array(64);
  if (s.decoded.length < end - start) s.decoded = new Uint8Array(2 * (end - start));
  const out = s.decoded;
  let n = 0;
  let newlines = 0;
  let tags = 0;
  for (let i = start; i < end; i++) {
    let c = block[i]!;
    if (c === BACKSLASH) {
      const e = block[++i]!;
      c = e === NEWLINE_ESCAPE ? 0x0a : e === 0x74 ? 0x09 : e === 0x72 ? 0x0d : e === 0x62 ? 0x08 : e === 0x66 ? 0x0c : e;
      if (c === 0x0a) s.newlines = appended(s.newlines, newlines++, n);
    } else if (c === LESS) s.tags = appended(s.tags, tags++, n);
    out[n++] = c;
  }
  s.newlineCount = newlines;
  s.tagCount = tags;
  return n;
}
