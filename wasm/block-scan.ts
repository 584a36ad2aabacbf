// AssemblyScript, compiled by scripts/build-wasm.mjs into src/io/block-scan-wasm.ts (the module's
// bytes, checked to be current by test/wasm-modules.test.ts).
//
// The dump scanner's first pass over a block (src/io/block-scan.ts): each line
// of the narrow shape below is read here, in one pass over the block, into a row of numbers; every
// other line is left to the JavaScript scanner, which reads it as before. A row holds what that
// scanner would have recorded for the line, so both ways give the same fields
// (test/io/block-scan.test.ts). scoreRows, at the end, then scores the lines just read against the
// slice's case facts the caller laid out (src/tasks/document/row-scores.ts).
//
// The shape, within the JavaScript scanner's grammar: an object whose members are among case_id,
// run, judgment, evidence_sentence_ids, reasoning, completion and prediction, each at most once,
// with spaces (0x20) only between tokens; case_id a string without escapes; run an integer or a
// string without escapes; judgment true or false; evidence_sentence_ids a list of integers;
// reasoning a string whose escapes are `\" \\ \/ \b \f \n \r \t`, its sentence references recorded as
// core/document/references.ts records them, as long as each number in them is ASCII digits;
// completion a string whose raw bytes hold the whole completion layout (`<think>`, a newline, the
// think text, the middle marker, the judgment line, the evidence line, a newline and `</answer>`,
// newlines written `\n`), read as dump-bytes.ts's layoutUntil reads it, its think text's references
// recorded; prediction (the cache shape) an object, maybe empty, whose members are among judgment,
// evidence_sentence_ids, reasoning and completion, each at most once and read as on the line, with
// none of those four on the line itself (before or after it), as dump-bytes.ts's scanPrediction
// reads it. Integers: 0, or 1-9 then digits, at most 15 digits, not followed by `.`, `e` or `E`.

// Row fields (i32), ROW_FIELDS per line.
const ROW_FIELDS: i32 = 21;
const STATUS = 0; // 1: read here
const CASE_START = 1;
const CASE_END = 2;
const RUN_KIND = 3; // 0 absent, 1 integer, 2 string
const RUN_START = 4;
const RUN_END = 5;
const RUN_VALUE = 6; // index of the run's value among the numbers
const JUDGMENT = 7; // 0 absent, 1 true, 2 false
const EVIDENCE_COUNT = 8; // -1 absent
const EVIDENCE_FROM = 9; // index of the first id among the numbers
const REASONING_START = 10; // -1 absent
const REASONING_END = 11;
const REASONING_ESCAPED = 12;
const REFERENCE_FROM = 13; // index of the first reference
const REFERENCE_COUNT = 14;
const COMPLETION_START = 15; // -1 absent; its end is the row's COMPLETION_END, the layout's parts at LAYOUT_MIDDLE and LAYOUT_NEWLINE
const COMPLETION_END = 16;
const LAYOUT_MIDDLE = 17;
const LAYOUT_NEWLINE = 18;
// What the line's references come to, when the row says it: -1 not said (more than REFERENCES_SUMMED
// of them, one ending at 2^31 or beyond, or both a reasoning and a completion), -2 rejected whatever
// the sentence count (one starts below 1 or ends before it starts), else how many distinct IDs they
// cite, rejected only when REFERENCE_HIGHEST, the highest end, is beyond the sentence count.
const REFERENCE_SUMMARY = 19;
const REFERENCE_HIGHEST = 20;

const QUOTE: u32 = 0x22;
const BACKSLASH: u32 = 0x5c;
const SPACE: u32 = 0x20;
const COMMA: u32 = 0x2c;
const COLON: u32 = 0x3a;
const OPEN_LIST: u32 = 0x5b;
const CLOSE_LIST: u32 = 0x5d;
const OPEN_OBJECT: u32 = 0x7b;
const CLOSE_OBJECT: u32 = 0x7d;
const HYPHEN: u32 = 0x2d;
const LESS: u32 = 0x3c;
const MAX_DIGITS: i32 = 15;
const MAX_SAFE: f64 = 9007199254740991;

// Where the current call's block, numbers and references lie, and how many of each fit.
let blockAt: usize = 0;
let numbersAt: usize = 0;
let numberCount: i32 = 0;
let numberRoom: i32 = 0;
let referencesAt: usize = 0;
let referenceCount: i32 = 0;
let referenceRoom: i32 = 0;

@inline function byteAt(i: i32): u32 {
  return <u32>load<u8>(blockAt + <usize>i);
}

@inline function skipSpaces(i: i32, end: i32): i32 {
  while (i < end && byteAt(i) == SPACE) i++;
  return i;
}

/**
 * The first byte in [i, limit) that is a quote, a backslash, a control byte, or (with
 * `references`) a `[`, or (with `tags`) a `<`; limit when none.
 */
function nextStop(i: i32, limit: i32, references: bool, tags: bool): i32 {
  const quotes = i8x16.splat(<i8>QUOTE);
  const backslashes = i8x16.splat(<i8>BACKSLASH);
  const spaces = i8x16.splat(<i8>SPACE);
  const opens = i8x16.splat(<i8>OPEN_LIST);
  const lesses = i8x16.splat(<i8>LESS);
  while (i + 16 <= limit) {
    const v = v128.load(blockAt + <usize>i);
    let marks = v128.or(v128.or(i8x16.eq(v, quotes), i8x16.eq(v, backslashes)), i8x16.lt_u(v, spaces));
    if (references) marks = v128.or(marks, i8x16.eq(v, opens));
    if (tags) marks = v128.or(marks, i8x16.eq(v, lesses));
    const bits = i8x16.bitmask(marks);
    if (bits != 0) return i + <i32>ctz(bits);
    i += 16;
  }
  while (i < limit) {
    const c = byteAt(i);
    if (c == QUOTE || c == BACKSLASH || c < SPACE || (references && c == OPEN_LIST) || (tags && c == LESS)) return i;
    i++;
  }
  return limit;
}

function plainEscape(e: u32): bool {
  return e == QUOTE || e == BACKSLASH || e == 0x2f || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 || e == 0x74;
}

// The outcome of the last call of the readers below.
let failed = false; // the line leaves the shape: it is the JavaScript scanner's
let escaped = false;
let integerValue: f64 = 0;
let digitsValue: f64 = 0;
let digitsEnd: i32 = 0;

/** A string's content from `i` to its closing quote, without escapes: the position after the quote, or -1. */
@inline function plainString(i: i32, limit: i32): i32 {
  i = nextStop(i, limit, false, false);
  if (i >= limit || byteAt(i) != QUOTE) return -1;
  return i + 1;
}

/** ASCII digits at `index` as references.ts's readDigits reads them; false when none (or, setting `failed`, a byte it would decode). */
function readDigits(index: i32, end: i32): bool {
  let value: f64 = 0;
  let position = index;
  while (position < end) {
    const code = byteAt(position);
    if (code >= 0x30 && code <= 0x39) {
      value = value * 10 + <f64>(code - 0x30);
      if (value > MAX_SAFE) value = Infinity;
      position++;
      continue;
    }
    if (code >= 0x80) {
      failed = true;
      return false;
    }
    break;
  }
  if (position == index) return false;
  digitsValue = value;
  digitsEnd = position;
  return true;
}

/** references.ts's referenceAt: the reference whose `[` is at `index`, recorded; the position after it, or -1. */
function referenceAt(index: i32, end: i32): i32 {
  if (!readDigits(index + 1, end)) return -1;
  const first = digitsValue;
  let last = first;
  let position = digitsEnd;
  let compactEnd = false;
  const code: i32 = position < end ? <i32>byteAt(position) : -1;
  if (code == <i32>HYPHEN) {
    if (!readDigits(position + 1, end) || digitsEnd >= end || byteAt(digitsEnd) != CLOSE_LIST) return -1;
    last = digitsValue;
    position = digitsEnd + 1;
    compactEnd = true;
  } else if (code == <i32>CLOSE_LIST) {
    position++;
  } else return -1;
  if (position + 1 < end && byteAt(position) == HYPHEN && byteAt(position + 1) == OPEN_LIST && readDigits(position + 2, end)) {
    if (digitsEnd < end && byteAt(digitsEnd) == CLOSE_LIST) {
      if (!compactEnd) last = digitsValue;
      position = digitsEnd + 1;
    }
  }
  if (failed) return -1;
  if (referenceCount == referenceRoom) {
    failed = true;
    return -1;
  }
  const at = referencesAt + (<usize>referenceCount) * 24;
  store<f64>(at, first);
  store<f64>(at + 8, last);
  store<f64>(at + 16, <f64>index);
  referenceCount++;
  return position;
}

/** The reasoning's content from `i`, its references recorded: the position after its closing quote, or -1. */
function reasoningString(i: i32, limit: i32): i32 {
  let hasEscape = false;
  for (;;) {
    i = nextStop(i, limit, true, false);
    if (i >= limit) return -1;
    const c = byteAt(i);
    if (c == QUOTE) break;
    if (c == OPEN_LIST) {
      const after = referenceAt(i, limit);
      if (failed) return -1;
      i = after < 0 ? i + 1 : after;
      continue;
    }
    if (c != BACKSLASH || i + 1 >= limit || !plainEscape(byteAt(i + 1))) return -1;
    hasEscape = true;
    i += 2;
  }
  escaped = hasEscape;
  return i + 1;
}

// The completion layout's markers as a completion's raw JSON bytes spell them (a newline is the
// escape `\n`), and its four tags: LAYOUT_TAGS of core/document/completion-end.ts. Each is
// compared as little-endian words, the last one ending at its last byte.
const NEWLINE_LENGTH = 2;

const THINK_OPEN_LENGTH: i32 = 9;
/** Whether `<think>\n` (9 bytes) is at `at`, inside [0, end). */
function thinkOpenAt(at: i32, end: i32): bool {
  return at >= 0 && at + THINK_OPEN_LENGTH <= end && load<u64>(blockAt + <usize>(at + 0)) == 0x5c3e6b6e6968743c && load<u64>(blockAt + <usize>(at + 1)) == 0x6e5c3e6b6e696874;
}

const THINK_TO_JUDGMENT_LENGTH: i32 = 32;
/** Whether `\n</think>\n<answer>\nJudgment: ` (32 bytes) is at `at`, inside [0, end). */
function thinkToJudgmentAt(at: i32, end: i32): bool {
  return at >= 0 && at + THINK_TO_JUDGMENT_LENGTH <= end && load<u64>(blockAt + <usize>(at + 0)) == 0x6e6968742f3c6e5c && load<u64>(blockAt + <usize>(at + 8)) == 0x736e613c6e5c3e6b && load<u64>(blockAt + <usize>(at + 16)) == 0x754a6e5c3e726577 && load<u64>(blockAt + <usize>(at + 24)) == 0x203a746e656d6764;
}

const JUDGMENT_TO_EVIDENCE_LENGTH: i32 = 12;
/** Whether `\nEvidence: ` (12 bytes) is at `at`, inside [0, end). */
function judgmentToEvidenceAt(at: i32, end: i32): bool {
  return at >= 0 && at + JUDGMENT_TO_EVIDENCE_LENGTH <= end && load<u64>(blockAt + <usize>(at + 0)) == 0x6e65646976456e5c && load<u64>(blockAt + <usize>(at + 4)) == 0x203a65636e656469;
}

const ANSWER_CLOSE_LENGTH: i32 = 11;
/** Whether `\n</answer>` (11 bytes) is at `at`, inside [0, end). */
function answerCloseAt(at: i32, end: i32): bool {
  return at >= 0 && at + ANSWER_CLOSE_LENGTH <= end && load<u64>(blockAt + <usize>(at + 0)) == 0x77736e612f3c6e5c && load<u64>(blockAt + <usize>(at + 3)) == 0x3e726577736e612f;
}

/** Whether `<think>` (7 bytes) is at `at`, inside [0, end). */
function tagThinkAt(at: i32, end: i32): bool {
  return at >= 0 && at + 7 <= end && load<u32>(blockAt + <usize>(at + 0)) == 0x6968743c && load<u32>(blockAt + <usize>(at + 3)) == 0x3e6b6e69;
}

/** Whether `<answer>` (8 bytes) is at `at`, inside [0, end). */
function tagAnswerAt(at: i32, end: i32): bool {
  return at >= 0 && at + 8 <= end && load<u64>(blockAt + <usize>(at + 0)) == 0x3e726577736e613c;
}

/** Whether `</think>` (8 bytes) is at `at`, inside [0, end). */
function tagThinkCloseAt(at: i32, end: i32): bool {
  return at >= 0 && at + 8 <= end && load<u64>(blockAt + <usize>(at + 0)) == 0x3e6b6e6968742f3c;
}

/** Whether `</answer>` (9 bytes) is at `at`, inside [0, end). */
function tagAnswerCloseAt(at: i32, end: i32): bool {
  return at >= 0 && at + 9 <= end && load<u64>(blockAt + <usize>(at + 0)) == 0x726577736e612f3c && load<u64>(blockAt + <usize>(at + 1)) == 0x3e726577736e612f;
}

/** Whether one of the layout's four tags starts at `at`, where there is a `<`. */
function tagAt(at: i32, end: i32): bool {
  const next = at + 1 < end ? byteAt(at + 1) : 0;
  if (next == 0x74) return tagThinkAt(at, end);
  if (next == 0x61) return tagAnswerAt(at, end);
  return next == 0x2f && (tagThinkCloseAt(at, end) || tagAnswerCloseAt(at, end));
}

// Where the last completion's layout parts lie (see layoutUntil in dump-bytes.ts).
let layoutMiddle: i32 = 0;
let layoutNewline: i32 = 0;

/**
 * The completion whose content starts at `start` when its raw bytes hold the whole layout, read
 * as dump-bytes.ts's scanCompletion and layoutUntil read it (its think text's references
 * recorded): the position after its closing quote, layoutMiddle and layoutNewline set; else -1.
 */
function completionString(start: i32, limit: i32): i32 {
  if (!thinkOpenAt(start, limit)) return -1;
  let i = start + THINK_OPEN_LENGTH - NEWLINE_LENGTH;
  if (!(i + NEWLINE_LENGTH < limit && byteAt(i + NEWLINE_LENGTH) == LESS && thinkToJudgmentAt(i, limit))) {
    i += NEWLINE_LENGTH;
    for (;;) {
      i = nextStop(i, limit, true, true);
      if (i >= limit) return -1;
      const c = byteAt(i);
      if (c == OPEN_LIST) {
        const after = referenceAt(i, limit);
        if (failed) return -1;
        i = after < 0 ? i + 1 : after;
        continue;
      }
      if (c == LESS) {
        if (tagAt(i, limit)) return -1;
        i++;
        continue;
      }
      if (c != BACKSLASH || i + 1 >= limit) return -1;
      const e = byteAt(i + 1);
      if (e == 0x2f || !plainEscape(e)) return -1;
      if (e == 0x6e && i + NEWLINE_LENGTH < limit && byteAt(i + NEWLINE_LENGTH) == LESS && thinkToJudgmentAt(i, limit)) break;
      i += 2;
    }
  }
  const middle = i;
  const newline = nextStop(middle + THINK_TO_JUDGMENT_LENGTH, limit, false, false);
  if (!judgmentToEvidenceAt(newline, limit)) return -1;
  const answerEnd = nextStop(newline + JUDGMENT_TO_EVIDENCE_LENGTH, limit, false, false);
  const quote = answerEnd + ANSWER_CLOSE_LENGTH;
  if (!answerCloseAt(answerEnd, limit) || quote >= limit || byteAt(quote) != QUOTE) return -1;
  layoutMiddle = middle;
  layoutNewline = newline;
  return quote + 1;
}

/** An integer at `at` into integerValue: the position after it, or -1. */
@inline function integerAt(at: i32, limit: i32): i32 {
  const start = at;
  let value: f64 = 0;
  while (at < limit) {
    const c = byteAt(at);
    if (c < 0x30 || c > 0x39) break;
    value = value * 10 + <f64>(c - 0x30);
    at++;
  }
  const digits = at - start;
  if (digits == 0 || digits > MAX_DIGITS || (digits > 1 && byteAt(start) == 0x30)) return -1;
  if (at < limit) {
    const c = byteAt(at);
    if (c == 0x2e || c == 0x65 || c == 0x45) return -1;
  }
  integerValue = value;
  return at;
}

/** Appends a number; false (setting `failed`) when they are full. */
function pushNumber(value: f64): bool {
  if (numberCount == numberRoom) {
    failed = true;
    return false;
  }
  store<f64>(numbersAt + (<usize>numberCount << 3), value);
  numberCount++;
  return true;
}

// The seven keys read here, each with its closing quote, compared as little-endian words (`case_id"` is one u64).
const KEY_CASE_ID = 1;
const KEY_RUN = 2;
const KEY_JUDGMENT = 3;
const KEY_EVIDENCE_IDS = 4;
const KEY_REASONING = 5;
const KEY_COMPLETION = 6;
const KEY_PREDICTION = 7;

/** `completi`, the first eight bytes of `completion` (then `on` and its quote). */
const COMPLETION_HEAD: u64 = 0x6974656c706d6f63;

/** The kind of the key keyAt read last. */
let keyRead = 0;

/** The key whose opening quote is at `at`: the position after its closing quote (its kind in keyRead), or -1 when it is none of the seven. */
@inline function keyAt(at: i32, end: i32): i32 {
  // The first letter tells which of the keys it can be.
  const letter = at + 1 < end ? byteAt(at + 1) : 0;
  if (letter == 0x63) {
    if (at + 9 <= end && load<u64>(blockAt + <usize>(at + 1)) == 0x2264695f65736163) {
      keyRead = KEY_CASE_ID;
      return at + 9;
    }
    if (at + 12 <= end && load<u64>(blockAt + <usize>(at + 1)) == COMPLETION_HEAD && load<u16>(blockAt + <usize>(at + 9)) == 0x6e6f && byteAt(at + 11) == QUOTE) {
      keyRead = KEY_COMPLETION;
      return at + 12;
    }
    return -1;
  }
  if (letter == 0x72) {
    if (at + 5 <= end && load<u32>(blockAt + <usize>(at + 1)) == 0x226e7572) {
      keyRead = KEY_RUN;
      return at + 5;
    }
    if (at + 11 <= end && load<u64>(blockAt + <usize>(at + 1)) == 0x6e696e6f73616572 && load<u16>(blockAt + <usize>(at + 9)) == 0x2267) {
      keyRead = KEY_REASONING;
      return at + 11;
    }
    return -1;
  }
  if (letter == 0x6a) {
    if (at + 10 <= end && load<u64>(blockAt + <usize>(at + 1)) == 0x746e656d6764756a && load<u8>(blockAt + <usize>(at + 9)) == 0x22) {
      keyRead = KEY_JUDGMENT;
      return at + 10;
    }
    return -1;
  }
  if (letter == 0x65) {
    if (at + 23 <= end && load<u64>(blockAt + <usize>(at + 1)) == 0x65636e6564697665 && load<u64>(blockAt + <usize>(at + 9)) == 0x636e65746e65735f && load<u32>(blockAt + <usize>(at + 17)) == 0x64695f65 && load<u16>(blockAt + <usize>(at + 21)) == 0x2273) {
      keyRead = KEY_EVIDENCE_IDS;
      return at + 23;
    }
    return -1;
  }
  if (letter == 0x70) {
    // `predicti`, then `ion"` (overlapping it by a byte).
    if (at + 12 <= end && load<u64>(blockAt + <usize>(at + 1)) == 0x6974636964657270 && load<u32>(blockAt + <usize>(at + 8)) == 0x226e6f69) {
      keyRead = KEY_PREDICTION;
      return at + 12;
    }
    return -1;
  }
  return -1;
}

/** References a row's summary is taken over at most (a line with more is the JavaScript reader's to count). */
const REFERENCES_SUMMED = 16;
/** The summed references' ranges, sorted by their first ID (REFERENCES_SUMMED of them at most), in this module's own data. */
const sortedFirsts: usize = memory.data(REFERENCES_SUMMED * 8);
const sortedLasts: usize = memory.data(REFERENCES_SUMMED * 8);
/** References summed end below this: the summary's numbers are 32-bit integers. */
const SUMMED_BELOW: f64 = 2147483648;

/**
 * The row's REFERENCE_SUMMARY and REFERENCE_HIGHEST for references [from, to), as
 * core/document/references.ts's referenceCountOf counts them: rejected when one starts below 1,
 * ends before it starts or ends beyond the sentence count; else the size of their union.
 */
function summarizeReferences(row: usize, from: i32, to: i32, both: bool): void {
  const count = to - from;
  store<i32>(row + (REFERENCE_HIGHEST << 2), 0);
  if (both || count > REFERENCES_SUMMED) {
    store<i32>(row + (REFERENCE_SUMMARY << 2), -1);
    return;
  }
  let highest: f64 = 0;
  let rejected = false;
  for (let k = 0; k < count; k++) {
    const at = referencesAt + <usize>(from + k) * 24;
    const first = load<f64>(at);
    const last = load<f64>(at + 8);
    // An end of 2^31 or beyond (Infinity included) is left to the recorded references: whether it
    // is beyond the sentence count is theirs to say.
    if (!(last < SUMMED_BELOW)) {
      store<i32>(row + (REFERENCE_SUMMARY << 2), -1);
      return;
    }
    if (first < 1 || last < first) rejected = true;
    if (last > highest) highest = last;
    // Insertion by first ID, stable (as mergeRanges sorts them).
    let place = k;
    while (place > 0 && load<f64>(sortedFirsts + (<usize>(place - 1) << 3)) > first) {
      store<f64>(sortedFirsts + (<usize>place << 3), load<f64>(sortedFirsts + (<usize>(place - 1) << 3)));
      store<f64>(sortedLasts + (<usize>place << 3), load<f64>(sortedLasts + (<usize>(place - 1) << 3)));
      place--;
    }
    store<f64>(sortedFirsts + (<usize>place << 3), first);
    store<f64>(sortedLasts + (<usize>place << 3), last);
  }
  if (rejected) {
    store<i32>(row + (REFERENCE_SUMMARY << 2), -2);
    return;
  }
  // The union: ranges that overlap or touch merge.
  let cited: f64 = 0;
  let runFirst: f64 = 0;
  let runLast: f64 = -2;
  for (let k = 0; k < count; k++) {
    const first = load<f64>(sortedFirsts + (<usize>k << 3));
    const last = load<f64>(sortedLasts + (<usize>k << 3));
    if (k > 0 && first <= runLast + 1) {
      if (last > runLast) runLast = last;
    } else {
      if (k > 0) cited += runLast - runFirst + 1;
      runFirst = first;
      runLast = last;
    }
  }
  if (count > 0) cited += runLast - runFirst + 1;
  store<i32>(row + (REFERENCE_SUMMARY << 2), <i32>cited);
  store<i32>(row + (REFERENCE_HIGHEST << 2), <i32>highest);
}

/**
 * The value at `at` of a member whose key is of kind `kind` (one of the six fields, not
 * `prediction`) into the row: the position after it, or -1. A field read already leaves the shape.
 */
function readValue(kind: i32, at: i32, end: i32, row: usize): i32 {
  const c = byteAt(at);
  const value = at;
  if (kind == KEY_CASE_ID) {
    if (load<i32>(row + (CASE_START << 2)) >= 0 || c != QUOTE || (at = plainString(at + 1, end)) < 0) return -1;
    store<i32>(row + (CASE_START << 2), value + 1);
    store<i32>(row + (CASE_END << 2), at - 1);
  } else if (kind == KEY_RUN) {
    if (load<i32>(row + (RUN_KIND << 2)) != 0) return -1;
    if (c == QUOTE) {
      if ((at = plainString(at + 1, end)) < 0) return -1;
      store<i32>(row + (RUN_KIND << 2), 2);
      store<i32>(row + (RUN_START << 2), value + 1);
      store<i32>(row + (RUN_END << 2), at - 1);
    } else {
      if ((at = integerAt(at, end)) < 0) return -1;
      store<i32>(row + (RUN_KIND << 2), 1);
      store<i32>(row + (RUN_VALUE << 2), numberCount);
      if (!pushNumber(integerValue)) return -1;
    }
  } else if (kind == KEY_JUDGMENT) {
    if (load<i32>(row + (JUDGMENT << 2)) != 0) return -1;
    if (c == 0x74 && at + 4 <= end && byteAt(at + 1) == 0x72 && byteAt(at + 2) == 0x75 && byteAt(at + 3) == 0x65) {
      store<i32>(row + (JUDGMENT << 2), 1);
      at += 4;
    } else if (c == 0x66 && at + 5 <= end && byteAt(at + 1) == 0x61 && byteAt(at + 2) == 0x6c && byteAt(at + 3) == 0x73 && byteAt(at + 4) == 0x65) {
      store<i32>(row + (JUDGMENT << 2), 2);
      at += 5;
    } else return -1;
  } else if (kind == KEY_EVIDENCE_IDS) {
    if (load<i32>(row + (EVIDENCE_COUNT << 2)) >= 0 || c != OPEN_LIST) return -1;
    const from = numberCount;
    at = skipSpaces(at + 1, end);
    if (at < end && byteAt(at) == CLOSE_LIST) at++;
    else {
      for (;;) {
        at = skipSpaces(at, end);
        if (at >= end || (at = integerAt(at, end)) < 0 || !pushNumber(integerValue)) return -1;
        at = skipSpaces(at, end);
        if (at >= end) return -1;
        const next = byteAt(at++);
        if (next == CLOSE_LIST) break;
        if (next != COMMA) return -1;
      }
    }
    store<i32>(row + (EVIDENCE_COUNT << 2), numberCount - from);
    store<i32>(row + (EVIDENCE_FROM << 2), from);
  } else if (kind == KEY_COMPLETION) {
    if (load<i32>(row + (COMPLETION_START << 2)) >= 0 || c != QUOTE || (at = completionString(at + 1, end)) < 0) return -1;
    store<i32>(row + (COMPLETION_START << 2), value + 1);
    store<i32>(row + (COMPLETION_END << 2), at - 1);
    store<i32>(row + (LAYOUT_MIDDLE << 2), layoutMiddle);
    store<i32>(row + (LAYOUT_NEWLINE << 2), layoutNewline);
  } else {
    if (load<i32>(row + (REASONING_START << 2)) >= 0 || c != QUOTE || (at = reasoningString(at + 1, end)) < 0) return -1;
    store<i32>(row + (REASONING_START << 2), value + 1);
    store<i32>(row + (REASONING_END << 2), at - 1);
    store<i32>(row + (REASONING_ESCAPED << 2), escaped ? 1 : 0);
  }
  return at;
}

/** Whether the kind is one of the prediction's own fields: judgment, evidence_sentence_ids, reasoning, completion. */
@inline function predictionField(kind: i32): bool {
  return kind >= KEY_JUDGMENT && kind <= KEY_COMPLETION;
}

/** Whether the row holds one of the prediction's own fields (dump-bytes.ts's predictionFieldRead). */
@inline function predictionFieldRead(row: usize): bool {
  return load<i32>(row + (JUDGMENT << 2)) != 0 || load<i32>(row + (EVIDENCE_COUNT << 2)) >= 0 || load<i32>(row + (REASONING_START << 2)) >= 0 || load<i32>(row + (COMPLETION_START << 2)) >= 0;
}

/**
 * The members of a `prediction` object from `at` (after its `{`) into the row, as dump-bytes.ts's
 * scanPrediction reads them: the position after its `}`, or -1. Only the prediction's own four
 * fields are read here; any other key (which the scanner checks and drops, or turns down) leaves
 * the line to the scanner.
 */
function readPrediction(at: i32, end: i32, row: usize): i32 {
  at = skipSpaces(at, end);
  if (at < end && byteAt(at) == CLOSE_OBJECT) return at + 1;
  for (;;) {
    at = skipSpaces(at, end);
    if (at >= end || byteAt(at) != QUOTE || (at = keyAt(at, end)) < 0 || !predictionField(keyRead)) return -1;
    const kind = keyRead;
    at = skipSpaces(at, end);
    if (at >= end || byteAt(at) != COLON) return -1;
    at = skipSpaces(at + 1, end);
    if (at >= end || (at = readValue(kind, at, end, row)) < 0) return -1;
    at = skipSpaces(at, end);
    if (at >= end) return -1;
    const next = byteAt(at++);
    if (next == CLOSE_OBJECT) return at;
    if (next != COMMA) return -1;
  }
  return -1;
}

/** Reads the line [start, end) into the row at `row`: whether it has the shape (else the row's status is 0 and nothing else in it holds). */
function readLine(start: i32, end: i32, row: usize): bool {
  if (start >= end || byteAt(start) != OPEN_OBJECT) return false;
  failed = false;
  store<i32>(row + (CASE_START << 2), -1);
  store<i32>(row + (RUN_KIND << 2), 0);
  store<i32>(row + (JUDGMENT << 2), 0);
  store<i32>(row + (EVIDENCE_COUNT << 2), -1);
  store<i32>(row + (REASONING_START << 2), -1);
  store<i32>(row + (COMPLETION_START << 2), -1);
  store<i32>(row + (REFERENCE_FROM << 2), referenceCount);
  // Whether the line has had its `prediction` object: the four fields are then that object's alone.
  let prediction = false;
  let at = skipSpaces(start + 1, end);
  for (;;) {
    at = skipSpaces(at, end);
    if (at >= end || byteAt(at) != QUOTE || (at = keyAt(at, end)) < 0) return false;
    const kind = keyRead;
    at = skipSpaces(at, end);
    if (at >= end || byteAt(at) != COLON) return false;
    at = skipSpaces(at + 1, end);
    if (at >= end) return false;
    if (kind == KEY_PREDICTION) {
      // As scanPrediction: one object, and none of its fields on the line before it.
      if (prediction || predictionFieldRead(row) || byteAt(at) != OPEN_OBJECT || (at = readPrediction(at + 1, end, row)) < 0) return false;
      prediction = true;
    } else if ((prediction && predictionField(kind)) || (at = readValue(kind, at, end, row)) < 0) return false;
    at = skipSpaces(at, end);
    if (at >= end) return false;
    const next = byteAt(at++);
    if (next == CLOSE_OBJECT) {
      if (skipSpaces(at, end) != end) return false;
      const from = load<i32>(row + (REFERENCE_FROM << 2));
      store<i32>(row + (REFERENCE_COUNT << 2), referenceCount - from);
      const both = load<i32>(row + (REASONING_START << 2)) >= 0 && load<i32>(row + (COMPLETION_START << 2)) >= 0;
      summarizeReferences(row, from, referenceCount, both);
      return true;
    }
    if (next != COMMA) return false;
  }
  return false;
}

/** Where the memory free for the caller begins (after this module's own data). */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * Reads the block's lines: the block at `block`, line k ending at the i32 ends[k] (its newline, or
 * the block's end), rows of ROW_FIELDS i32 at `rows`, numbers (f64) at `numbers` (room for
 * `numberLimit`), references (f64 first, last and position of their `[`) at `references` (room
 * for `referenceLimit`).
 */
export function scanLines(block: usize, ends: usize, lineCount: i32, rows: usize, numbers: usize, numberLimit: i32, references: usize, referenceLimit: i32): void {
  blockAt = block;
  numbersAt = numbers;
  numberCount = 0;
  numberRoom = numberLimit;
  referencesAt = references;
  referenceCount = 0;
  referenceRoom = referenceLimit;
  let start: i32 = 0;
  for (let k: i32 = 0; k < lineCount; k++) {
    const end = load<i32>(ends + (<usize>k << 2));
    // The line's text drops one final "\r", as the block's scorer gives it to the scanner.
    const textEnd = end > start && byteAt(end - 1) == 0x0d ? end - 1 : end;
    const row = rows + (<usize>(k * ROW_FIELDS) << 2);
    const numbersBefore = numberCount;
    const referencesBefore = referenceCount;
    if (readLine(start, textEnd, row) && !failed) store<i32>(row + (STATUS << 2), 1);
    else {
      store<i32>(row + (STATUS << 2), 0);
      numberCount = numbersBefore;
      referenceCount = referencesBefore;
    }
    start = end + 1;
  }
}

// Scoring the rows scanLines read last (src/tasks/document/row-scores.ts): the line's case found by
// its id's bytes, its prediction checked and scored as score-bytes.ts's scoreLineBytes and
// scoreChecked score it, into columns laid out as the chunk's result's. A line this does not take
// keeps its row and goes to score-bytes.ts as before.

// The slice's case facts, laid out by the caller (useCaseFacts) where block scanning never writes.
let idBytesAt: usize = 0;
let idStartsAt: usize = 0;
let caseOfAt: usize = 0;
let entryCount: i32 = 0;
let tableAt: usize = 0;
let tableMask: u32 = 0;
/** Per case four i32: sentence count (0: a case score-bytes.ts's CaseFacts does not call ready), gold positive, first gold ID, gold ID count. */
let casesAt: usize = 0;
let goldAt: usize = 0;
/** The entry found last: a case's runs often follow one another, a run's cases in slice order. */
let lastEntry: i32 = 0;

/** A hash of `length` bytes at `at`, a word at a time, then its tail a byte at a time. */
function hashBytes(at: usize, length: i32): u32 {
  let h: u32 = 0x811c9dc5 ^ <u32>length;
  let k: i32 = 0;
  for (; k + 4 <= length; k += 4) {
    h = (h ^ load<u32>(at + <usize>k)) * 0x5bd1e995;
    h ^= h >> 15;
  }
  for (; k < length; k++) h = (h ^ <u32>load<u8>(at + <usize>k)) * 0x01000193;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  return h ^ (h >> 16);
}

/** Whether entry `entry`'s id is the `length` bytes at `at`. */
function isEntry(entry: i32, at: usize, length: i32): bool {
  const from = load<i32>(idStartsAt + (<usize>entry << 2));
  if (load<i32>(idStartsAt + (<usize>(entry + 1) << 2)) - from != length) return false;
  const id = idBytesAt + <usize>from;
  let k: i32 = 0;
  for (; k + 8 <= length; k += 8) if (load<u64>(id + <usize>k) != load<u64>(at + <usize>k)) return false;
  for (; k < length; k++) if (load<u8>(id + <usize>k) != load<u8>(at + <usize>k)) return false;
  return true;
}

/**
 * The slice's case ids (entry k's UTF-8 bytes at idBytes[idStarts[k] .. idStarts[k + 1]), its case
 * index caseOf[k]), `cases` and `gold` as casesAt and goldAt say, and room for a hash table of
 * `tableSize` (a power of two above the entry count) i32 at `table`: kept for scoreRows.
 */
export function useCaseFacts(idBytes: usize, idStarts: usize, caseOf: usize, entries: i32, table: usize, tableSize: i32, cases: usize, gold: usize): void {
  idBytesAt = idBytes;
  idStartsAt = idStarts;
  caseOfAt = caseOf;
  entryCount = entries;
  tableAt = table;
  tableMask = <u32>tableSize - 1;
  casesAt = cases;
  goldAt = gold;
  lastEntry = 0;
  memory.fill(table, 0, <usize>tableSize << 2);
  for (let k: i32 = 0; k < entries; k++) {
    const from = load<i32>(idStarts + (<usize>k << 2));
    const length = load<i32>(idStarts + (<usize>(k + 1) << 2)) - from;
    let slot = hashBytes(idBytes + <usize>from, length) & tableMask;
    while (load<i32>(table + (<usize>slot << 2)) != 0) slot = (slot + 1) & tableMask;
    store<i32>(table + (<usize>slot << 2), k + 1);
  }
}

/** The entry of the case id block[start .. end), or -1. */
function findEntry(start: i32, end: i32): i32 {
  const at = blockAt + <usize>start;
  const length = end - start;
  if (entryCount == 0) return -1;
  const last = lastEntry;
  if (isEntry(last, at, length)) return last;
  if (last + 1 < entryCount && isEntry(last + 1, at, length)) {
    lastEntry = last + 1;
    return last + 1;
  }
  let slot = hashBytes(at, length) & tableMask;
  for (;;) {
    const entry = load<i32>(tableAt + (<usize>slot << 2)) - 1;
    if (entry < 0) return -1;
    if (isEntry(entry, at, length)) {
      lastEntry = entry;
      return entry;
    }
    slot = (slot + 1) & tableMask;
  }
  return -1;
}

/** A judgment string of the layout as score-bytes.ts's judgmentOfBytes reads it: 1 true, 0 false, -1 not one it takes. */
function layoutJudgment(start: i32, end: i32): i32 {
  const length = end - start;
  if (length < 2 || length > 5) return -1;
  let folded: u64 = 0;
  for (let k = start; k < end; k++) {
    let c = byteAt(k);
    if (c >= 0x80) return -1;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    folded = folded * 128 + <u64>c;
  }
  // "yes", "true", "no", "false", each character a base-128 digit.
  if (folded == 0x1e72f3 || folded == 0xe9cbae5) return 1;
  if (folded == 0x376f || folded == 0x66c3b39e5) return 0;
  return -1;
}

/**
 * The layout's `Evidence:` list block[start .. end) in the plain form score-bytes.ts's
 * plainIdsOfBytes takes (`[]`, `[3, 12]`: integers of at most nine digits without a leading zero,
 * joined by ", ") into the i32 at `ids` (room for `room`): how many, or -1 for any other text or
 * a list that does not fit.
 */
function plainIds(start: i32, end: i32, ids: usize, room: i32): i32 {
  if (end - start < 2 || byteAt(start) != OPEN_LIST || byteAt(end - 1) != CLOSE_LIST) return -1;
  if (end - start == 2) return 0;
  let count: i32 = 0;
  let at = start + 1;
  for (;;) {
    const from = at;
    let value: i32 = 0;
    while (at < end) {
      const c = byteAt(at);
      if (c < 0x30 || c > 0x39) break;
      // Nine digits at most: checked below, before the value is used.
      if (at - from < 9) value = value * 10 + <i32>(c - 0x30);
      at++;
    }
    const digits = at - from;
    if (digits == 0 || digits > 9 || (digits > 1 && byteAt(from) == 0x30)) return -1;
    if (count == room) return -1;
    store<i32>(ids + (<usize>count << 2), value);
    count++;
    if (at == end - 1) return count;
    if (byteAt(at) != COMMA || byteAt(at + 1) != SPACE) return -1;
    at += 2;
  }
  return -1;
}

/** The IDs [0, count) at `ids` sorted and de-duplicated in place (as sortedUnique): how many remain. */
function sortUnique(ids: usize, count: i32): i32 {
  let kept: i32 = 0;
  for (let k: i32 = 0; k < count; k++) {
    // Entries from `kept` on are not yet read: the kept prefix never grows past the one read.
    const id = load<i32>(ids + (<usize>k << 2));
    let at = kept;
    while (at > 0 && load<i32>(ids + (<usize>(at - 1) << 2)) > id) at--;
    if (at > 0 && load<i32>(ids + (<usize>(at - 1) << 2)) == id) continue;
    for (let m = kept; m > at; m--) store<i32>(ids + (<usize>m << 2), load<i32>(ids + (<usize>(m - 1) << 2)));
    store<i32>(ids + (<usize>at << 2), id);
    kept++;
  }
  return kept;
}

// The reasons a scored line can have, written as the chunk's code column numbers them: their
// CASE_REASONS indices (src/tasks/document/score.ts; row-scores.ts's ROW_REASON_CODES, checked by
// test/document-eval/score-bytes.property.test.ts).
const REASON_NONE: u8 = 0;
const REASON_EVIDENCE_OUT: u8 = 7; // evidence_out_of_document
const REASON_POSITIVE_WITHOUT: u8 = 8; // positive_without_evidence
const REASON_NEGATIVE_WITH: u8 = 9; // negative_with_evidence
const REASON_REFERENCE_OUT: u8 = 11; // reasoning_reference_out_of_document
/** A scored line's kind in the chunk's kind column (LINE_KIND_PREDICTION of score.ts). */
const KIND_PREDICTION: u8 = 2;

/** Evidence lists longer than this are left to JavaScript (sorted here by insertion). */
const IDS_SORTED: i32 = 256;

// The outputs of the lines being scored, a column each, laid out as the chunk's result columns
// (score.ts's ChunkResult) so that JavaScript copies them whole: line k's kind (u8), code (u8),
// case (i32, -1: left to JavaScript), judgment (u8), coverage (f64), accuracy reward (f64), matched
// (i32), where its IDs start among the scored lines' (i32, one more for the end), and its run (i32:
// an integer run below 2^31, 0 for an absent run, whose key is the integer 0's, else -1).
let kindsAt: usize = 0;
let codesAt: usize = 0;
let caseIndexesAt: usize = 0;
let judgmentsAt: usize = 0;
let coveragesAt: usize = 0;
let rewardsAt: usize = 0;
let matchesAt: usize = 0;
let idStartsOutAt: usize = 0;
let runsAt: usize = 0;

/** Line k's outputs as a fresh chunk's columns hold them for a line JavaScript then scores. */
function leaveLine(k: i32): void {
  store<u8>(kindsAt + <usize>k, 0);
  store<u8>(codesAt + <usize>k, 0);
  store<i32>(caseIndexesAt + (<usize>k << 2), -1);
  store<u8>(judgmentsAt + <usize>k, 0);
  store<f64>(coveragesAt + (<usize>k << 3), 0);
  store<f64>(rewardsAt + (<usize>k << 3), 0);
  store<i32>(matchesAt + (<usize>k << 2), 0);
  store<i32>(runsAt + (<usize>k << 2), -1);
}

/** Integer runs below this are written in the run column (above, JavaScript reads them from the row). */
const RUN_COLUMN_BELOW: f64 = 2147483648;

/**
 * Scores the row at `row` into line k's outputs, its sorted unique evidence IDs at `ids` (room for
 * `room`): how many IDs, or -1 when the line is left to JavaScript (its outputs then unwritten).
 */
function scoreRow(row: usize, k: i32, answerFinal: bool, ids: usize, room: i32): i32 {
  const caseStart = load<i32>(row + (CASE_START << 2));
  if (caseStart < 0) return -1;
  const entry = findEntry(caseStart, load<i32>(row + (CASE_END << 2)));
  if (entry < 0) return -1;
  const caseIndex = load<i32>(caseOfAt + (<usize>entry << 2));
  const facts = casesAt + (<usize>caseIndex << 4);
  const n = load<i32>(facts);
  if (n < 1) return -1;
  const positive = load<i32>(facts + 4) != 0;
  let reason = REASON_NONE;
  let judgment = false;
  let rawCount: i32 = 0;
  let reasonStart: i32 = 0;
  let reasonEnd: i32 = 0;
  const judgmentKind = load<i32>(row + (JUDGMENT << 2));
  if (judgmentKind != 0) {
    judgment = judgmentKind == 1;
    const count = load<i32>(row + (EVIDENCE_COUNT << 2));
    if (count > 0) {
      if (count > room || count > IDS_SORTED) return -1;
      rawCount = count;
      const from = numbersAt + (<usize>load<i32>(row + (EVIDENCE_FROM << 2)) << 3);
      // Checked as the numbers they are (up to 15 digits), then kept as i32.
      let low: f64 = Infinity;
      let high: f64 = -Infinity;
      for (let k: i32 = 0; k < count; k++) {
        const id = load<f64>(from + (<usize>k << 3));
        if (id < low) low = id;
        if (id > high) high = id;
      }
      if (low < 1 || high > <f64>n) reason = REASON_EVIDENCE_OUT;
      else for (let k: i32 = 0; k < count; k++) store<i32>(ids + (<usize>k << 2), <i32>load<f64>(from + (<usize>k << 3)));
    }
    const reasoning = load<i32>(row + (REASONING_START << 2));
    if (reasoning >= 0) {
      reasonStart = reasoning;
      reasonEnd = load<i32>(row + (REASONING_END << 2));
    }
  } else {
    const completion = load<i32>(row + (COMPLETION_START << 2));
    if (completion < 0 || !answerFinal) return -1;
    const middle = load<i32>(row + (LAYOUT_MIDDLE << 2));
    const newline = load<i32>(row + (LAYOUT_NEWLINE << 2));
    const answerEnd = load<i32>(row + (COMPLETION_END << 2)) - ANSWER_CLOSE_LENGTH;
    const said = layoutJudgment(middle + THINK_TO_JUDGMENT_LENGTH, newline);
    if (said < 0) return -1;
    judgment = said == 1;
    rawCount = plainIds(newline + JUDGMENT_TO_EVIDENCE_LENGTH, answerEnd, ids, min(room, IDS_SORTED));
    if (rawCount < 0) return -1;
    if (rawCount > 0) {
      let low: i32 = i32.MAX_VALUE;
      let high: i32 = i32.MIN_VALUE;
      for (let k: i32 = 0; k < rawCount; k++) {
        const id = load<i32>(ids + (<usize>k << 2));
        if (id < low) low = id;
        if (id > high) high = id;
      }
      if (low < 1 || high > n) reason = REASON_EVIDENCE_OUT;
    }
    reasonStart = completion + THINK_OPEN_LENGTH;
    reasonEnd = max(reasonStart, middle);
  }
  if (reason == REASON_NONE) {
    if (judgment && rawCount == 0) reason = REASON_POSITIVE_WITHOUT;
    else if (!judgment && rawCount > 0) reason = REASON_NEGATIVE_WITH;
  }
  let referenceCount: i32 = 0;
  if (reason == REASON_NONE && reasonEnd > reasonStart) {
    // The row's summary of the line's references (their only text is this one when it says it).
    const summary = load<i32>(row + (REFERENCE_SUMMARY << 2));
    if (summary == -1) return -1;
    if (summary == -2 || load<i32>(row + (REFERENCE_HIGHEST << 2)) > n) reason = REASON_REFERENCE_OUT;
    else referenceCount = summary;
  }
  const count = reason == REASON_NONE ? sortUnique(ids, rawCount) : 0;
  // A format-invalid prediction scores as a negative judgment without evidence or references.
  const judged = reason == REASON_NONE && count > 0;
  const gold = goldAt + (<usize>load<i32>(facts + 8) << 2);
  const goldCount = load<i32>(facts + 12);
  let matched: i32 = 0;
  for (let i: i32 = 0, j: i32 = 0; i < count && j < goldCount; ) {
    const x = load<i32>(ids + (<usize>i << 2));
    const y = load<i32>(gold + (<usize>j << 2));
    if (x == y) {
      matched++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  // rewards.ts's accuracyReward.
  let reward: f64;
  if (!positive) reward = judged ? 0 : 1;
  else if (!judged) reward = 0;
  else reward = matched == 0 ? -1 : 1 + <f64>matched / <f64>goldCount;
  const runKind = load<i32>(row + (RUN_KIND << 2));
  let run: i32 = runKind == 0 ? 0 : -1;
  if (runKind == 1) {
    const value = load<f64>(numbersAt + (<usize>load<i32>(row + (RUN_VALUE << 2)) << 3));
    if (value < RUN_COLUMN_BELOW) run = <i32>value;
  }
  store<u8>(kindsAt + <usize>k, KIND_PREDICTION);
  store<u8>(codesAt + <usize>k, reason);
  store<i32>(caseIndexesAt + (<usize>k << 2), caseIndex);
  store<u8>(judgmentsAt + <usize>k, judged ? 1 : 0);
  store<f64>(coveragesAt + (<usize>k << 3), reason == REASON_NONE ? <f64>referenceCount / <f64>n : 0);
  store<f64>(rewardsAt + (<usize>k << 3), reward);
  store<i32>(matchesAt + (<usize>k << 2), matched);
  store<i32>(runsAt + (<usize>k << 2), run);
  return count;
}

/**
 * Scores the lines whose rows scanLines wrote last (at `rows`, over the same block and numbers):
 * line k's outputs at index k of the columns (kinds, codes, caseIndexes, judgments, coverages,
 * rewards, matches, idStarts, runs: see kindsAt), a line left to JavaScript's as a fresh chunk
 * holds them (its case -1), the scored lines' evidence IDs one after another at `ids` (room for
 * `idRoom`), line k's from idStarts[k] to idStarts[k + 1]. `answerFinal`: whether a completion's
 * `\n</answer>` end is read as written (else completions are left to JavaScript). Returns how
 * many lines it scored.
 */
export function scoreRows(
  rows: usize,
  lineCount: i32,
  answerFinal: bool,
  kinds: usize,
  codes: usize,
  caseIndexes: usize,
  judgments: usize,
  coverages: usize,
  rewards: usize,
  matches: usize,
  idStarts: usize,
  runs: usize,
  ids: usize,
  idRoom: i32,
): i32 {
  kindsAt = kinds;
  codesAt = codes;
  caseIndexesAt = caseIndexes;
  judgmentsAt = judgments;
  coveragesAt = coverages;
  rewardsAt = rewards;
  matchesAt = matches;
  idStartsOutAt = idStarts;
  runsAt = runs;
  let idCount: i32 = 0;
  let scored: i32 = 0;
  for (let k: i32 = 0; k < lineCount; k++) {
    const row = rows + (<usize>(k * ROW_FIELDS) << 2);
    store<i32>(idStartsOutAt + (<usize>k << 2), idCount);
    const count = load<i32>(row + (STATUS << 2)) == 1 ? scoreRow(row, k, answerFinal, ids + (<usize>idCount << 2), idRoom - idCount) : -1;
    if (count < 0) {
      leaveLine(k);
      continue;
    }
    idCount += count;
    scored++;
  }
  store<i32>(idStartsOutAt + (<usize>lineCount << 2), idCount);
  return scored;
}
