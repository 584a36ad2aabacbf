// AssemblyScript, compiled by scripts/build-wasm.mjs into src/gates/run-lines-wasm.ts (the
// module's bytes, checked to be current by test/wasm-modules.test.ts).
//
// The run lines of a document cases.jsonl written exactly as mari writes them, found in a block of
// lines and read into rows (src/gates/run-lines.ts):
// `{"run":…,"line":…,"judgment":…,"reason":…,"evidence_sentence_ids":[…],"reference_coverage":…}`,
// `line` and `reason` optional, no spaces, the run a string of printable ASCII without escapes or
// an integer of at most 15 digits as String() writes it, a positive line number, evidence IDs of at
// most 15 digits, the coverage a JSON number and the line's last byte. Any other line gets no row;
// JavaScript reads it with the general reader, which gives such a line the same outcome.

/** Int32 fields of a row. */
const ROW_FIELDS: i32 = 11;
const NEWLINE: u8 = 0x0a;
const QUOTE: u8 = 0x22;
const BACKSLASH: u8 = 0x5c;
const MINUS: u8 = 0x2d;
const ZERO: u8 = 0x30;
const NINE: u8 = 0x39;
const COMMA: u8 = 0x2c;
const CLOSE_BRACKET: u8 = 0x5d;
const CLOSE_BRACE: u8 = 0x7d;

/** The keys as mari writes them, one after another in the module's data (KEYS_* are offsets and lengths in it). */
const KEYS = '{"run":,"line":,"judgment":true,"judgment":false,"reason":,"evidence_sentence_ids":[,"reference_coverage":';
const RUN_AT: i32 = 0;
const RUN_LENGTH: i32 = 7;
const LINE_AT: i32 = 7;
const LINE_LENGTH: i32 = 8;
const TRUE_AT: i32 = 15;
const TRUE_LENGTH: i32 = 16;
const FALSE_AT: i32 = 31;
const FALSE_LENGTH: i32 = 17;
const REASON_AT: i32 = 48;
const REASON_LENGTH: i32 = 10;
const EVIDENCE_AT: i32 = 58;
const EVIDENCE_LENGTH: i32 = 26;
const COVERAGE_AT: i32 = 84;
const COVERAGE_LENGTH: i32 = 22;

/** The keys' bytes (ASCII), written once at the first scan (8 more, read by keyAt's last word). */
const keys = new StaticArray<u8>(COVERAGE_AT + COVERAGE_LENGTH + 8);
let keysReady = false;

function prepareKeys(): void {
  for (let k = 0; k < KEYS.length; k++) unchecked((keys[k] = <u8>KEYS.charCodeAt(k)));
  keysReady = true;
}

/** Whether the block's bytes at `at` are the key at `keyStart` (of `length` bytes), within `end`: eight bytes at a time. */
function keyAt(block: usize, at: i32, end: i32, keyStart: i32, length: i32): bool {
  if (at + length > end) return false;
  const p = block + <usize>at;
  const k = changetype<usize>(keys) + <usize>keyStart;
  let i = 0;
  for (; i + 8 <= length; i += 8) {
    if (load<u64>(p + <usize>i) != load<u64>(k + <usize>i)) return false;
  }
  for (; i < length; i++) {
    if (load<u8>(p + <usize>i) != load<u8>(k + <usize>i)) return false;
  }
  return true;
}

/** End (past the closing quote) of a JSON string of printable ASCII without escapes at `at`; -1 otherwise. */
function plainStringEnd(block: usize, at: i32, end: i32): i32 {
  if (at >= end || load<u8>(block + <usize>at) != QUOTE) return -1;
  for (let i = at + 1; i < end; i++) {
    const ch = load<u8>(block + <usize>i);
    if (ch == QUOTE) return i + 1;
    if (ch == BACKSLASH || ch < 0x20 || ch > 0x7e) return -1;
  }
  return -1;
}

function digitsEnd(block: usize, at: i32, end: i32): i32 {
  let i = at;
  while (i < end) {
    const ch = load<u8>(block + <usize>i);
    if (ch < ZERO || ch > NINE) break;
    i++;
  }
  return i;
}

/** End of a JSON integer at `at` that String() gives back as written (no "-0", at most 15 digits, so exact); -1 otherwise. */
function plainIntegerEnd(block: usize, at: i32, end: i32): i32 {
  const first = at < end && load<u8>(block + <usize>at) == MINUS ? at + 1 : at;
  const stop = digitsEnd(block, first, end);
  const digits = stop - first;
  if (digits == 0 || digits > 15) return -1;
  if (load<u8>(block + <usize>first) == ZERO && (digits > 1 || first > at)) return -1;
  return stop;
}

/** The value of the integer `[at, stop)` that plainIntegerEnd accepted. */
function integerAt(block: usize, at: i32, stop: i32): f64 {
  const negative = load<u8>(block + <usize>at) == MINUS;
  let value: f64 = 0;
  for (let i = negative ? at + 1 : at; i < stop; i++) value = value * 10 + <f64>(load<u8>(block + <usize>i) - ZERO);
  return negative ? -value : value;
}

/** End of a JSON number at `at`, by the JSON grammar exactly; -1 otherwise. */
function numberEnd(block: usize, at: i32, end: i32): i32 {
  let i = at < end && load<u8>(block + <usize>at) == MINUS ? at + 1 : at;
  const int = digitsEnd(block, i, end);
  if (int == i || (load<u8>(block + <usize>i) == ZERO && int > i + 1)) return -1;
  i = int;
  if (i < end && load<u8>(block + <usize>i) == 0x2e) {
    const frac = digitsEnd(block, i + 1, end);
    if (frac == i + 1) return -1;
    i = frac;
  }
  if (i < end && (load<u8>(block + <usize>i) | 0x20) == 0x65) {
    let j = i + 1;
    if (j < end && (load<u8>(block + <usize>j) == 0x2b || load<u8>(block + <usize>j) == MINUS)) j++;
    const exp = digitsEnd(block, j, end);
    if (exp == j) return -1;
    i = exp;
  }
  return i;
}

/** 10^0 … 10^22, each exactly a double. */
const POWERS_OF_TEN = new StaticArray<f64>(23);
let powersReady = false;

/**
 * The value of the JSON number `[at, stop)` (numberEnd accepted it) when it has no exponent and its
 * digits, the point ignored, make an integer w < 2^53 with at most 22 after the point: w and 10^k
 * are then exact doubles and one division, rounded as IEEE 754 rounds it, gives the double nearest
 * the decimal, which is what JSON.parse gives (Clinger's fast path). NaN otherwise (JavaScript then
 * reads it with Number()).
 */
export function exactDecimal(block: usize, at: i32, stop: i32): f64 {
  if (!powersReady) {
    let p: f64 = 1;
    for (let k = 0; k < 23; k++) {
      unchecked((POWERS_OF_TEN[k] = p));
      p *= 10;
    }
    powersReady = true;
  }
  const negative = load<u8>(block + <usize>at) == MINUS;
  let w: f64 = 0;
  let point = -1;
  for (let i = negative ? at + 1 : at; i < stop; i++) {
    const ch = load<u8>(block + <usize>i);
    if (ch == 0x2e) point = i;
    else if (ch >= ZERO && ch <= NINE) w = w * 10 + <f64>(ch - ZERO);
    else return NaN;
  }
  const after = point < 0 ? 0 : stop - point - 1;
  // Every step below 2^53 is exact; a w that passed it is at least 2^53 as computed (rounding keeps order).
  if (w >= 9007199254740992.0 || after > 22) return NaN;
  const value = w / unchecked(POWERS_OF_TEN[after]);
  return negative ? -value : value;
}

/**
 * Reads the run line `[start, end)` into row `row` (ROW_FIELDS i32: start, end, run start and end,
 * judgment 0/1, reason start and end (-1: valid), evidence count and first ID's index, coverage
 * start and end) and its coverage into `coverage`; its evidence IDs from `ids` + `idCount`. False
 * for any other line (the row is then not kept).
 */
function readLine(block: usize, start: i32, end: i32, row: usize, coverage: usize, ids: usize, idCount: i32, idLimit: i32): bool {
  if (!keyAt(block, start, end, RUN_AT, RUN_LENGTH)) return false;
  let i = start + RUN_LENGTH;
  if (i < end && load<u8>(block + <usize>i) == QUOTE) {
    const stop = plainStringEnd(block, i, end);
    if (stop < 0) return false;
    store<i32>(row + 8, i + 1);
    store<i32>(row + 12, stop - 1);
    i = stop;
  } else {
    const stop = plainIntegerEnd(block, i, end);
    if (stop < 0) return false;
    store<i32>(row + 8, i);
    store<i32>(row + 12, stop);
    i = stop;
  }
  if (keyAt(block, i, end, LINE_AT, LINE_LENGTH)) {
    i += LINE_LENGTH;
    // A positive integer (the reader refuses anything else).
    const stop = plainIntegerEnd(block, i, end);
    if (stop < 0) return false;
    const first = load<u8>(block + <usize>i);
    if (first == MINUS || first == ZERO) return false;
    i = stop;
  }
  if (keyAt(block, i, end, TRUE_AT, TRUE_LENGTH)) {
    store<i32>(row + 16, 1);
    i += TRUE_LENGTH;
  } else if (keyAt(block, i, end, FALSE_AT, FALSE_LENGTH)) {
    store<i32>(row + 16, 0);
    i += FALSE_LENGTH;
  } else return false;
  store<i32>(row + 20, -1);
  store<i32>(row + 24, -1);
  if (keyAt(block, i, end, REASON_AT, REASON_LENGTH)) {
    const stop = plainStringEnd(block, i + REASON_LENGTH, end);
    if (stop < 0) return false;
    store<i32>(row + 20, i + REASON_LENGTH + 1);
    store<i32>(row + 24, stop - 1);
    i = stop;
  }
  if (!keyAt(block, i, end, EVIDENCE_AT, EVIDENCE_LENGTH)) return false;
  i += EVIDENCE_LENGTH;
  let count = 0;
  if (i < end && load<u8>(block + <usize>i) == CLOSE_BRACKET) i++;
  else {
    for (;;) {
      const stop = plainIntegerEnd(block, i, end);
      if (stop < 0 || idCount + count >= idLimit) return false;
      store<f64>(ids + (<usize>(idCount + count) << 3), integerAt(block, i, stop));
      count++;
      i = stop;
      if (i >= end) return false;
      const ch = load<u8>(block + <usize>i);
      i++;
      if (ch == CLOSE_BRACKET) break;
      if (ch != COMMA) return false;
    }
  }
  store<i32>(row + 28, count);
  store<i32>(row + 32, idCount);
  if (!keyAt(block, i, end, COVERAGE_AT, COVERAGE_LENGTH)) return false;
  i += COVERAGE_LENGTH;
  const stop = numberEnd(block, i, end);
  if (stop < 0 || stop + 1 != end || load<u8>(block + <usize>stop) != CLOSE_BRACE) return false;
  store<i32>(row + 36, i);
  store<i32>(row + 40, stop);
  store<f64>(coverage, exactDecimal(block, i, stop));
  return true;
}

/**
 * Reads each run line in mari's shape of `block` into a row at `rows` (its coverage at `coverage`,
 * f64 per row; NaN when JavaScript must read it), its evidence IDs at `ids` (f64, at most `idLimit`
 * in all). Line i ends at ends[i] (i32: its newline, or the block's end), the line before's end + 1
 * its start. Returns the number of rows, at most `rowLimit`: a line past the limits gets no row.
 */
export function scanRunLines(block: usize, ends: usize, lineCount: i32, rows: usize, rowLimit: i32, coverage: usize, ids: usize, idLimit: i32): i32 {
  if (!keysReady) prepareKeys();
  let rowCount = 0;
  let idCount = 0;
  let start = 0;
  for (let line = 0; line < lineCount && rowCount < rowLimit; line++) {
    const end = load<i32>(ends + (<usize>line << 2));
    const row = rows + <usize>(rowCount * ROW_FIELDS * 4);
    if (readLine(block, start, end, row, coverage + (<usize>rowCount << 3), ids, idCount, idLimit)) {
      store<i32>(row, start);
      store<i32>(row + 4, end);
      idCount += load<i32>(row + 28);
      rowCount++;
    }
    start = end + 1;
  }
  return rowCount;
}

/** Where the module's own data ends (the caller's room starts at WASM_OWN_BYTES, src/core/wasm.ts). */
export function heapBase(): usize {
  return __heap_base;
}
