// AssemblyScript, compiled by scripts/build-wasm.mjs into src/io/slice-lines-wasm.ts (the
// module's bytes, checked to be current by test/wasm-modules.test.ts).
//
// The slice lines whose every string is ASCII, read into cases without JavaScript
// (src/io/slice-scan.ts): a JSON object per line, its values strings (escapes decoded, none above
// U+007F), `true`, `false` or `null`; an `id`, a `text` and a boolean `label`, perhaps an
// `evidence`, a `scope`, a `doc_type` and fields of its own. The text is split by mari's sentence
// rule and a positive case's evidence aligned to its sentences by token Jaccard, as
// src/core/document/sentences.ts does; the case's JSON for its content hash and its own fields'
// JSON are written as JSON.stringify writes them. Any other line (a number, a list, a key read two
// times, a field the reader treats otherwise, bytes above ASCII, a case the reader would reject)
// gets no case: JavaScript reads it with the general reader, which decides, errors included.

/** Int32 fields of a line's record. */
const RECORD_INTS: i32 = 17;
const R_IS_CASE: i32 = 0;
const R_LABEL: i32 = 1;
const R_ID_AT: i32 = 2;
const R_ID_LENGTH: i32 = 3;
const R_SCOPE_AT: i32 = 4;
const R_SCOPE_LENGTH: i32 = 5;
const R_DOC_TYPE_AT: i32 = 6;
const R_DOC_TYPE_LENGTH: i32 = 7;
const R_EXTRA_AT: i32 = 8;
const R_EXTRA_LENGTH: i32 = 9;
const R_SENTENCES_AT: i32 = 10;
const R_SENTENCES_LENGTH: i32 = 11;
const R_SENTENCE_LENGTHS_AT: i32 = 12;
const R_SENTENCE_COUNT: i32 = 13;
const R_GOLD: i32 = 14;
const R_JSON_AT: i32 = 15;
const R_JSON_LENGTH: i32 = 16;

const NEWLINE: u8 = 0x0a;
const QUOTE: u8 = 0x22;
const BACKSLASH: u8 = 0x5c;

/** The fields a line may have: the reader's known fields read here, the others it knows (left to it), and fields of the case's own. */
const F_ID: i32 = 0;
const F_TEXT: i32 = 1;
const F_LABEL: i32 = 2;
const F_EVIDENCE: i32 = 3;
const F_SCOPE: i32 = 4;
const F_DOC_TYPE: i32 = 5;
const F_OTHER_KNOWN: i32 = 6;
const F_EXTRA: i32 = 7;

/** Value kinds. */
const V_STRING: i32 = 0;
const V_TRUE: i32 = 1;
const V_FALSE: i32 = 2;
const V_NULL: i32 = 3;

/** Fields of its own a line may have here (more: left to JavaScript). */
const MOST_EXTRA: i32 = 32;

// The line being read, and where its outputs go.
let line: usize = 0;
let lineEnd: i32 = 0;
let pos: i32 = 0;
let out: usize = 0;
/** Where the next case's sentence bytes go: the block's cases' end to end. */
let sentenceOut: usize = 0;
/** The last value read: its kind, and a string's decoded bytes (in `out`). */
let valueKind: i32 = 0;
let valueAt: usize = 0;
let valueLength: i32 = 0;

// Fields of its own, in line order: key and value as read (at, length), the value's kind.
const extraKeyAt = new StaticArray<usize>(MOST_EXTRA);
const extraKeyLength = new StaticArray<i32>(MOST_EXTRA);
const extraKind = new StaticArray<i32>(MOST_EXTRA);
const extraValueAt = new StaticArray<usize>(MOST_EXTRA);
const extraValueLength = new StaticArray<i32>(MOST_EXTRA);

function byte(i: i32): u8 {
  return load<u8>(line + <usize>i);
}

/** JSON's whitespace between tokens (a line's own newline is not in it). */
function skipSpace(): void {
  while (pos < lineEnd) {
    const c = byte(pos);
    if (c != 0x20 && c != 0x09 && c != 0x0d) return;
    pos++;
  }
}

function hexValue(c: u8): i32 {
  if (c >= 0x30 && c <= 0x39) return <i32>c - 0x30;
  if (c >= 0x61 && c <= 0x66) return <i32>c - 0x57;
  if (c >= 0x41 && c <= 0x46) return <i32>c - 0x37;
  return -1;
}

/** The bytes of `v` that a JSON string's content cannot hold as they are: a quote, a backslash, a control character or one above ASCII. */
// @ts-ignore: decorator
@inline
function notPlain(v: v128): v128 {
  const quoteOrBackslash = v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x5c)));
  return v128.or(quoteOrBackslash, v128.or(i8x16.lt_u(v, i8x16.splat(0x20)), i8x16.lt_s(v, i8x16.splat(0))));
}

/**
 * Copies the bytes at `from` to `to`, 16 at a time, up to the first that is not plain (notPlain)
 * or until fewer than 16 of the `available` are left: how many plain bytes it copied. It may write
 * up to 16 bytes past them, into room not yet used.
 */
// @ts-ignore: decorator
@inline
function copyPlain(from: usize, available: i32, to: usize): i32 {
  let copied = 0;
  while (copied + 16 <= available) {
    const v = v128.load(from + <usize>copied);
    v128.store(to + <usize>copied, v);
    const bits = i8x16.bitmask(notPlain(v));
    if (bits != 0) return copied + ctz(bits);
    copied += 16;
  }
  return copied;
}

/**
 * Decodes the string whose opening quote is at `pos` into `out`, leaving `pos` after its closing
 * quote: false for one JSON.parse refuses or one with a character above ASCII. Plain bytes are
 * copied 16 at a time (copyPlain).
 */
function readString(): bool {
  pos++;
  valueAt = out;
  let o = out;
  while (pos < lineEnd) {
    const plain = copyPlain(line + <usize>pos, lineEnd - pos, o);
    o += <usize>plain;
    pos += plain;
    if (pos >= lineEnd) return false;
    const c = byte(pos);
    if (c == QUOTE) {
      pos++;
      valueLength = <i32>(o - valueAt);
      out = o;
      return true;
    }
    if (c < 0x20 || c >= 0x80) return false;
    if (c != BACKSLASH) {
      store<u8>(o++, c);
      pos++;
      continue;
    }
    if (pos + 1 >= lineEnd) return false;
    const e = byte(pos + 1);
    let decoded: i32 = -1;
    if (e == QUOTE || e == BACKSLASH || e == 0x2f) decoded = e;
    else if (e == 0x62) decoded = 0x08;
    else if (e == 0x66) decoded = 0x0c;
    else if (e == 0x6e) decoded = 0x0a;
    else if (e == 0x72) decoded = 0x0d;
    else if (e == 0x74) decoded = 0x09;
    else if (e == 0x75) {
      if (pos + 6 > lineEnd) return false;
      let code = 0;
      for (let k = 2; k < 6; k++) {
        const h = hexValue(byte(pos + k));
        if (h < 0) return false;
        code = (code << 4) | h;
      }
      if (code >= 0x80) return false;
      decoded = code;
      pos += 4;
    }
    if (decoded < 0) return false;
    store<u8>(o++, <u8>decoded);
    pos += 2;
  }
  return false;
}

/** Whether the `length` bytes at `at` are `name` (ASCII). */
function isName(at: usize, length: i32, name: string): bool {
  if (length != name.length) return false;
  for (let i = 0; i < length; i++) if (<i32>load<u8>(at + <usize>i) != name.charCodeAt(i)) return false;
  return true;
}

/** Which field a key names (F_*), or -1 for one left to JavaScript whatever it holds. */
function fieldOf(at: usize, length: i32): i32 {
  if (isName(at, length, "id")) return F_ID;
  if (isName(at, length, "text")) return F_TEXT;
  if (isName(at, length, "label")) return F_LABEL;
  if (isName(at, length, "evidence")) return F_EVIDENCE;
  if (isName(at, length, "scope")) return F_SCOPE;
  if (isName(at, length, "doc_type")) return F_DOC_TYPE;
  // The reader's other fields (src/io/slice.ts, KNOWN_FIELDS).
  if (
    isName(at, length, "case_id") ||
    isName(at, length, "unique id") ||
    isName(at, length, "unique_id") ||
    isName(at, length, "is_self_contradictory") ||
    isName(at, length, "contra_list") ||
    isName(at, length, "contradicted_sentence") ||
    isName(at, length, "original_sentence") ||
    isName(at, length, "sentences") ||
    isName(at, length, "gold_sentence_ids") ||
    isName(at, length, "contra_type")
  )
    return F_OTHER_KNOWN;
  // `__proto__`, and a key of digits (an array index, which V8 orders before the others).
  if (isName(at, length, "__proto__")) return -1;
  let digits = length > 0;
  for (let i = 0; digits && i < length; i++) {
    const c = load<u8>(at + <usize>i);
    digits = c >= 0x30 && c <= 0x39;
  }
  return digits ? -1 : F_EXTRA;
}

/** Reads the value at `pos` (valueKind, and a string's bytes): false for any other kind of value. */
function readValue(): bool {
  if (pos >= lineEnd) return false;
  const c = byte(pos);
  if (c == QUOTE) {
    valueKind = V_STRING;
    return readString();
  }
  if (c == 0x74 && pos + 4 <= lineEnd && byte(pos + 1) == 0x72 && byte(pos + 2) == 0x75 && byte(pos + 3) == 0x65) {
    valueKind = V_TRUE;
    pos += 4;
    return true;
  }
  if (c == 0x66 && pos + 5 <= lineEnd && byte(pos + 1) == 0x61 && byte(pos + 2) == 0x6c && byte(pos + 3) == 0x73 && byte(pos + 4) == 0x65) {
    valueKind = V_FALSE;
    pos += 5;
    return true;
  }
  if (c == 0x6e && pos + 4 <= lineEnd && byte(pos + 1) == 0x75 && byte(pos + 2) == 0x6c && byte(pos + 3) == 0x6c) {
    valueKind = V_NULL;
    pos += 4;
    return true;
  }
  return false;
}

/** Python's whitespace among ASCII (str.strip(), `\s`). */
function isPythonSpace(c: u8): bool {
  return c == 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
}

/** JavaScript's whitespace among ASCII (String.prototype.trim). */
function isJsSpace(c: u8): bool {
  return c == 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** Whether the string at `at` starts with `[` once JavaScript's trim() would have left it (maybeJsonArray then parses it). */
function startsLikeList(at: usize, length: i32): bool {
  let i = 0;
  while (i < length && isJsSpace(load<u8>(at + <usize>i))) i++;
  return i < length && load<u8>(at + <usize>i) == 0x5b;
}

/**
 * Writes `length` bytes (ASCII) at `at` to `out` as JSON.stringify writes a string's content, 16 at
 * a time while none needs escaping (copyPlain).
 */
function writeEscaped(at: usize, length: i32): void {
  let o = out;
  let i = 0;
  while (i < length) {
    const plain = copyPlain(at + <usize>i, length - i, o);
    o += <usize>plain;
    i += plain;
    if (i >= length) break;
    const c = load<u8>(at + <usize>i);
    i++;
    if (c >= 0x20 && c != QUOTE && c != BACKSLASH) {
      store<u8>(o++, c);
      continue;
    }
    store<u8>(o++, BACKSLASH);
    if (c == QUOTE || c == BACKSLASH) store<u8>(o++, c);
    else if (c == 0x08) store<u8>(o++, 0x62);
    else if (c == 0x0c) store<u8>(o++, 0x66);
    else if (c == 0x0a) store<u8>(o++, 0x6e);
    else if (c == 0x0d) store<u8>(o++, 0x72);
    else if (c == 0x09) store<u8>(o++, 0x74);
    else {
      // \u00XX, lower-case hex digits.
      store<u8>(o++, 0x75);
      store<u8>(o++, 0x30);
      store<u8>(o++, 0x30);
      store<u8>(o++, <u8>(0x30 + (c >> 4)));
      const low = c & 15;
      store<u8>(o++, <u8>(low < 10 ? 0x30 + low : 0x57 + low));
    }
  }
  out = o;
}

function writeByte(c: u8): void {
  store<u8>(out++, c);
}

/** Writes the ASCII `text` (a literal). */
function writeAscii(text: string): void {
  for (let i = 0; i < text.length; i++) store<u8>(out++, <u8>text.charCodeAt(i));
}

function writeDigits(value: i32): void {
  if (value >= 10) writeDigits(value / 10);
  writeByte(<u8>(0x30 + (value % 10)));
}

// The sentences of the case being read: where each starts and ends (in `out`), in `scratch`.
let sentenceStarts: usize = 0;
let sentenceEnds: usize = 0;
let sentenceCount: i32 = 0;

/** Where the next `.`, `!` or `?` of text[from, length) is (16 bytes at a time), or `length`. */
function nextMark(text: usize, from: i32, length: i32): i32 {
  let i = from;
  while (i + 16 <= length) {
    const v = v128.load(text + <usize>i);
    const marks = v128.or(v128.or(i8x16.eq(v, i8x16.splat(0x2e)), i8x16.eq(v, i8x16.splat(0x21))), i8x16.eq(v, i8x16.splat(0x3f)));
    const bits = i8x16.bitmask(marks);
    if (bits != 0) return i + ctz(bits);
    i += 16;
  }
  for (; i < length; i++) {
    const c = load<u8>(text + <usize>i);
    if (c == 0x2e || c == 0x21 || c == 0x3f) return i;
  }
  return length;
}

/** Where the next newline of block[from, length) is (16 bytes at a time), or `length`. */
function nextNewline(block: usize, from: i32, length: i32): i32 {
  let i = from;
  while (i + 16 <= length) {
    const bits = i8x16.bitmask(i8x16.eq(v128.load(block + <usize>i), i8x16.splat(NEWLINE)));
    if (bits != 0) return i + ctz(bits);
    i += 16;
  }
  while (i < length && load<u8>(block + <usize>i) != NEWLINE) i++;
  return i;
}

/** Copies `length` bytes from `from` to `to` 16 at a time (writing up to 15 bytes past the end, into room not yet used). */
function copyBytes(to: usize, from: usize, length: i32): void {
  for (let i = 0; i < length; i += 16) v128.store(to + <usize>i, v128.load(from + <usize>i));
}

/** Keeps text[from, to) stripped of Python's whitespace as a sentence, unless nothing is left. */
function keepStripped(text: usize, from: i32, to: i32): void {
  while (from < to && isPythonSpace(load<u8>(text + <usize>from))) from++;
  while (to > from && isPythonSpace(load<u8>(text + <usize>(to - 1)))) to--;
  if (to <= from) return;
  store<i32>(sentenceStarts + (<usize>sentenceCount << 2), from);
  store<i32>(sentenceEnds + (<usize>sentenceCount << 2), to);
  sentenceCount++;
}

/**
 * mari's sentence rule (src/core/document/sentences.ts, splitSentences): a break is a run of
 * whitespace right after `.`, `!` or `?`; pieces stripped, empty ones dropped; none left: the
 * stripped text is the one sentence.
 */
function splitSentences(text: usize, length: i32): void {
  sentenceCount = 0;
  let pieceStart = 0;
  let i = nextMark(text, 0, length);
  while (i < length) {
    if (i + 1 < length && isPythonSpace(load<u8>(text + <usize>(i + 1)))) {
      keepStripped(text, pieceStart, i + 1);
      i++;
      while (i < length && isPythonSpace(load<u8>(text + <usize>i))) i++;
      pieceStart = i;
    } else i++;
    i = nextMark(text, i, length);
  }
  keepStripped(text, pieceStart, length);
  if (sentenceCount > 0) return;
  let from = 0;
  let to = length;
  while (from < to && isPythonSpace(load<u8>(text + <usize>from))) from++;
  while (to > from && isPythonSpace(load<u8>(text + <usize>(to - 1)))) to--;
  store<i32>(sentenceStarts, from);
  store<i32>(sentenceEnds, to);
  sentenceCount = 1;
}

// The alignment's tokens, one vocabulary per case: an open-addressing table of token ids, and per
// id its characters (where they are, how many), hash, whether the quote has it, and the last
// sentence it was counted in.
let slots: usize = 0;
let slotMask: i32 = 0;
let tokenAt: usize = 0;
let tokenLength: usize = 0;
let tokenHash: usize = 0;
let tokenInQuote: usize = 0;
let tokenStamp: usize = 0;
let tokenCount: i32 = 0;

function lowered(c: u8): u8 {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

function isTokenChar(c: u8): bool {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

/** The id of the token of `length` characters at `at` (case-folded as they are compared), made when new. */
function idOf(at: usize, length: i32, hash: i32): i32 {
  let slot = hash & slotMask;
  for (;;) {
    const held = load<i32>(slots + (<usize>slot << 2));
    if (held == 0) break;
    const id = held - 1;
    if (load<i32>(tokenHash + (<usize>id << 2)) == hash && load<i32>(tokenLength + (<usize>id << 2)) == length) {
      const other = <usize>load<i32>(tokenAt + (<usize>id << 2));
      let k = 0;
      while (k < length && lowered(load<u8>(other + <usize>k)) == lowered(load<u8>(at + <usize>k))) k++;
      if (k == length) return id;
    }
    slot = (slot + 1) & slotMask;
  }
  const id = tokenCount++;
  store<i32>(slots + (<usize>slot << 2), id + 1);
  store<i32>(tokenAt + (<usize>id << 2), <i32>at);
  store<i32>(tokenLength + (<usize>id << 2), length);
  store<i32>(tokenHash + (<usize>id << 2), hash);
  store<i32>(tokenInQuote + (<usize>id << 2), 0);
  store<i32>(tokenStamp + (<usize>id << 2), 0);
  return id;
}

// What `countTokens` found: the text's distinct tokens, and how many of them the quote has.
let distinct: i32 = 0;
let shared: i32 = 0;

/**
 * Counts the distinct alignment tokens of text[0, length) (runs of [a-z0-9] once case-folded:
 * ASCII's casefold() lowers A–Z), marking each with `stamp`; `quote`: marks them as the quote's.
 */
function countTokens(text: usize, length: i32, stamp: i32, quote: bool): void {
  distinct = 0;
  shared = 0;
  let i = 0;
  while (i < length) {
    let c = lowered(load<u8>(text + <usize>i));
    if (!isTokenChar(c)) {
      i++;
      continue;
    }
    const start = i;
    let hash: i32 = 0x811c9dc5;
    do {
      hash = (hash ^ <i32>c) * 0x01000193;
      i++;
      if (i == length) break;
      c = lowered(load<u8>(text + <usize>i));
    } while (isTokenChar(c));
    const id = idOf(text + <usize>start, i - start, hash);
    const stampAt = tokenStamp + (<usize>id << 2);
    if (load<i32>(stampAt) == stamp) continue;
    store<i32>(stampAt, stamp);
    distinct++;
    if (quote) store<i32>(tokenInQuote + (<usize>id << 2), 1);
    else if (load<i32>(tokenInQuote + (<usize>id << 2)) != 0) shared++;
  }
}

/** The first sentence whose bytes are the `length` bytes at `at`, or -1. */
function sentenceOf(text: usize, at: usize, length: i32): i32 {
  for (let s = 0; s < sentenceCount; s++) {
    const from = load<i32>(sentenceStarts + (<usize>s << 2));
    if (load<i32>(sentenceEnds + (<usize>s << 2)) - from != length) continue;
    if (memory.compare(text + <usize>from, at, <usize>length) == 0) return s;
  }
  return -1;
}

/** Which of a-z and 0-9 the `length` bytes at `at` have once lowered (bits 0–25 the letters, 26–35 the digits). */
function tokenCharMask(at: usize, length: i32): u64 {
  let mask: u64 = 0;
  for (let i = 0; i < length; i++) {
    const c = lowered(load<u8>(at + <usize>i));
    if (c >= 0x61 && c <= 0x7a) mask |= (<u64>1) << (c - 0x61);
    else if (c >= 0x30 && c <= 0x39) mask |= (<u64>1) << (26 + c - 0x30);
  }
  return mask;
}

/**
 * alignEvidence's choice for a quote that is a sentence exactly, as given or stripped (`exactBest`
 * in src/core/document/sentences.ts): that sentence, unless the quote has no token character or a
 * sentence before it has the same ones (then -1: the tokens decide).
 */
function exactSentence(text: usize, quote: usize, quoteLength: i32, strippedFrom: i32, strippedTo: i32): i32 {
  let j = sentenceOf(text, quote, quoteLength);
  if (j < 0 && strippedTo - strippedFrom != quoteLength) j = sentenceOf(text, quote + <usize>strippedFrom, strippedTo - strippedFrom);
  if (j < 0) return -1;
  const mask = tokenCharMask(quote + <usize>strippedFrom, strippedTo - strippedFrom);
  if (mask == 0) return -1;
  for (let s = 0; s < j; s++) {
    const from = load<i32>(sentenceStarts + (<usize>s << 2));
    if (tokenCharMask(text + <usize>from, load<i32>(sentenceEnds + (<usize>s << 2)) - from) == mask) return -1;
  }
  return j;
}

/**
 * alignEvidence of one quote (src/core/document/sentences.ts): the 1-based index of the sentence
 * whose tokens' Jaccard index with the quote's is highest, the first of equals.
 */
function alignQuote(text: usize, quote: usize, quoteLength: i32, strippedFrom: i32, strippedTo: i32): i32 {
  const exact = exactSentence(text, quote, quoteLength, strippedFrom, strippedTo);
  if (exact >= 0) return exact + 1;
  tokenCount = 0;
  memory.fill(slots, 0, <usize>(slotMask + 1) << 2);
  countTokens(quote, quoteLength, 1, true);
  const quoteSize = distinct;
  let best: f64 = -1;
  let bestIndex = -1;
  for (let s = 0; s < sentenceCount; s++) {
    const from = load<i32>(sentenceStarts + (<usize>s << 2));
    const to = load<i32>(sentenceEnds + (<usize>s << 2));
    countTokens(text + <usize>from, to - from, s + 2, false);
    const union = quoteSize + distinct - shared;
    const score: f64 = union == 0 ? 0 : <f64>shared / <f64>union;
    if (score > best) {
      best = score;
      bestIndex = s;
    }
    if (best == 1) break;
  }
  return bestIndex + 1;
}

/**
 * Lays the token tables for a text and quote of `length` bytes together in `scratch` (up to
 * `scratchEnd`): false when they do not fit.
 */
function layTokenTables(scratch: usize, scratchEnd: usize, length: i32): bool {
  // At most one token per two bytes (a character and a separator), the table at most half full.
  const most = (length >> 1) + 2;
  let size = 16;
  while (size < 2 * most) size <<= 1;
  const need = (<usize>size << 2) + 5 * (<usize>most << 2);
  if (scratch + need > scratchEnd) return false;
  slots = scratch;
  slotMask = size - 1;
  tokenAt = slots + (<usize>size << 2);
  tokenLength = tokenAt + (<usize>most << 2);
  tokenHash = tokenLength + (<usize>most << 2);
  tokenInQuote = tokenHash + (<usize>most << 2);
  tokenStamp = tokenInQuote + (<usize>most << 2);
  return true;
}

/**
 * Reads the line at line[0, length) into record `record`: true when it is a case read here (its
 * outputs written from `out` on), false when JavaScript reads it.
 */
function readLine(record: usize, scratch: usize, scratchEnd: usize): bool {
  pos = 0;
  skipSpace();
  if (pos >= lineEnd || byte(pos) != 0x7b) return false;
  pos++;
  skipSpace();
  if (pos < lineEnd && byte(pos) == 0x7d) return false;
  let seen = 0;
  let idAt: usize = 0;
  let idLength = -1;
  let textAt: usize = 0;
  let textLength = -1;
  let label = -1;
  let evidenceAt: usize = 0;
  let evidenceLength = -1;
  let scopeAt: usize = 0;
  let scopeLength = -1;
  let docTypeAt: usize = 0;
  let docTypeLength = -1;
  let extras = 0;
  let more = true;
  while (more) {
    if (pos >= lineEnd || byte(pos) != QUOTE) return false;
    if (!readString()) return false;
    const keyAt = valueAt;
    const keyLength = valueLength;
    const field = fieldOf(keyAt, keyLength);
    if (field < 0 || field == F_OTHER_KNOWN) return false;
    if (field == F_EXTRA) {
      for (let k = 0; k < extras; k++) {
        const other = unchecked(extraKeyAt[k]);
        if (unchecked(extraKeyLength[k]) != keyLength) continue;
        let same = true;
        for (let i = 0; same && i < keyLength; i++) same = load<u8>(other + <usize>i) == load<u8>(keyAt + <usize>i);
        if (same) return false;
      }
    } else {
      if ((seen & (1 << field)) != 0) return false;
      seen |= 1 << field;
    }
    skipSpace();
    if (pos >= lineEnd || byte(pos) != 0x3a) return false;
    pos++;
    skipSpace();
    if (!readValue()) return false;
    if (field == F_EXTRA) {
      // Kept whatever the value, so that the same key again is seen; a null one is not written.
      if (extras == MOST_EXTRA) return false;
      unchecked((extraKeyAt[extras] = keyAt));
      unchecked((extraKeyLength[extras] = keyLength));
      unchecked((extraKind[extras] = valueKind));
      unchecked((extraValueAt[extras] = valueAt));
      unchecked((extraValueLength[extras] = valueLength));
      extras++;
    } else if (valueKind != V_NULL) {
      // A null is an absent field (the null rule, src/io/records.ts).
      if (field == F_ID) {
        if (valueKind != V_STRING) return false;
        idAt = valueAt;
        idLength = valueLength;
      } else if (field == F_TEXT) {
        if (valueKind != V_STRING) return false;
        textAt = valueAt;
        textLength = valueLength;
      } else if (field == F_LABEL) {
        if (valueKind == V_STRING) return false;
        label = valueKind == V_TRUE ? 1 : 0;
      } else if (field == F_EVIDENCE) {
        if (valueKind != V_STRING) return false;
        evidenceAt = valueAt;
        evidenceLength = valueLength;
      } else if (field == F_SCOPE) {
        if (valueKind != V_STRING || startsLikeList(valueAt, valueLength)) return false;
        scopeAt = valueAt;
        scopeLength = valueLength;
      } else if (field == F_DOC_TYPE) {
        if (valueKind != V_STRING || startsLikeList(valueAt, valueLength)) return false;
        docTypeAt = valueAt;
        docTypeLength = valueLength;
      }
    }
    skipSpace();
    if (pos >= lineEnd) return false;
    const c = byte(pos);
    pos++;
    if (c == 0x2c) {
      skipSpace();
      continue;
    }
    if (c != 0x7d) return false;
    skipSpace();
    if (pos != lineEnd) return false;
    more = false;
  }
  if (idLength <= 0 || textLength < 0 || label < 0) return false;
  // A positive case's one quote: a string, not a list written in one, with something besides whitespace.
  let strippedFrom = 0;
  let strippedTo = evidenceLength;
  if (label == 1) {
    if (evidenceLength < 0 || startsLikeList(evidenceAt, evidenceLength)) return false;
    while (strippedFrom < evidenceLength && isPythonSpace(load<u8>(evidenceAt + <usize>strippedFrom))) strippedFrom++;
    if (strippedFrom == evidenceLength) return false;
    while (isPythonSpace(load<u8>(evidenceAt + <usize>(strippedTo - 1)))) strippedTo--;
  }
  store<i32>(record + (<usize>R_LABEL << 2), label);
  store<i32>(record + (<usize>R_ID_AT << 2), <i32>idAt);
  store<i32>(record + (<usize>R_ID_LENGTH << 2), idLength);
  // A breakdown field that is "" is absent.
  store<i32>(record + (<usize>R_SCOPE_AT << 2), <i32>scopeAt);
  store<i32>(record + (<usize>R_SCOPE_LENGTH << 2), scopeLength < 0 ? 0 : scopeLength);
  store<i32>(record + (<usize>R_DOC_TYPE_AT << 2), <i32>docTypeAt);
  store<i32>(record + (<usize>R_DOC_TYPE_LENGTH << 2), docTypeLength < 0 ? 0 : docTypeLength);
  // The case's own fields as JSON.stringify writes them, in line order.
  const extraAt = out;
  let written = 0;
  for (let k = 0; k < extras; k++) {
    const kind = unchecked(extraKind[k]);
    if (kind == V_NULL) continue;
    writeByte(written++ == 0 ? 0x7b : 0x2c);
    writeByte(QUOTE);
    writeEscaped(unchecked(extraKeyAt[k]), unchecked(extraKeyLength[k]));
    writeAscii('":');
    if (kind == V_TRUE) writeAscii("true");
    else if (kind == V_FALSE) writeAscii("false");
    else {
      writeByte(QUOTE);
      writeEscaped(unchecked(extraValueAt[k]), unchecked(extraValueLength[k]));
      writeByte(QUOTE);
    }
  }
  if (written > 0) writeByte(0x7d);
  store<i32>(record + (<usize>R_EXTRA_AT << 2), <i32>extraAt);
  store<i32>(record + (<usize>R_EXTRA_LENGTH << 2), <i32>(out - extraAt));
  // The sentences: their bounds in scratch, their bytes end to end and their lengths in out.
  sentenceStarts = scratch;
  sentenceEnds = scratch + (<usize>((textLength >> 1) + 2) << 2);
  const tables = sentenceEnds + (<usize>((textLength >> 1) + 2) << 2);
  if (tables > scratchEnd) return false;
  splitSentences(textAt, textLength);
  let gold = 0;
  if (label == 1) {
    if (!layTokenTables(tables, scratchEnd, textLength + evidenceLength)) return false;
    gold = alignQuote(textAt, evidenceAt, evidenceLength, strippedFrom, strippedTo);
  }
  store<i32>(record + (<usize>R_GOLD << 2), gold);
  // The sentences' bytes go after the block's other cases' (so that a run of cases is one copy).
  const sentencesAt = sentenceOut;
  for (let s = 0; s < sentenceCount; s++) {
    const from = load<i32>(sentenceStarts + (<usize>s << 2));
    const to = load<i32>(sentenceEnds + (<usize>s << 2));
    copyBytes(sentenceOut, textAt + <usize>from, to - from);
    sentenceOut += <usize>(to - from);
  }
  store<i32>(record + (<usize>R_SENTENCES_AT << 2), <i32>sentencesAt);
  store<i32>(record + (<usize>R_SENTENCES_LENGTH << 2), <i32>(sentenceOut - sentencesAt));
  out = (out + 3) & ~(<usize>3);
  const lengthsAt = out;
  for (let s = 0; s < sentenceCount; s++) {
    store<i32>(out, load<i32>(sentenceEnds + (<usize>s << 2)) - load<i32>(sentenceStarts + (<usize>s << 2)));
    out += 4;
  }
  store<i32>(record + (<usize>R_SENTENCE_LENGTHS_AT << 2), <i32>lengthsAt);
  store<i32>(record + (<usize>R_SENTENCE_COUNT << 2), sentenceCount);
  // The case's JSON for its content hash (src/io/slice-kept.ts, sliceCaseHash): its keys in order.
  const jsonAt = out;
  writeAscii('{"gold":[');
  if (gold > 0) writeDigits(gold);
  writeAscii('],"id":"');
  writeEscaped(idAt, idLength);
  writeAscii(label == 1 ? '","label":true,"sentences":[' : '","label":false,"sentences":[');
  for (let s = 0; s < sentenceCount; s++) {
    if (s > 0) writeByte(0x2c);
    writeByte(QUOTE);
    const from = load<i32>(sentenceStarts + (<usize>s << 2));
    writeEscaped(textAt + <usize>from, load<i32>(sentenceEnds + (<usize>s << 2)) - from);
    writeByte(QUOTE);
  }
  writeAscii("]}");
  store<i32>(record + (<usize>R_JSON_AT << 2), <i32>jsonAt);
  store<i32>(record + (<usize>R_JSON_LENGTH << 2), <i32>(out - jsonAt));
  return true;
}

/**
 * Reads the lines of the `length` bytes at `block` (whole lines, the last perhaps without its
 * newline), writing a record of RECORD_INTS Int32s per line at `records` (room for `recordRoom`),
 * each case's outputs from `outAt` on (up to `outEnd`) but its sentences' bytes, which go from
 * `sentencesAt` on (up to `sentencesEnd`), the block's cases' end to end, with `scratch` …
 * `scratchEnd` for its work. Returns how many lines it wrote records for: the lines after them (no room left) are
 * JavaScript's.
 */
export function readBlock(
  block: usize,
  length: i32,
  records: usize,
  recordRoom: i32,
  outAt: usize,
  outEnd: usize,
  sentencesAt: usize,
  sentencesEnd: usize,
  scratch: usize,
  scratchEnd: usize,
): i32 {
  out = outAt;
  sentenceOut = sentencesAt;
  let start = 0;
  let count = 0;
  while (start < length && count < recordRoom) {
    const end = nextNewline(block, start, length);
    // A line's outputs take at most ten times its bytes and a little more; its sentences, its bytes.
    if (out + 10 * <usize>(end - start) + 256 > outEnd || sentenceOut + <usize>(end - start) + 16 > sentencesEnd) break;
    const record = records + <usize>(count * RECORD_INTS) * 4;
    line = block + <usize>start;
    lineEnd = end - start;
    const mark = out;
    const sentenceMark = sentenceOut;
    const isCase = readLine(record, scratch, scratchEnd);
    if (!isCase) {
      out = mark;
      sentenceOut = sentenceMark;
    }
    store<i32>(record + (<usize>R_IS_CASE << 2), isCase ? 1 : 0);
    count++;
    start = end + 1;
  }
  return count;
}

/** Int32 fields of a line's record (the layout above). */
export function recordInts(): i32 {
  return RECORD_INTS;
}

/** Where the memory free for the caller begins (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}
